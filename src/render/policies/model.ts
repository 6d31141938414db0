// What the policy checks report (docs/behaviour.md, "Policies"): one finding per policy and
// app, and one per rule a built-in policy flags; made by src/engine/policies.ts, rendered by
// validate, plan and diff in every format. Why a finding has its verdict is data (`PolicyGrounds`),
// said by words.ts. Names, values and the example request come from files: untrusted, sanitised
// by each renderer.
import type { ConditionStep } from '../../diff/policy.js';
import type { TestRequest } from '../../evaluate/request.js';
import type { PolicyExpectation, PolicyOutcome } from '../../rules/policies.js';
import type { SourceLocation } from '../../semantics/model.js';

type PolicyFindingLevel = 'error' | 'warning' | 'advisory';
type PolicyVerdictName = 'holds' | 'violated' | 'unchecked';

/**
 * Why a finding has its verdict: proved for every request of the policy's class; parts the search
 * could not decide (each reason in the search's words, and the rules it concerns); the outcome the
 * example request gets (the finding's `example`, `rule` and `through`) beside what the policy
 * wants; or a sentence worded where the finding was made (the built-in policies word their own).
 */
type PolicyGrounds =
  | { kind: 'proved' }
  | { kind: 'undecided'; parts: readonly { reason: string; rules: readonly string[] }[] }
  | { kind: 'counterexample'; outcome: PolicyOutcome; expect: PolicyExpectation }
  | { kind: 'worded'; text: string };

export interface PolicyFinding {
  /** The policy's name, or the built-in policy's id. */
  policy: string;
  builtin: boolean;
  level: PolicyFindingLevel;
  app: string;
  /** Where the policy is written (for a built-in policy, the rule it flags). */
  at: SourceLocation;
  verdict: PolicyVerdictName;
  /** Why the verdict (words.ts says it in one sentence, with the example request and the deciding rule). */
  grounds: PolicyGrounds;
  /** The rule that decides the example request (violated), and where it is written when known. */
  rule?: { name: string; at?: SourceLocation };
  /** A request of the class the rules give what the policy forbids, confirmed by the evaluator. */
  example?: TestRequest;
  /** The conditions of the deciding rule that let the example through. */
  through?: ConditionStep[];
  /** plan: the verdict on the live rules as they are now, so a plan is not blamed for the past. */
  live?: PolicyVerdictName;
  /** Unchecked because the time budget ran out (--policy-budget): it fails the command at any level. */
  outOfBudget?: true;
}

/** Whether a finding is worth showing: a violation, or a policy that could not be checked. */
export function isReported(finding: PolicyFinding): boolean {
  return finding.verdict !== 'holds';
}

/**
 * What a built-in policy says it could not check (operator-matrix's coverage line): advice about
 * the check itself, not about the rules, so the plan writes it after the plan, never ahead of
 * what a reviewer must see first.
 */
export function isCoverageNote(finding: PolicyFinding): boolean {
  return finding.builtin && finding.verdict === 'unchecked';
}

/**
 * A finding that fails validate and plan (exit 1): an error-level policy not proved to hold, and
 * a policy of any level the budget left unchecked (a report that ran out of budget never exits 0).
 */
export function failsCommand(finding: PolicyFinding): boolean {
  return (finding.level === 'error' && finding.verdict !== 'holds') || finding.outOfBudget === true;
}
