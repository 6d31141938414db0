// Which requests an intermediate live state lets through while the starting and the final
// rules both block or challenge them (docs/behaviour.md, "Safe transitions"). Each state is
// compared with the start and the final rules by the region engine (regions.ts), so a window
// is a class of requests with a witness the evaluator confirmed, never a sample that happened
// to differ. Pure: rule lists in, regions out; the deadline bounds the work.
import type { EvaluationOptions } from '../../evaluate/leaf.js';
import type { TransitionWindow, UncheckedPart, WindowClass, WindowOutcome } from '../../plan/types.js';
import type { RegionOutcome } from '../entries.js';
import { regionsWhere, type Region } from '../regions.js';
import type { RuleLists } from '../list-delta.js';
import type { RefutationStore } from '../refutations.js';

/** Blocks or challenges: the outcome is decided and carries hardBlock or blockWithChallenge. */
export function protects(outcome: RegionOutcome): boolean {
  return 'actions' in outcome && (outcome.actions.includes('hardBlock') || outcome.actions.includes('blockWithChallenge'));
}

function undecided(outcome: RegionOutcome): boolean {
  return 'undecided' in outcome;
}

/**
 * [start, …states in between…, final] could hold a window: start and final block or challenge,
 * some state in between does not — or an undecided outcome leaves it open (reported as unchecked).
 */
function couldOpen(outcomes: readonly RegionOutcome[]): boolean {
  const last = outcomes.length - 1;
  if (!guarded(outcomes[0] as RegionOutcome) || !guarded(outcomes[last] as RegionOutcome)) return false;
  // The search asks this at every step, over hundreds of states: a loop, no copy of the outcomes,
  // and a state with the very outcome of the state before (most of them) not asked again.
  let protecting: RegionOutcome | undefined;
  for (let state = 1; state < last; state += 1) {
    const during = outcomes[state] as RegionOutcome;
    if (during === protecting) continue;
    if (!protects(during) || undecided(during)) return true;
    protecting = during;
  }
  return false;
}

function guarded(outcome: RegionOutcome): boolean {
  return protects(outcome) || undecided(outcome);
}

/** The start or the final rules let the class through: no state in between opens a window for it. */
function cannotOpen(known: readonly (RegionOutcome | undefined)[]): boolean {
  const [start, final] = [known[0], known[known.length - 1]];
  return (start !== undefined && !guarded(start)) || (final !== undefined && !guarded(final));
}

/** What one intermediate state lets through. */
export interface StateCheck {
  /** Request classes open in this state, each with its outcomes [start, this state, final]. */
  open: Region[];
  /** What the search that checked this state could not decide or ran out of time on. */
  unchecked: UncheckedPart[];
}

/** The states between the PATCH requests of one order, checked together. */
export interface StatesCheck {
  /** By state (k: after k PATCH requests, 1 to n−1). */
  states: Map<number, StateCheck>;
  /** Each part the engine could not decide or ran out of time on. */
  unchecked: UncheckedPart[];
}

export interface StateCheckOptions {
  deadline?: number;
  evaluation?: EvaluationOptions;
  onProgress?: (done: number, total: number) => void;
  /** The command's refutations, shared by its searches (refutations.ts). */
  refutations?: RefutationStore;
}

/**
 * Compares the states in between with the start and the final rules (`lists`: start, each
 * state, final; each in priority order). One region search over all the lists, not one per
 * state: they are nearly the same lists, and each class's outcomes say in which states it is open.
 */
export function checkStates(lists: RuleLists, options: StateCheckOptions = {}): StatesCheck {
  const search = regionsWhere(lists, couldOpen, {
    hopeless: cannotOpen,
    // couldOpen reads of an outcome in between only whether it blocks or challenges.
    outcomeKind: (outcome) => (protects(outcome) ? 1 : 0),
    ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
    ...(options.evaluation === undefined ? {} : { evaluation: options.evaluation }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    ...(options.refutations === undefined ? {} : { refutations: options.refutations }),
  });
  const unsure = search.regions.filter((region) => region.outcomes.some(undecided));
  const unchecked: UncheckedPart[] = [
    ...unsure.map((region) => ({ kind: 'undecided-class' as const, requests: region.description, reasons: undecidedReasons(region.outcomes) })),
    ...search.unchecked.map((part) => ({ kind: 'search' as const, reason: part.reason, rules: part.rules })),
  ];
  const last = lists.length - 1;
  const states = new Map<number, StateCheck>();
  for (let state = 1; state < last; state += 1) states.set(state, { open: [], unchecked });
  for (const region of search.regions) {
    if (region.outcomes.some(undecided)) continue;
    const [start, final] = [region.outcomes[0] as RegionOutcome, region.outcomes[last] as RegionOutcome];
    // The states a class is open in share its region per outcome in between (the search gives a
    // few outcome objects, found-regions.ts): one region per state was kept through the order search.
    const byDuring = new Map<RegionOutcome, Region>();
    region.outcomes.forEach((during, state) => {
      if (state === 0 || state === last || protects(during)) return;
      let open = byDuring.get(during);
      if (open === undefined) byDuring.set(during, (open = { ...region, outcomes: [start, during, final] }));
      states.get(state)?.open.push(open);
    });
  }
  return { states, unchecked };
}

function undecidedReasons(outcomes: readonly RegionOutcome[]): string[] {
  return [...new Set(outcomes.flatMap((o) => ('undecided' in o ? [o.undecided] : [])))];
}

/** What decides in a window: the deciding rule and its actions, no rule, or a rule undecided. */
function windowOutcome(outcome: RegionOutcome): WindowOutcome {
  if ('undecided' in outcome) return { kind: 'undecided', reason: outcome.undecided };
  return outcome.rule === undefined ? { kind: 'no-rule' } : { kind: 'rule', rule: outcome.rule, actions: outcome.actions };
}

/**
 * The windows of an order from the open classes of each intermediate state (index k: after k
 * PATCHes): consecutive open states are one window, open from the first of them until the
 * PATCH after the last, with every class they let through (described once).
 */
export function windowsOf(openByState: ReadonlyMap<number, readonly Region[]>): TransitionWindow[] {
  const windows: TransitionWindow[] = [];
  let current: { window: TransitionWindow; described: Set<string> } | undefined;
  for (const state of [...openByState.keys()].sort((a, b) => a - b)) {
    const regions = openByState.get(state) ?? [];
    if (regions.length === 0) {
      current = undefined;
      continue;
    }
    if (current === undefined || current.window.closesAt !== state) {
      current = { window: { opensAfter: state, closesAt: state + 1, classes: [] }, described: new Set() };
      windows.push(current.window);
    }
    current.window.closesAt = state + 1;
    for (const region of regions) {
      if (current.described.has(region.description)) continue;
      current.described.add(region.description);
      current.window.classes.push(classOf(region, state));
    }
  }
  return windows;
}

function classOf(region: Region, state: number): WindowClass {
  const [before, during, after] = region.outcomes as [RegionOutcome, RegionOutcome, RegionOutcome];
  return { requests: region.description, seenAfter: state, witness: { ...region.witness }, before: windowOutcome(before), during: windowOutcome(during), after: windowOutcome(after) };
}
