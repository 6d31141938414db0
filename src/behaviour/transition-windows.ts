// Which requests an intermediate live state lets through while the starting and the final
// rules both block or challenge them (docs/behaviour.md, "Safe transitions"). Each state is
// compared with the start and the final rules by the region engine (regions.ts), so a window
// is a class of requests with a witness the evaluator confirmed, never a sample that happened
// to differ. Pure: rule lists in, regions out; the deadline bounds the work.
import type { EvaluationOptions } from '../evaluate/leaf.js';
import type { Rule } from '../semantics/model.js';
import type { TransitionWindow, WindowClass } from '../plan/transitions.js';
import { regionsWhere, type Outcome, type Region } from './regions.js';

/** Blocks or challenges: the outcome is decided and carries hardBlock or blockWithChallenge. */
export function protects(outcome: Outcome): boolean {
  return 'actions' in outcome && (outcome.actions.includes('hardBlock') || outcome.actions.includes('blockWithChallenge'));
}

function undecided(outcome: Outcome): boolean {
  return 'undecided' in outcome;
}

/**
 * [start, during, final] could be a window: start and final block or challenge, the state in
 * between does not — or an undecided outcome leaves it open (then it is reported as unchecked).
 */
function couldOpen(outcomes: readonly Outcome[]): boolean {
  const [start, during, final] = outcomes as [Outcome, Outcome, Outcome];
  const guarded = (o: Outcome): boolean => protects(o) || undecided(o);
  return guarded(start) && guarded(final) && (!protects(during) || undecided(during));
}

/** What one intermediate state lets through. */
export interface StateCheck {
  /** Request classes open in this state (start and final block or challenge, this state does not). */
  open: Region[];
  /** One sentence per part the engine could not decide or ran out of time on. */
  unchecked: string[];
}

export interface StateCheckOptions {
  deadline?: number;
  evaluation?: EvaluationOptions;
}

/** Compares one intermediate state with the start and the final rules (each in priority order). */
export function checkState(start: readonly Rule[], during: readonly Rule[], final: readonly Rule[], options: StateCheckOptions = {}): StateCheck {
  const search = regionsWhere([start, during, final], couldOpen, {
    ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
    ...(options.evaluation === undefined ? {} : { evaluation: options.evaluation }),
  });
  const open = search.regions.filter((region) => region.outcomes.every((o) => !undecided(o)));
  const unsure = search.regions.filter((region) => region.outcomes.some(undecided));
  const unchecked = [
    ...unsure.map((region) => `requests ${region.description}: ${undecidedReason(region.outcomes)}`),
    ...search.unchecked.map((part) => `${part.reason}${part.rules.length === 0 ? '' : ` (rules ${part.rules.map((r) => `"${r}"`).join(', ')})`}`),
  ];
  return { open, unchecked };
}

function undecidedReason(outcomes: readonly Outcome[]): string {
  const reasons = outcomes.flatMap((o) => ('undecided' in o ? [o.undecided] : []));
  return [...new Set(reasons)].join('; ');
}

/** How an outcome reads in a window: the deciding rule and its actions, or that none decides. */
export function outcomeText(outcome: Outcome): string {
  if ('undecided' in outcome) return `undecided (${outcome.undecided})`;
  if (outcome.rule === undefined) return 'no rule (not blocked)';
  return `"${outcome.rule}" (${outcome.actions.join(', ')})`;
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
  const [before, during, after] = region.outcomes as [Outcome, Outcome, Outcome];
  return { requests: region.description, seenAfter: state, witness: { ...region.witness }, before: outcomeText(before), during: outcomeText(during), after: outcomeText(after) };
}
