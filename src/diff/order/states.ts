// The live states an order of PATCH requests passes through, built for the region search
// (regions.ts) of the transition check (docs/behaviour.md, "Safe transitions"). A plan of
// hundreds of PATCH requests on thousands of rules has hundreds of states of thousands of
// rules each: simulating each state from the start (simulateSteps) costs states × PATCHes ×
// rules and a copy of every rule per state. Here the states are built one PATCH after another
// and share their rule objects: a rule is copied only when a PATCH changes its fields, so the
// search numbers each rule object once (entries.ts), and a PATCH that changes only what the
// search never reads (the description) leaves the very same list.
import { createdRule, inPriorityOrder, insertInList, moveInList, type Patch } from '../../semantics/list-move.js';
import type { LiveRule } from '../../semantics/model.js';
import { UserError } from '../../errors.js';

/**
 * The rules in order after each of `patches` (index k: after the first k, so index 0 is
 * `live` in priority order), the order being the array's: `priority` is not renumbered, as
 * the region search and decide() read the order from the array. Equal lists are one array.
 * One at a time, so a caller holds only the states it keeps.
 */
export function* statesAlong(live: readonly LiveRule[], patches: readonly Patch[]): Generator<LiveRule[]> {
  let current = inPriorityOrder(live);
  yield current;
  for (const patch of patches) {
    if (patch.kind === 'create' || patch.kind === 'delete') {
      current = withLifecycle(current, patch);
      yield current;
      continue;
    }
    const { priority, ...fields } = patch.body;
    const fieldNames = Object.keys(fields);
    if (priority === undefined && fieldNames.every((name) => name === 'description')) {
      yield current;
      continue;
    }
    current = [...current];
    const index = current.findIndex((rule) => rule.ruleId === patch.ruleId);
    if (index < 0) throw new UserError(`the plan updates rule "${patch.name}" (${patch.ruleId}), which is not in the live rules`);
    if (fieldNames.length > 0) current[index] = { ...(current[index] as LiveRule), ...structuredClone(fields) };
    if (priority !== undefined) moveInList(current, index, priority);
    yield current;
  }
}

/** The rules in order once every one of `patches` has run, sharing the rule objects no PATCH changed (statesAlong's last state). */
export function finalState(live: readonly LiveRule[], patches: readonly Patch[]): LiveRule[] {
  let last: LiveRule[] = [];
  for (const state of statesAlong(live, patches)) last = state;
  return last;
}

/** The list after a POST (the rule inserted) or a DELETE (the rule gone). */
function withLifecycle(current: readonly LiveRule[], patch: Patch): LiveRule[] {
  const next = [...current];
  if (patch.kind === 'create') {
    insertInList(next, patch.body.priority ?? next.length, createdRule(patch));
    return next;
  }
  const index = next.findIndex((rule) => rule.ruleId === patch.ruleId);
  if (index < 0) throw new UserError(`the plan deletes rule "${patch.name}" (${patch.ruleId}), which is not in the live rules`);
  next.splice(index, 1);
  return next;
}
