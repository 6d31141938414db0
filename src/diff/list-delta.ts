// What one rule list of a region search changes against the list before it (docs/behaviour.md,
// "Safe transitions", "Large plans"). The transition check hands the search hundreds of
// states, each one PATCH after the one before: one rule moved, edited, created or deleted, the
// rest the very same rule objects in the same order. What is worked out per rule of a list
// (its number, its entry, the part it falls in) is then worked out for the rules between the
// common start and the common end of the two lists only; the rest is copied from the list
// before, so the work per state follows the PATCH, not the length of the list.
import type { NormalRule } from '../semantics/model.js';

/**
 * Rule lists a region search reads, in order: an array of them, or lists walked again on each
 * read (`lists()`), of which the search holds the one before only. The transition check's
 * states are such a walk: built one PATCH after another, never a copy of every state held at
 * once (docs/behaviour.md, "Safe transitions"). A list that is the very array of the one before is
 * the same list; the search numbers it once.
 */
export type RuleLists = readonly (readonly NormalRule[])[] | WalkedLists;

export interface WalkedLists {
  readonly length: number;
  /** The lists in order, built again on each call. */
  lists(): Iterable<readonly NormalRule[]>;
}

export function eachList(lists: RuleLists): Iterable<readonly NormalRule[]> {
  return 'lists' in lists ? lists.lists() : lists;
}

/** How long a start and how long an end (not overlapping) two lists share, element by element. */
export interface CommonEnds {
  start: number;
  end: number;
}

export function commonEnds<T>(before: ArrayLike<T>, after: ArrayLike<T>): CommonEnds {
  const max = Math.min(before.length, after.length);
  let start = 0;
  while (start < max && before[start] === after[start]) start += 1;
  let end = 0;
  while (end < max - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end += 1;
  return { start, end };
}

/** Active rules of `rules` from `from` up to (not including) `to`: decide() and the search skip paused ones. */
function activeBetween(rules: readonly NormalRule[], from: number, to: number): number {
  let count = 0;
  for (let at = from; at < to; at += 1) if ((rules[at] as NormalRule).status === 'active') count += 1;
  return count;
}

/**
 * The active rules of a list as those of the list before it (whose per-rule values a caller
 * holds): the before's first `start` and last `end` values, and in between `fresh` values
 * around one `run` of the before's values kept in order (`from`, `length`: indices in them).
 */
export interface ActiveDelta<T> {
  start: number;
  before: T[];
  run: { from: number; length: number };
  after: T[];
  end: number;
}

/**
 * The active rules of `rules` as the active rules of `beforeRules` (`beforeActive` of them, whose
 * per-rule values a caller holds) cut and joined. The rules of `rules` not in a run of the list
 * before are each given to `of`, in order (so whatever `of` numbers in the order it first sees a
 * rule is numbered as a walk over the whole list would: the rules of a run were seen before).
 * A PATCH that moves one rule shifts every rule between its two places by one: those are a run,
 * so a move costs what its distance costs in pointer comparisons, not a value per rule
 * (docs/behaviour.md, "Safe transitions"). Active rules are counted on the shorter of the
 * common start and end only, the other following from `beforeActive`.
 */
export function activeAfter<T>(beforeRules: readonly NormalRule[], rules: readonly NormalRule[], of: (rule: NormalRule) => T, beforeActive: number): ActiveDelta<T> {
  const { start: same, end: sameEnd } = commonEnds(beforeRules, rules);
  const [from, beforeTo, to] = [same, beforeRules.length - sameEnd, rules.length - sameEnd];
  const run = shiftedRun(beforeRules, rules, from, beforeTo, to);
  const valuesOf = (at: number, stop: number): T[] => {
    const values: T[] = [];
    for (; at < stop; at += 1) if ((rules[at] as NormalRule).status === 'active') values.push(of(rules[at] as NormalRule));
    return values;
  };
  const before = run === undefined ? valuesOf(from, to) : valuesOf(from, from + run.fresh);
  const after = run === undefined ? [] : valuesOf(from + run.fresh + run.length, to);
  // The before's middle is the run and the one rule that moved (or, without a run, counted whole).
  const kept = run === undefined ? 0 : activeBetween(beforeRules, from + run.at, from + run.at + run.length);
  const moved = run === undefined ? activeBetween(beforeRules, from, beforeTo) : activeBetween(beforeRules, from + (run.at === 1 ? 0 : run.length), from + (run.at === 1 ? 1 : run.length + 1));
  const middleBefore = kept + moved;
  const start = same <= sameEnd ? activeBetween(rules, 0, same) : beforeActive - middleBefore - activeBetween(rules, rules.length - sameEnd, rules.length);
  const end = beforeActive - middleBefore - start;
  // A run at the start of the before's middle follows the moved rule (`at` 1): its values start after that rule's.
  return { start, before, run: { from: start + (run?.at === 1 ? moved : 0), length: kept }, after, end };
}

/**
 * A move within the changed middle: `rules[from..to)` is one rule (at its start or its end,
 * `fresh` rules before the run) and a run of `beforeRules[from..beforeTo)` (starting `at` in it,
 * `length` long) in the same order, compared rule object by rule object; undefined otherwise.
 */
function shiftedRun(beforeRules: readonly NormalRule[], rules: readonly NormalRule[], from: number, beforeTo: number, to: number): { at: number; length: number; fresh: number } | undefined {
  const length = to - from - 1;
  if (length < 1 || beforeTo - from !== to - from) return undefined;
  if (sameRun(beforeRules, from + 1, rules, from, length)) return { at: 1, length, fresh: 0 };
  if (sameRun(beforeRules, from, rules, from + 1, length)) return { at: 0, length, fresh: 1 };
  return undefined;
}

function sameRun(a: readonly NormalRule[], aFrom: number, b: readonly NormalRule[], bFrom: number, length: number): boolean {
  for (let i = 0; i < length; i += 1) if (a[aFrom + i] !== b[bFrom + i]) return false;
  return true;
}

/** How many values a list joined as `delta` says holds. */
function joinedLength(delta: ActiveDelta<unknown>): number {
  return delta.start + delta.before.length + delta.run.length + delta.after.length + delta.end;
}

/** `before`'s numbers joined as `delta` says, in a new array or at the start of `into` (not `before`'s buffer). */
export function joinedIds(before: Int32Array, delta: ActiveDelta<number>, into?: Int32Array): Int32Array {
  const { start, run, end } = delta;
  const ids = into === undefined ? new Int32Array(joinedLength(delta)) : into.subarray(0, joinedLength(delta));
  ids.set(before.subarray(0, start));
  let at = start;
  for (const id of delta.before) ids[at++] = id;
  ids.set(before.subarray(run.from, run.from + run.length), at);
  at += run.length;
  for (const id of delta.after) ids[at++] = id;
  ids.set(before.subarray(before.length - end), at);
  return ids;
}

/**
 * The rule numbers of consecutive lists (changed-parts.ts): the first list's, then per list after
 * it its delta against the one before, so that hundreds of states a PATCH apart cost a PATCH's
 * worth each, not a copy of every number. An array per state (about 20 KB at 5,000 rules) lived
 * through the whole set-up and outlived the young generation; the heap kept each until the next
 * full collection (docs/behaviour.md, "Safe transitions").
 */
export class IdsAlong {
  private readonly deltas: ActiveDelta<number>[] = [];
  private longest: number;

  constructor(private readonly first: Int32Array) {
    this.longest = first.length;
  }

  /** The first list's length. */
  get firstLength(): number {
    return this.first.length;
  }

  /** The list after the last one, as `delta` against it; its length. */
  push(delta: ActiveDelta<number>): number {
    this.deltas.push(delta);
    const length = joinedLength(delta);
    this.longest = Math.max(this.longest, length);
    return length;
  }

  /** Lists held. */
  get length(): number {
    return this.deltas.length + 1;
  }

  /**
   * The lists in order, joined again on each read into two arrays used in turn: a list read is
   * valid until the list after the next one is read (a reader holds the one before at most).
   */
  *lists(): Generator<Int32Array> {
    for (const { ids } of this.changes()) yield ids;
  }

  /** As lists() reads them, each list after the first with its delta against the one before. */
  *changes(): Generator<{ ids: Int32Array; delta?: ActiveDelta<number> }> {
    let ids = this.first;
    yield { ids };
    const buffers = [new Int32Array(this.longest), new Int32Array(this.longest)];
    for (const [index, delta] of this.deltas.entries()) {
      ids = joinedIds(ids, delta, buffers[index % 2]);
      yield { ids, delta };
    }
  }
}

/** A number per list of ids, equal for equal lists (a key that needs no string of the whole list). */
export function idsHash(ids: ArrayLike<number>): number {
  let hash = ids.length | 0;
  for (let i = 0; i < ids.length; i++) hash = (Math.imul(hash, 31) + (ids[i] as number) + 1) | 0;
  return hash;
}

/** The same numbers in the same order. */
export function sameIds(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
