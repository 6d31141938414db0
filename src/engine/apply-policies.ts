// The policies at apply time (docs/behaviour.md, "Policies and apply"): every policy proved
// again over the rules as this apply would leave each app (the live rules just listed with the
// steps about to be sent, whether planned afresh or read from a saved plan: a verdict is never
// taken from a file), and over the live rules as they are. An error-level policy that the live
// rules hold (or are not known to break) and the resulting rules do not hold stops the apply
// before any change is sent, as an enforced policy stops a Terraform apply; one the live rules
// already break is the past, not this apply's doing: it is said, and the apply goes on.
// --force applies anyway, as it does over the change limits (the refusal says so).
import { ValidationError } from '../errors.js';
import { loadPolicies, type LoadedPolicies } from '../rules/policies.js';
import type { ProjectConfig } from '../rules/config.js';
import type { BuiltinPolicyId, BuiltinPolicyLevel } from '../rules/written-config.js';
import type { PolicyFinding } from '../render/policies/model.js';
import { policyMessage, policyRefusal } from '../render/policies/words.js';
import type { DeclaredRule, NormalRule, SourceLocation } from '../semantics/model.js';
import { inPriorityOrder, simulateSteps } from '../semantics/list-move.js';
import type { ApplyWork } from '../apply/work.js';
import { builtinPolicyFindings, DEFAULT_POLICY_BUDGET_SECONDS, plannedPolicyFindings, policyRun } from './policies.js';

/** The project's policy files, checked before any request (a bad file is a FILE:LINE:COL error). */
export async function applyPolicies(config: Pick<ProjectConfig, 'file' | 'policiesDir' | 'policiesDirAt'>, cwd: string): Promise<LoadedPolicies> {
  const loaded = await loadPolicies(config, cwd);
  if (loaded.problems.length > 0) throw new ValidationError(loaded.problems);
  return loaded;
}

interface ApplyPolicyInput {
  policies: LoadedPolicies['policies'];
  builtinLevels: Partial<Record<BuiltinPolicyId, BuiltinPolicyLevel>> | undefined;
  /** The rule files of each app when apply planned from them (locations of the deciding rules). */
  declared?: ReadonlyMap<string, readonly DeclaredRule[]>;
  /** Where a finding of a built-in policy is put when the rule files were not read (the saved plan). */
  planFile?: string;
  budgetSeconds?: number;
}

/**
 * Every policy for every app over the rules as apply would leave them, each not holding one
 * with the verdict over the live rules (`live`); the built-in policies over the same rules, a
 * finding the live rules also have marked `live: 'violated'`.
 */
export function applyPolicyFindings(work: readonly ApplyWork[], input: ApplyPolicyInput, started = Date.now()): PolicyFinding[] {
  const run = policyRun(input.budgetSeconds ?? DEFAULT_POLICY_BUDGET_SECONDS, started);
  return work.flatMap((w) => {
    const declared = input.declared?.get(w.app.name) ?? [];
    const own = plannedPolicyFindings(input.policies, [{ app: w.app.name, declared, live: w.live, steps: w.plan.steps }], { 'abusable-allow': 'off', 'operator-matrix': 'off' }, run);
    const at = locator(declared, input.planFile);
    const after = builtinOver(w.app.name, simulateSteps(w.live, w.plan.steps), at, input.builtinLevels);
    const before = new Set(builtinOver(w.app.name, inPriorityOrder(w.live), at, input.builtinLevels).map(policyMessage));
    return [...own, ...after.map((finding): PolicyFinding => ({ ...finding, live: before.has(policyMessage(finding)) ? 'violated' : 'holds' }))];
  });
}

/**
 * The findings that stop the apply: error-level, not holding over the rules as apply would
 * leave them, while the live rules hold (or are not known to break) the policy.
 */
export function refusingFindings(findings: readonly PolicyFinding[]): PolicyFinding[] {
  return findings.filter((finding) => finding.level === 'error' && finding.verdict !== 'holds' && finding.live !== 'violated' && !(finding.live === 'unchecked' && finding.verdict === 'unchecked'));
}

/** Throws before any change is sent when an error-level policy stops the apply, unless forced. */
export function raiseIfPolicyRefuses(findings: readonly PolicyFinding[], force: boolean): void {
  const refusing = refusingFindings(findings);
  if (refusing.length > 0 && !force) throw policyRefusal(refusing);
}

type Locate = (rule: NormalRule) => SourceLocation;

/** A rule's place in the rule files, else the saved plan's file (the rule files were not read). */
function locator(declared: readonly DeclaredRule[], planFile: string | undefined): Locate {
  const byName = new Map(declared.map((rule) => [rule.name, rule.source]));
  return (rule) => byName.get(rule.name) ?? { file: planFile ?? 'the live rules', line: 1, col: 1 };
}

function builtinOver(app: string, rules: readonly NormalRule[], at: Locate, levels: ApplyPolicyInput['builtinLevels']): PolicyFinding[] {
  return builtinPolicyFindings(app, rules.map((rule): DeclaredRule => ({ ...rule, source: at(rule) })), levels);
}
