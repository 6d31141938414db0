// The service's list-move semantics (docs/design.md, "List-move semantics and minimal
// moves"): a PATCH that sets `priority` takes the rule out of its index, the others close
// the gap, and it is inserted at the index it is sent; a body without `priority` changes
// fields only. The planner's simulation and the emulator both move rules with moveInList,
// so the two cannot disagree.
import { UserError } from '../errors.js';
import type { LiveRule, PatchBody } from './model.js';
import { normaliseLiveRule } from './normalise.js';
import { definedFields } from '../defined.js';

/** Moves `list[from]` to index `to` (clamped to the list), shifting the rules between; returns its new index. */
export function moveInList<T>(list: T[], from: number, to: number): number {
  const [item] = list.splice(from, 1) as [T];
  const target = Math.min(Math.max(to, 0), list.length);
  list.splice(target, 0, item);
  return target;
}

/** Live rules in priority order (ties keep their listed order). */
export function inPriorityOrder(live: readonly LiveRule[]): LiveRule[] {
  const sorted = live.every((rule, index) => index === 0 || (live[index - 1] as LiveRule).priority <= rule.priority);
  if (sorted) return [...live];
  return live
    .map((rule, index) => ({ rule, index }))
    .sort((a, b) => a.rule.priority - b.rule.priority || a.index - b.index)
    .map(({ rule }) => rule);
}

/**
 * One request as a plan holds it: a PATCH, or (`kind`) a POST that creates the rule `ruleId`
 * stands for at `body.priority` (list-insert), or a DELETE of `ruleId` (the rules below move up).
 */
export interface Patch {
  ruleId: string;
  name: string;
  body: PatchBody;
  kind?: string;
}

/** The rule a create step's POST makes, as a live rule with the step's (placeholder) id. */
export function createdRule(patch: Patch): LiveRule {
  const { priority, name, description, status, actions, conditions } = structuredClone(patch.body);
  if (name === undefined || status === undefined || actions === undefined || conditions === undefined) {
    throw new UserError(`the plan creates rule "${patch.name}" without its whole rule (name, status, actions and conditions)`);
  }
  const sent = { name, status, actions, conditions, ...definedFields({ description }) };
  return normaliseLiveRule(sent, 'a created rule', patch.ruleId, priority ?? 0);
}

/** Inserts `item` at `index` clamped to the list (list-insert); returns the index it took. */
export function insertInList<T>(list: T[], index: number, item: T): number {
  const target = Math.min(Math.max(index, 0), list.length);
  list.splice(target, 0, item);
  return target;
}

/** What the live rules become when `patches` run, in order, on a list-move server. */
export function simulateSteps(live: readonly LiveRule[], patches: readonly Patch[]): LiveRule[] {
  const list = inPriorityOrder(live).map((rule) => ({ ...rule }));
  for (const patch of patches) {
    if (patch.kind === 'create') {
      insertInList(list, patch.body.priority ?? list.length, createdRule(patch));
      continue;
    }
    const index = list.findIndex((rule) => rule.ruleId === patch.ruleId);
    if (index < 0) {
      throw new UserError(`the plan updates rule "${patch.name}" (${patch.ruleId}), which is not in the live rules`);
    }
    if (patch.kind === 'delete') {
      list.splice(index, 1);
      continue;
    }
    const { priority, ...fields } = patch.body;
    Object.assign(list[index] as LiveRule, structuredClone(fields));
    if (priority !== undefined) moveInList(list, index, priority);
  }
  return list.map((rule, priority) => ({ ...rule, priority }));
}
