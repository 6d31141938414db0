// The order of a plan's PATCH requests, and what the transition check found in it
// (docs/behaviour.md, "Safe transitions"). Every PATCH leaves a live state behind; the planner
// fixes which requests are sent, this module says in which order, and the check
// (windows.ts, run by search.ts) says which intermediate state lets through requests that both
// the starting and the final rules block or challenge. Pure: steps and live rules in, steps out.
//
// An order is a sequence of units: a step of the planner sent whole, or one half of an
// update-and-move sent as two PATCHes (`--safe-order`: its fields, and its move). Any order
// of the moves reaches the declared list with one PATCH each when every moving rule is
// inserted right after its nearest *settled* declared predecessor (a rule that never moves,
// or one already moved): the settled rules are always in declared relative order, so once all
// are settled the list is the declared one. The planner's ascending order is the special case
// where that predecessor is the declared one, so its priorities come out unchanged.
import type { LiveRule } from '../../semantics/model.js';
import { inPriorityOrder, insertInList, moveInList } from '../../semantics/list-move.js';
import { fieldChanges, isMove, positionChange, type PlanStep } from '../../plan/types.js';

/** One PATCH of an order: a planner step whole, or the fields or the move of an update-and-move. */
export interface OrderUnit {
  ruleId: string;
  part: 'whole' | 'fields' | 'move';
}

/** The units of steps as they stand (an update-and-move split in two shows as its two halves). */
export function unitsOf(steps: readonly PlanStep[]): OrderUnit[] {
  const count = new Map<string, number>();
  for (const step of steps) count.set(step.ruleId, (count.get(step.ruleId) ?? 0) + 1);
  return steps.map((step) => ({ ruleId: step.ruleId, part: (count.get(step.ruleId) ?? 0) > 1 ? (isMove(step) ? 'move' : 'fields') : 'whole' }));
}

/** The split halves of the update-and-move of `ruleId` in the planner's `steps`, fields first. */
export function splitUnits(steps: readonly PlanStep[], ruleId: string): OrderUnit[] {
  return steps.flatMap((step): OrderUnit[] =>
    step.ruleId !== ruleId || step.kind !== 'update-and-move' ? [{ ruleId: step.ruleId, part: 'whole' }] : [{ ruleId, part: 'fields' }, { ruleId, part: 'move' }],
  );
}

/**
 * The planner's `steps` sent in the order of `units`, every move's priority computed for that
 * order; undefined when `units` is not an order of exactly those steps (each once, an
 * update-and-move whole or as both halves, and nothing else).
 */
export function reorderSteps(live: readonly LiveRule[], steps: readonly PlanStep[], units: readonly OrderUnit[]): PlanStep[] | undefined {
  const byRule = new Map(steps.map((step) => [step.ruleId, step]));
  const parts = new Map<string, string[]>();
  for (const unit of units) parts.set(unit.ruleId, [...(parts.get(unit.ruleId) ?? []), unit.part]);
  if (byRule.size !== steps.length || parts.size !== byRule.size) return undefined;
  for (const [ruleId, sent] of parts) {
    const step = byRule.get(ruleId);
    if (step === undefined) return undefined;
    const whole = sent.length === 1 && sent[0] === 'whole';
    const halves = step.kind === 'update-and-move' && sent.length === 2 && sent.includes('fields') && sent.includes('move');
    if (!whole && !halves) return undefined;
  }
  return sendInOrder(live, steps, units);
}

/**
 * The steps for `units`, the first units of an order of the planner's `steps` (not checked:
 * reorderSteps checks a whole order), every move's priority computed for that order.
 */
export function sendInOrder(live: readonly LiveRule[], steps: readonly PlanStep[], units: readonly OrderUnit[]): PlanStep[] {
  const byRule = new Map(steps.map((step) => [step.ruleId, step]));
  const list = new ListState(live, steps);
  return units.map((unit) => list.send(byRule.get(unit.ruleId) as PlanStep, unit.part));
}

/**
 * The live list as the order runs, for the priority of each move: the ids in their current
 * order, and which rules are settled (never moved by the plan, or already moved).
 */
class ListState {
  private readonly ids: string[];
  private readonly settled: Set<string>;
  /** Every live rule's index once the plan has run. */
  private readonly finalIndex: Map<string, number>;
  /** The ids in final order. */
  private readonly finalIds: string[];

  constructor(live: readonly LiveRule[], steps: readonly PlanStep[]) {
    this.ids = inPriorityOrder(live).map((rule) => rule.ruleId);
    // A rule to create is placed like a moving one; a rule to delete leaves the final list.
    const moving = new Map(steps.flatMap((step): [string, number][] =>
      step.kind === 'create' ? [[step.ruleId, step.position]] : isMove(step) ? [[step.ruleId, positionChange(step)?.after ?? 0]] : []));
    const deleted = new Set(steps.filter((step) => step.kind === 'delete').map((step) => step.ruleId));
    const staying = this.ids.filter((id) => !deleted.has(id));
    this.settled = new Set(staying.filter((id) => !moving.has(id)));
    // Rules that do not move keep their relative order; the moving ones take their final indices.
    const listed = new Set(this.ids);
    const finalIds = new Array<string>(staying.length + [...moving.keys()].filter((id) => !listed.has(id)).length);
    for (const [id, index] of moving) finalIds[index] = id;
    let next = 0;
    for (const id of staying) {
      if (moving.has(id)) continue;
      while (finalIds[next] !== undefined) next += 1;
      finalIds[next] = id;
    }
    this.finalIds = finalIds;
    this.finalIndex = new Map(finalIds.map((id, index) => [id, index]));
  }

  send(step: PlanStep, part: OrderUnit['part']): PlanStep {
    if (part === 'fields') return fieldsHalf(step);
    if (step.kind === 'delete') {
      this.ids.splice(this.ids.indexOf(step.ruleId), 1);
      return step;
    }
    if (step.kind === 'create') {
      const priority = this.insertionIndex(step.ruleId);
      insertInList(this.ids, priority, step.ruleId);
      this.settled.add(step.ruleId);
      return { ...step, body: { ...step.body, priority } };
    }
    if (!isMove(step)) return step;
    const self = this.ids.indexOf(step.ruleId);
    const priority = this.insertionIndex(step.ruleId, self);
    moveInList(this.ids, self, priority);
    this.settled.add(step.ruleId);
    if (part === 'move') return moveHalf(step, priority);
    return { ...step, body: { ...step.body, priority } };
  }

  /** Right after the nearest settled rule before it in the final order; first when there is none. */
  private insertionIndex(ruleId: string, self = -1): number {
    const at = this.finalIndex.get(ruleId) ?? 0;
    for (let index = at - 1; index >= 0; index -= 1) {
      const id = this.finalIds[index] as string;
      if (this.settled.has(id)) return this.indexWithout(id, self) + 1;
    }
    return 0;
  }

  /** The index of `id` in the list with the rule at `self` (-1: none, a rule not in it yet) taken out (no copy of the list per PATCH). */
  private indexWithout(id: string, self: number): number {
    const at = this.ids.indexOf(id);
    return self !== -1 && self < at ? at - 1 : at;
  }
}

function fieldsHalf(step: PlanStep): PlanStep {
  const { priority: _priority, ...body } = step.body;
  return { ruleId: step.ruleId, name: step.name, kind: 'update', body, changes: fieldChanges(step), ...(step.dropsUnknown === undefined ? {} : { dropsUnknown: step.dropsUnknown }) };
}

function moveHalf(step: PlanStep, priority: number): PlanStep {
  const position = positionChange(step);
  return { ruleId: step.ruleId, name: step.name, kind: 'move', body: { priority }, changes: [position ?? { field: 'priority', before: 0, after: 0 }] };
}
