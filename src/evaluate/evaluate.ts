// Which rule decides a request (docs/evaluation.md, "How a request is evaluated"): active rules
// in priority order, paused rules skipped, the first rule whose conditions match decides and
// its actions are the outcome; no match means no custom-rule outcome. A rule whose match is
// undecided (a `$re` pattern ran out of its time budget, pattern.ts) leaves the outcome
// undecided: the rule would decide if it matched, and every rule after it depends on it.
import type { Action, Conditions, Group, NormalRule } from '../semantics/model.js';
import { leafVerdict, type EvaluationOptions, type Verdict } from './leaf.js';
import type { TestRequest } from './request.js';

export interface Decision<R extends NormalRule = NormalRule> {
  /** The deciding rule, or undefined when no active rule matches (or the outcome is undecided). */
  rule: R | undefined;
  /** Its position in the list given (priority order), or -1. */
  index: number;
  actions: Action[];
  /** The first active rule whose match is undecided, when no rule before it matched. */
  undecided?: { rule: R; index: number };
}

/** `rules` in priority order (declared order, or live rules sorted by priority). */
export function decide<R extends NormalRule>(rules: readonly R[], request: TestRequest, options: EvaluationOptions = {}): Decision<R> {
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index] as R;
    if (rule.status !== 'active') continue;
    const verdict = conditionsVerdict(rule.conditions, request, options);
    if (verdict === true) return { rule, index, actions: [...rule.actions] };
    if (verdict === 'undecided') return { rule: undefined, index: -1, actions: [], undecided: { rule, index } };
  }
  return { rule: undefined, index: -1, actions: [] };
}

export function conditionsVerdict(conditions: Conditions, request: TestRequest, options: EvaluationOptions = {}): Verdict {
  return combine(conditions.operator, conditions.children, (group) => groupVerdict(group, request, options));
}

export function groupVerdict(group: Group, request: TestRequest, options: EvaluationOptions = {}): Verdict {
  return combine(group.operator, group.children, (leaf) => leafVerdict(leaf, request, options));
}

/**
 * `$and` of nothing is true and `$or` of nothing is false, as for every() and some(); an
 * undecided item decides only when no other item does (Kleene's three-valued logic).
 */
export function combine<T>(operator: '$and' | '$or', items: readonly T[], verdictOf: (item: T) => Verdict): Verdict {
  const all = operator === '$and';
  let undecided = false;
  for (const item of items) {
    const verdict = verdictOf(item);
    if (verdict === 'undecided') undecided = true;
    else if (verdict !== all) return verdict;
  }
  return undecided ? 'undecided' : all;
}
