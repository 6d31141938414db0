// Which rule decides a request (docs/evaluation.md, "How a request is evaluated"): active rules
// in priority order, paused rules skipped, the first rule whose conditions match decides and
// its actions are the outcome; no match means no custom-rule outcome.
import type { Action, Conditions, Group, Leaf, Rule } from '../rules/model.js';
import { leafMatches, type EvaluationOptions } from './leaf.js';
import type { TestRequest } from './request.js';

export interface Decision<R extends Rule = Rule> {
  /** The deciding rule, or undefined when no active rule matches. */
  rule: R | undefined;
  /** Its position in the list given (priority order), or -1. */
  index: number;
  actions: Action[];
}

/** `rules` in priority order (declared order, or live rules sorted by priority). */
export function decide<R extends Rule>(rules: readonly R[], request: TestRequest, options: EvaluationOptions = {}): Decision<R> {
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index] as R;
    if (rule.status === 'active' && conditionsMatch(rule.conditions, request, options)) {
      return { rule, index, actions: [...rule.actions] };
    }
  }
  return { rule: undefined, index: -1, actions: [] };
}

export function conditionsMatch(conditions: Conditions, request: TestRequest, options: EvaluationOptions = {}): boolean {
  return combine(conditions.operator, conditions.children, (group) => groupMatches(group, request, options));
}

export function groupMatches(group: Group, request: TestRequest, options: EvaluationOptions = {}): boolean {
  return combine(group.operator, group.children, (leaf) => leafMatches(leaf, request, options));
}

/** `$and` of nothing is true and `$or` of nothing is false, as for every() and some(). */
function combine<T>(operator: '$and' | '$or', items: readonly T[], matches: (item: T) => boolean): boolean {
  return operator === '$and' ? items.every(matches) : items.some(matches);
}

/** A leaf that did not match, with where it sits in the rule's condition tree. */
export interface MissedLeaf {
  group: number;
  leaf: number;
  condition: Leaf;
}

/**
 * Why a rule's conditions do not match a request: the leaves that failed in the groups that
 * failed. Under a root `$and` only the failing groups count (the others matched); under a root
 * `$or` every group failed. Empty when the conditions match.
 */
export function missedLeaves(rule: Rule, request: TestRequest, options: EvaluationOptions = {}): MissedLeaf[] {
  if (conditionsMatch(rule.conditions, request, options)) return [];
  const missed: MissedLeaf[] = [];
  rule.conditions.children.forEach((group, groupIndex) => {
    if (groupMatches(group, request, options)) return;
    group.children.forEach((condition, leafIndex) => {
      if (!leafMatches(condition, request, options)) missed.push({ group: groupIndex, leaf: leafIndex, condition });
    });
  });
  return missed;
}
