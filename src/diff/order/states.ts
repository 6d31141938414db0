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
import type { PlanStep } from '../../plan/types.js';
import type { WalkedLists } from '../list-delta.js';

/**
 * The rules in order after each of `patches` (index k: after the first k, so index 0 is
 * `live` in priority order), the order being the array's: `priority` is not renumbered, as
 * the region search and decide() read the order from the array. Equal lists are one array.
 * One at a time, so a caller holds only the states it keeps.
 */
export function* statesAlong(live: readonly LiveRule[], patches: readonly Patch[]): Generator<LiveRule[]> {
  const walk = new StateWalk(live);
  yield walk.state();
  for (const patch of patches) {
    walk.send(patch);
    yield walk.state();
  }
}

/** The rules in order once every one of `patches` has run, sharing the rule objects no PATCH changed (statesAlong's last state). */
export function finalState(live: readonly LiveRule[], patches: readonly Patch[]): LiveRule[] {
  const walk = new StateWalk(live);
  for (const patch of patches) walk.send(patch);
  return walk.state();
}

/**
 * One list changed in place, PATCH after PATCH, and copied only when a caller asks for the
 * state (`state()`) and a PATCH changed it since the last copy: an order of 700 PATCHes on
 * 5,000 rules of which a search keeps a few states copies those few, not 700 lists
 * (docs/behaviour.md, "Safe transitions"). Each copy is a new array; a state no PATCH changed
 * since the last copy is that same array.
 */
export class StateWalk {
  private readonly list: LiveRule[];
  private copy: LiveRule[];
  private changed = false;
  /**
   * Each rule id's rule object in the list, so a PATCH finds its rule by identity (a native scan)
   * rather than by a callback per rule; undefined when two rules share an id, as the first is meant then.
   */
  private byId: RuleIds | undefined;

  constructor(live: readonly LiveRule[]) {
    const start = startOf(live);
    this.copy = start.ordered;
    this.list = [...this.copy];
    this.byId = start.byId === undefined ? undefined : new RuleIds(start.byId);
  }

  /** The index of the first rule with the id, or -1. */
  private indexOf(ruleId: string): number {
    if (this.byId === undefined) return this.list.findIndex((rule) => rule.ruleId === ruleId);
    const rule = this.byId.get(ruleId);
    return rule === undefined ? -1 : this.list.indexOf(rule);
  }

  state(): LiveRule[] {
    if (this.changed) {
      this.copy = this.list.slice();
      this.changed = false;
    }
    return this.copy;
  }

  send(patch: Patch): void {
    if (patch.kind === 'create' || patch.kind === 'delete') {
      this.lifecycle(patch);
      this.changed = true;
      return;
    }
    const { priority, ...fields } = patch.body;
    const fieldNames = Object.keys(fields);
    if (priority === undefined && fieldNames.every((name) => name === 'description')) return;
    const index = this.indexOf(patch.ruleId);
    if (index < 0) throw new UserError(`the plan updates rule "${patch.name}" (${patch.ruleId}), which is not in the live rules`);
    if (fieldNames.length > 0) {
      const updated = { ...(this.list[index] as LiveRule), ...structuredClone(fields) };
      this.list[index] = updated;
      this.byId?.set(patch.ruleId, updated);
    }
    if (priority !== undefined) moveInList(this.list, index, priority);
    this.changed = true;
  }

  /** A POST (the rule inserted) or a DELETE (the rule gone). */
  private lifecycle(patch: Patch): void {
    if (patch.kind === 'create') {
      const created = createdRule(patch);
      insertInList(this.list, patch.body.priority ?? this.list.length, created);
      if (this.byId?.get(created.ruleId) !== undefined) this.byId = undefined;
      else this.byId?.set(created.ruleId, created);
      return;
    }
    const index = this.indexOf(patch.ruleId);
    if (index < 0) throw new UserError(`the plan deletes rule "${patch.name}" (${patch.ruleId}), which is not in the live rules`);
    this.list.splice(index, 1);
    this.byId?.set(patch.ruleId, undefined);
  }
}

/**
 * Each live rule list's start, made once: its rules in priority order (a walk's first state, which
 * no walk changes) and each rule id's rule (undefined when two rules share an id). The order
 * search walks the same live rules again for each order it checks (16 walks on a plan of 719
 * PATCHes), and a map of 5,000 ids per walk was a large object, kept until the next full
 * collection (docs/behaviour.md, "Safe transitions").
 */
const STARTS = new WeakMap<readonly LiveRule[], { ordered: LiveRule[]; byId: ReadonlyMap<string, LiveRule> | undefined }>();

function startOf(live: readonly LiveRule[]): { ordered: LiveRule[]; byId: ReadonlyMap<string, LiveRule> | undefined } {
  let start = STARTS.get(live);
  if (start === undefined) {
    const ordered = inPriorityOrder(live);
    const byId = new Map(ordered.map((rule) => [rule.ruleId, rule]));
    STARTS.set(live, (start = { ordered, byId: byId.size === ordered.length ? byId : undefined }));
  }
  return start;
}

/** The start's rule ids, and what the walk's PATCHes changed of them (undefined: deleted), in a map of their own. */
class RuleIds {
  private readonly changed = new Map<string, LiveRule | undefined>();

  constructor(private readonly start: ReadonlyMap<string, LiveRule>) {}

  get(ruleId: string): LiveRule | undefined {
    return this.changed.has(ruleId) ? this.changed.get(ruleId) : this.start.get(ruleId);
  }

  set(ruleId: string, rule: LiveRule | undefined): void {
    this.changed.set(ruleId, rule);
  }
}

/**
 * [the live rules, the state after the first `after[i]` of `patches` for each i, `final`],
 * walked again each time the search reads them, so that it holds the list before only: a copy
 * of every state held through the search would outlive the young generation, and the heap
 * would keep each copy until the next full collection (docs/behaviour.md, "Safe transitions").
 */
export function walkedStates(live: readonly LiveRule[], patches: readonly PlanStep[], after: readonly number[], final: readonly LiveRule[]): WalkedLists {
  return {
    length: after.length + 2,
    *lists() {
      const walk = new StateWalk(live);
      yield walk.state();
      let sent = 0;
      for (const until of after) {
        while (sent < until) walk.send(patches[sent++] as PlanStep);
        yield walk.state();
      }
      yield final;
    },
  };
}
