// Choosing the order of a plan's PATCH requests (docs/behaviour.md, "Safe transitions"). The
// planner's order is checked first, state by state; only when it opens a window are other
// orders of the same requests searched, for one without windows, else the one whose windows
// stay open for the fewest states. When no order at the fewest PATCHes is free of windows,
// sending one update-and-move as two PATCHes (its fields, then its move, or the other way
// round) may be: the plan offers that for one more PATCH (`--safe-order`).
//
// The state after a set of units does not depend on the order they ran in (units.ts),
// so the search runs over sets: a 0-1 breadth-first search whose cost is the
// number of open states passed through, each state checked lazily (when the search reaches it)
// and once, the planner's next unit tried first. A whole order (the planner's, the one chosen)
// is checked in one region search over all its states, far cheaper than one per state. The
// deadline bounds it all; what it leaves is said, never guessed.
import type { EvaluationOptions } from '../../evaluate/leaf.js';
import type { LiveRule } from '../../semantics/model.js';
import { inPriorityOrder } from '../../semantics/list-move.js';
import { reorderSteps, sendInOrder, splitUnits, unitsOf, type OrderUnit } from './units.js';
import type { PlanStep, TransitionCheck, UncheckedPart } from '../../plan/types.js';
import { finalState, StateWalk, walkedStates } from './states.js';
import { checkStates, windowsOf, type StateCheck, type StateCheckOptions } from './windows.js';
import type { Region } from '../regions.js';
import type { RefutationStore } from '../refutations.js';
import { rulesNear } from './units-near.js';
import { locallyCheapest } from './local-order.js';
import { nextUnits, sameUnit, UnitSetKeys } from './unit-sets.js';

export interface OrderOptions {
  /** When the search stops, on the clock regionsWhere reads (Date.now(), milliseconds). */
  deadline?: number;
  /** Use an order with one more PATCH when only such an order is free of windows (--safe-order). */
  safeOrder?: boolean;
  /** States checked so far and the states of the planner's order, for a progress line. */
  onProgress?: (done: number, total: number) => void;
  evaluation?: EvaluationOptions;
  /** Rule positions one region search holds at most (MAX_POSITIONS unless given). */
  maxPositions?: number;
  /** The command's refutations, shared by every order's searches and the behaviour diff (refutations.ts). */
  refutations?: RefutationStore;
}

export interface ChosenOrder {
  /** The steps in the order chosen, priorities computed for it. */
  steps: PlanStep[];
  check: TransitionCheck;
}

/** Chooses the order of `steps` (the planner's, in its order) for `live` and checks it. */
export function chooseOrder(live: readonly LiveRule[], steps: readonly PlanStep[], options: OrderOptions = {}): ChosenOrder {
  const search = new OrderSearch(live, steps, options);
  const planner = unitsOf(steps);
  const plannerCost = search.costOf(planner);
  if (plannerCost === undefined || plannerCost === 0) return search.result(planner, 'planner');
  const plannerWindows = search.result(planner, 'planner').check.windows.length;
  // Only the units of rules that can match a request of an open class move; the others keep their slots.
  const movable = search.movableNear(planner);
  const moving = planner.filter((unit) => movable.has(unit.ruleId)).length;
  const exact = moving <= EXACT_SEARCH_UNITS && planner.length <= EXACT_SEARCH_STATES;
  const best = exact ? search.cheapest(planner, movable) : locallyCheapest(search, planner, plannerCost);
  const chosen = best !== undefined && best.cost < plannerCost ? best.units : planner;
  if (best !== undefined && best.cost === 0) return search.result(chosen, 'reordered', plannerWindows);
  const split = exact ? search.safeSplit(movable) : undefined;
  if (split !== undefined && options.safeOrder === true) return search.result(split, 'split', plannerWindows);
  const result = search.result(chosen, chosen === planner ? 'planner' : 'reordered', plannerWindows);
  if (best === undefined) result.check.unchecked.push({ kind: 'orders-out-of-time' });
  else if (!exact) result.check.unchecked.push({ kind: 'orders-local', moving, requests: planner.length });
  else if (best.cost > 0 && moving < planner.length) {
    // Moving the other PATCHes can still shift where a moved rule lands in between (it goes after its nearest settled rule).
    result.check.unchecked.push({ kind: 'orders-near' });
  }
  if (split !== undefined) result.check.saferOrderCost = 1;
  return result;
}

/**
 * The transitions of one given order of the planner's `steps` (a saved plan's, which apply
 * checks again rather than trust): undefined when `units` is not an order of those steps.
 */
export function checkOrder(live: readonly LiveRule[], steps: readonly PlanStep[], units: readonly OrderUnit[], options: OrderOptions = {}): ChosenOrder | undefined {
  if (reorderSteps(live, steps, units) === undefined) return undefined;
  const planner = unitsOf(steps);
  const same = units.length === planner.length && units.every((unit, index) => sameUnit(unit, planner[index] as OrderUnit));
  const order = same ? 'planner' : units.length > planner.length ? 'split' : 'reordered';
  return new OrderSearch(live, steps, options).result(units, order);
}

/**
 * Rule positions (states × rules) one region search of a whole order holds at most, about
 * 60 bytes each: longer orders are searched in consecutive runs of states, so memory stays
 * near 120 MB whatever the plan's size (docs/behaviour.md, "Safe transitions").
 */
const MAX_POSITIONS = 2_000_000;

/**
 * Units that may move, at most, for the search over every order of them (a breadth-first search
 * over the sets of units sent, exponential in them); beyond it, local-order.ts.
 */
const EXACT_SEARCH_UNITS = 12;
/** PATCH requests at most for that search: it checks its states one at a time, each built from the start. */
const EXACT_SEARCH_STATES = 100;

/** The checks of the states of one unit list, memoised by the set of units sent. */
class OrderSearch {
  private readonly start: LiveRule[];
  private readonly final: LiveRule[];
  private readonly checks = new Map<string, StateCheck | 'late'>();
  private readonly keys = new UnitSetKeys();
  private checked = 0;

  constructor(
    private readonly live: readonly LiveRule[],
    private readonly steps: readonly PlanStep[],
    private readonly options: OrderOptions,
  ) {
    // The states share the rule objects no PATCH changed, so each search numbers a rule once.
    this.start = inPriorityOrder(live);
    this.final = finalState(live, steps);
  }

  private timeLeft(): boolean {
    return this.options.deadline === undefined || Date.now() < this.options.deadline;
  }

  private checkOptions(): StateCheckOptions {
    return {
      ...(this.options.deadline === undefined ? {} : { deadline: this.options.deadline }),
      ...(this.options.evaluation === undefined ? {} : { evaluation: this.options.evaluation }),
      ...(this.options.refutations === undefined ? {} : { refutations: this.options.refutations }),
    };
  }

  /** Counts single states checked by the search, for the progress line. */
  private counted(checks: number): void {
    this.checked += checks;
    this.options.onProgress?.(this.checked, Math.max(this.checked, this.steps.length - 1));
  }

  /** The check of the state after `sent` (a prefix of an order, whose set `key` names); 'late' past the deadline. */
  private stateAfter(key: string, sent: () => readonly OrderUnit[]): StateCheck | 'late' {
    const known = this.checks.get(key);
    if (known !== undefined) return known;
    const during = finalState(this.live, sendInOrder(this.live, this.steps, sent()));
    const check = this.timeLeft() ? (checkStates([this.start, during, this.final], this.checkOptions()).states.get(1) as StateCheck) : 'late';
    this.checks.set(key, check);
    this.counted(1);
    return check;
  }

  /** Checks every state of a whole order not checked yet, in region searches over runs of them. */
  private checkWhole(units: readonly OrderUnit[]): void {
    const keys = this.keys.ofPrefixes(units);
    const missing = keys.slice(1, units.length).filter((key) => !this.checks.has(key));
    if (missing.length === 0 || !this.timeLeft()) return;
    const perSearch = Math.max(1, Math.floor((this.options.maxPositions ?? MAX_POSITIONS) / Math.max(1, this.live.length)));
    const searches = Math.ceil(missing.length / perSearch);
    const patches = sendInOrder(this.live, this.steps, units);
    // Per state searched: the PATCHes sent before it, and every prefix that leaves that state.
    let batch: { after: number; sent: number[] }[] = [];
    let searched = 0;
    const search = (): void => {
      if (batch.length === 0 || !this.timeLeft()) return;
      const progress = this.options.onProgress;
      const onProgress = progress === undefined ? {} : { onProgress: (done: number, total: number) => progress(searched * total + done, searches * total) };
      const checked = checkStates(walkedStates(this.live, patches, batch.map((state) => state.after), this.final), { ...this.checkOptions(), ...onProgress });
      batch.forEach((state, index) => {
        for (const sent of state.sent) {
          const key = keys[sent] as string;
          if (!this.checks.has(key)) this.checks.set(key, checked.states.get(index + 1) as StateCheck);
        }
      });
      searched += 1;
      batch = [];
    };
    // One list walked PATCH by PATCH (states.ts) to find the states to search; the search walks them again.
    const walk = new StateWalk(this.live);
    let lastList: LiveRule[] | undefined;
    for (let sent = 1; sent < units.length; sent += 1) {
      walk.send(patches[sent - 1] as PlanStep);
      // Only the states not checked yet: an order tried after another shares most of its prefixes' sets.
      if (this.checks.has(keys[sent] as string)) continue;
      const state = walk.state();
      // A state equal to the one before it (only a description changed) is searched once.
      const last = batch[batch.length - 1];
      if (last !== undefined && lastList === state) last.sent.push(sent);
      else {
        if (batch.length === perSearch) search();
        batch.push({ after: sent, sent: [sent] });
      }
      lastList = state;
    }
    search();
  }

  /** Open states of a whole order; undefined when the deadline left one unchecked. */
  costOf(units: readonly OrderUnit[]): number | undefined {
    this.checkWhole(units);
    const keys = this.keys.ofPrefixes(units);
    let cost = 0;
    for (let sent = 1; sent < units.length; sent += 1) {
      const check = this.stateAfter(keys[sent] as string, () => units.slice(0, sent));
      if (check === 'late') return undefined;
      if (check.open.length > 0) cost += 1;
    }
    return cost;
  }

  /** The order of `units` passing through the fewest open states, or undefined when the deadline came first. */
  cheapest(units: readonly OrderUnit[], movable?: ReadonlySet<string>): { units: OrderUnit[]; cost: number } | undefined {
    type Entry = { sent: OrderUnit[]; cost: number; checked: boolean };
    const deque: Entry[] = [{ sent: [], cost: 0, checked: true }];
    const closed = new Set<string>();
    while (deque.length > 0) {
      if (!this.timeLeft()) return undefined;
      const entry = deque.shift() as Entry;
      if (entry.sent.length === units.length) return { units: entry.sent, cost: entry.cost };
      const key = this.keys.of(entry.sent);
      if (closed.has(key)) continue;
      if (!entry.checked) {
        const check = this.stateAfter(key, () => entry.sent);
        if (check === 'late') return undefined;
        if (check.open.length > 0) {
          deque.push({ ...entry, cost: entry.cost + 1, checked: true });
          continue;
        }
      }
      closed.add(key);
      const remaining = nextUnits(units, entry.sent, movable);
      // Pushed to the front in reverse, so the planner's next unit is tried first.
      for (const unit of [...remaining].reverse()) {
        const sent = [...entry.sent, unit];
        if (!closed.has(this.keys.of(sent))) deque.unshift({ sent, cost: entry.cost, checked: sent.length === units.length });
      }
    }
    return undefined;
  }

  /** An order free of windows with one update-and-move sent as two PATCHes, when the time allows finding one. */
  safeSplit(movable?: ReadonlySet<string>): OrderUnit[] | undefined {
    for (const step of this.steps) {
      if (step.kind !== 'update-and-move' || movable?.has(step.ruleId) === false) continue;
      // Both halves are units of the search, so it tries them in either order.
      const found = this.cheapest(splitUnits(this.steps, step.ruleId), movable);
      if (found !== undefined && found.cost === 0) return found.units;
      if (!this.timeLeft()) return undefined;
    }
    return undefined;
  }

  /** Per class open in a state of a checked order: the first and the last state it is open in. */
  openSpans(units: readonly OrderUnit[]): { first: number; last: number }[] {
    const keys = this.keys.ofPrefixes(units);
    const spans = new Map<string, { first: number; last: number }>();
    for (let sent = 1; sent < units.length; sent += 1) {
      const check = this.checks.get(keys[sent] as string);
      if (check === undefined || check === 'late') continue;
      for (const region of check.open) {
        const span = spans.get(region.description);
        if (span === undefined) spans.set(region.description, { first: sent, last: sent });
        else span.last = sent;
      }
    }
    return [...spans.values()];
  }

  /** Rule ids whose units may move to close the windows of a checked order (units-near.ts). */
  movableNear(units: readonly OrderUnit[]): Set<string> {
    const keys = this.keys.ofPrefixes(units);
    const open = keys.slice(1, units.length).flatMap((key) => {
      const check = this.checks.get(key);
      return check === undefined || check === 'late' ? [] : check.open;
    });
    return rulesNear(open, this.start, this.final);
  }

  /** The steps of `units` with the windows and unchecked parts of their states. */
  result(units: readonly OrderUnit[], order: TransitionCheck['order'], plannerWindows?: number): ChosenOrder {
    const steps = reorderSteps(this.live, this.steps, units) ?? [...this.steps];
    this.checkWhole(units);
    const keys = this.keys.ofPrefixes(units);
    const open = new Map<number, Region[]>();
    const unchecked = new Map<string, UncheckedPart>();
    // The states of one region search share one list of unchecked parts (windows.ts): each list is read once.
    const read = new Set<readonly UncheckedPart[]>();
    let late: number | undefined;
    for (let sent = 1; sent < units.length; sent += 1) {
      const check = this.stateAfter(keys[sent] as string, () => units.slice(0, sent));
      if (check === 'late') {
        late ??= sent;
        continue;
      }
      open.set(sent, check.open);
      if (read.has(check.unchecked)) continue;
      read.add(check.unchecked);
      // The states share most parts: each is kept once, in the order first seen.
      for (const part of check.unchecked) unchecked.set(JSON.stringify(part), part);
    }
    const notChecked: UncheckedPart[] = late === undefined ? [] : [{ kind: 'states-out-of-time', first: late, last: units.length - 1 }];
    const check: TransitionCheck = { windows: windowsOf(open), unchecked: [...notChecked, ...unchecked.values()], order, ...(plannerWindows === undefined ? {} : { plannerWindows }) };
    return { steps, check };
  }
}
