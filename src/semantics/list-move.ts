// The service's list-move semantics (docs/design.md, "List-move semantics and minimal
// moves"): a PATCH that sets `priority` takes the rule out of its index, the others close
// the gap, and it is inserted at the index it is sent; a body without `priority` changes
// fields only. The planner's simulation and the emulator both move rules with moveInList,
// so the two cannot disagree.
import { UserError } from '../errors.js';
import type { LiveRule, PatchBody } from './model.js';

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

/** One PATCH request as a plan holds it. */
export interface Patch {
  ruleId: string;
  name: string;
  body: PatchBody;
}

/** What the live rules become when `patches` run, in order, on a list-move server. */
export function simulateSteps(live: readonly LiveRule[], patches: readonly Patch[]): LiveRule[] {
  const list = inPriorityOrder(live).map((rule) => ({ ...rule }));
  for (const patch of patches) {
    const index = list.findIndex((rule) => rule.ruleId === patch.ruleId);
    if (index < 0) {
      throw new UserError(`the plan updates rule "${patch.name}" (${patch.ruleId}), which is not in the live rules`);
    }
    const { priority, ...fields } = patch.body;
    Object.assign(list[index] as LiveRule, structuredClone(fields));
    if (priority !== undefined) moveInList(list, index, priority);
  }
  return list.map((rule, priority) => ({ ...rule, priority }));
}
