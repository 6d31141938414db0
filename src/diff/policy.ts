// Whether a policy holds for every request of its class (docs/behaviour.md, "Policies"). No
// second prover: the region search of the behaviour diff (regions.ts) walks two rule sets side
// by side, the class written as a rule of its own ("the request is in the class") and the rules;
// a region is interesting when the class rule decides and the rules give the request what the
// policy forbids. No region and nothing unchecked is a proof that the policy holds; a region is
// a violation with a witness request the evaluator confirms; what the search could not decide
// (a `$re`, the budget) leaves the policy unchecked, never passed.
import { conditionsVerdict, decide, groupVerdict } from '../evaluate/evaluate.js';
import { leafVerdict, type EvaluationOptions } from '../evaluate/leaf.js';
import type { TestRequest } from '../evaluate/request.js';
import type { PolicyExpectation, PolicyOutcome, RequestPolicy } from '../rules/policies.js';
import type { Action, Conditions, NormalRule } from '../semantics/model.js';
import { leafPhrase } from './describe.js';
import type { DecidedOutcome, RegionOutcome } from './entries.js';
import { OUT_OF_TIME, regionsWhere } from './regions.js';

/** A condition of the deciding rule that holds for the witness, by its place in the rule. */
export interface ConditionStep {
  /** `conditions.children[0].children[1]`. */
  path: string;
  /** `path starting "/health"`. */
  condition: string;
}

export type PolicyVerdict =
  | { verdict: 'holds' }
  | {
    verdict: 'violated';
    /** A request of the class that the rules give what the policy forbids, confirmed by the evaluator. */
    witness: TestRequest;
    /** The deciding rule (undefined: no rule decides) and its actions. */
    decided: { rule: string | undefined; actions: Action[] };
    outcome: PolicyOutcome;
    /** The conditions of the deciding rule that let the witness through (empty when no rule decides). */
    through: ConditionStep[];
    /** The class of violating requests the witness stands for, in words. */
    description: string;
  }
  | { verdict: 'unchecked'; unchecked: { reason: string; rules: string[] }[] };

export interface PolicyProofOptions {
  /** Date.now() milliseconds after which the search stops: what is left is unchecked. */
  deadline?: number;
  /** Appended to the out-of-time reason: the option that gives more time. */
  budgetHint?: string;
  evaluation?: EvaluationOptions;
}

/** `rules` in priority order (paused rules are skipped, as the evaluator skips them). */
export function provePolicy(policy: Pick<RequestPolicy, 'requests' | 'expect'>, rules: readonly NormalRule[], options: PolicyProofOptions = {}): PolicyVerdict {
  const classRule = policy.requests;
  const sets = classRule === undefined ? [rules] : [[classRule], rules];
  const last = sets.length - 1;
  const violates = (outcome: RegionOutcome | undefined): boolean => outcome !== undefined && !('undecided' in outcome) && breaks(policy.expect, outcome);
  const inClass = (outcome: RegionOutcome | undefined): boolean => classRule === undefined || (outcome !== undefined && !('undecided' in outcome) && outcome.rule === classRule.name);
  const search = regionsWhere(sets, (outcomes) => inClass(outcomes[0]) && violates(outcomes[last]), {
    ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
    ...(options.evaluation === undefined ? {} : { evaluation: options.evaluation }),
    // A branch whose request is outside the class, or that the rules give an allowed outcome, holds nothing to find.
    hopeless: (known) => (classRule !== undefined && known[0] !== undefined && !inClass(known[0])) || (known[last] !== undefined && !violates(known[last])),
    maxRegions: 1,
  });
  const region = search.regions[0];
  if (region !== undefined) return violation(region.witness, region.description, classRule?.conditions, rules, policy.expect, options.evaluation);
  if (search.unchecked.length === 0) return { verdict: 'holds' };
  const hint = options.budgetHint === undefined ? '' : ` (${options.budgetHint})`;
  return { verdict: 'unchecked', unchecked: search.unchecked.map((part) => ({ reason: part.reason === OUT_OF_TIME ? `${OUT_OF_TIME}${hint}` : part.reason, rules: part.rules })) };
}

/** What a request meets, as a policy names it: the strongest action of the deciding rule, or none. */
export function policyOutcome(actions: readonly Action[]): PolicyOutcome {
  if (actions.includes('hardBlock')) return 'block';
  if (actions.includes('blockWithChallenge')) return 'challenge';
  return actions.includes('allow') ? 'allow' : 'none';
}

/** Whether the outcome of the rules breaks the expectation. */
export function breaks(expect: PolicyExpectation, outcome: DecidedOutcome): boolean {
  if ('decidedBy' in expect) return outcome.rule !== expect.decidedBy;
  return !expect.outcome.includes(policyOutcome(outcome.actions));
}

/** The search's region, confirmed once more by the evaluator: in the class, and decided as it said. */
function violation(witness: TestRequest, description: string, requests: Conditions | undefined, rules: readonly NormalRule[], expect: PolicyExpectation, evaluation: EvaluationOptions | undefined): PolicyVerdict {
  const decision = decide(rules, witness, evaluation);
  const decided = { rule: decision.rule?.name, actions: [...decision.actions] };
  const confirmed = decision.undecided === undefined && breaks(expect, decided) && (requests === undefined || conditionsVerdict(requests, witness, evaluation) === true);
  if (!confirmed) return { verdict: 'unchecked', unchecked: [{ reason: 'the example request the search found is decided otherwise by the evaluator', rules: decided.rule === undefined ? [] : [decided.rule] }] };
  const through = decision.rule === undefined ? [] : conditionSteps(decision.rule.conditions, witness, evaluation);
  return { verdict: 'violated', witness, decided, outcome: policyOutcome(decided.actions), through, description };
}

/**
 * The conditions that make the deciding rule match the witness: under an `$or` root the first
 * group that matches, under `$and` every group; within a group, every leaf of an `$and`, the
 * first matching leaf of an `$or`.
 */
export function conditionSteps(conditions: Conditions, witness: TestRequest, evaluation?: EvaluationOptions): ConditionStep[] {
  const groups = conditions.children
    .map((group, g) => ({ group, g }))
    .filter(({ group }) => groupVerdict(group, witness, evaluation) === true);
  const chosen = conditions.operator === '$or' ? groups.slice(0, 1) : groups;
  return chosen.flatMap(({ group, g }) => {
    const leaves = group.children.map((leaf, l) => ({ leaf, l })).filter(({ leaf }) => leafVerdict(leaf, witness, evaluation) === true);
    const taken = group.operator === '$or' ? leaves.slice(0, 1) : leaves;
    return taken.map(({ leaf, l }) => ({ path: `conditions.children[${g}].children[${l}]`, condition: leafPhrase(leaf, true) }));
  });
}
