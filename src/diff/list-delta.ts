// What one rule list of a region search changes against the list before it (docs/behaviour.md,
// "Safe transitions", "Large plans"). The transition check hands the search hundreds of
// states, each one PATCH after the one before: one rule moved, edited, created or deleted, the
// rest the very same rule objects in the same order. What is worked out per rule of a list
// (its number, its entry, the part it falls in) is then worked out for the rules between the
// common start and the common end of the two lists only; the rest is copied from the list
// before, so the work per state follows the PATCH, not the length of the list.
import type { NormalRule } from '../semantics/model.js';

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
 * The active rules of `rules` as the active rules of `beforeRules` (whose per-rule values a
 * caller holds) cut and joined: the first `start` and the last `end` of those are the same rules
 * in both, and `middle` are `rules`' own in between, in order, each given to `of` (so whatever
 * `of` numbers in the order it first sees a rule is numbered as a walk over the whole list would).
 */
export function activeAfter<T>(beforeRules: readonly NormalRule[], rules: readonly NormalRule[], of: (rule: NormalRule) => T): { start: number; middle: T[]; end: number } {
  const ends = commonEnds(beforeRules, rules);
  const middle: T[] = [];
  for (let at = ends.start; at < rules.length - ends.end; at += 1) {
    const rule = rules[at] as NormalRule;
    if (rule.status === 'active') middle.push(of(rule));
  }
  return { start: activeBetween(rules, 0, ends.start), middle, end: activeBetween(rules, rules.length - ends.end, rules.length) };
}

/** `before`'s first `start` and last `end` numbers with `middle` between them. */
export function joinedIds(before: Int32Array, { start, middle, end }: { start: number; middle: number[]; end: number }): Int32Array {
  const ids = new Int32Array(start + middle.length + end);
  ids.set(before.subarray(0, start));
  ids.set(middle, start);
  ids.set(before.subarray(before.length - end), start + middle.length);
  return ids;
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
