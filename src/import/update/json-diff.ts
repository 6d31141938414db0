// RFC 6902 operations between two JSON values, lists treated as the rule semantics treats a
// rule's groups and leaves: an item that is still there (deep-equal, in the same relative
// order) stays where it is, so removing the fourth leaf is `remove …/children/3`, not a
// replacement of every leaf after it. Items that changed between two that stayed are edited
// in place; what is left is removed (from the last) and added (at its new index).
import type { Operation } from 'fast-json-patch';
import { sameJson, sortedJson } from '../../plan/compare.js';
import { maxWeightIncreasingSubsequence } from '../../plan/order.js';
import { pointerToken } from '../../io/json-pointer.js';
import { isObject } from '../../io/json-depth.js';

/** The operations that turn `from` into `to`, at `path` (a JSON Pointer, "" for the root). */
export function jsonDiff(from: unknown, to: unknown, path: string): Operation[] {
  if (Array.isArray(from) && Array.isArray(to)) return listDiff(from, to, path);
  if (isObject(from) && isObject(to)) return objectDiff(from, to, path);
  return sameJson(from, to) ? [] : [{ op: 'replace', path, value: to }];
}

function objectDiff(from: Record<string, unknown>, to: Record<string, unknown>, path: string): Operation[] {
  const operations: Operation[] = [];
  for (const key of Object.keys(from)) if (!(key in to)) operations.push({ op: 'remove', path: `${path}/${pointerToken(key)}` });
  for (const [key, value] of Object.entries(to)) {
    const at = `${path}/${pointerToken(key)}`;
    operations.push(...(key in from ? jsonDiff(from[key], value, at) : [{ op: 'add' as const, path: at, value }]));
  }
  return operations;
}

function listDiff(from: readonly unknown[], to: readonly unknown[], path: string): Operation[] {
  const kept = keptPairs(from, to);
  const edited = editedPairs(from, to, kept);
  const pairs = [...kept, ...edited];
  const operations: Operation[] = [];
  // Kept items are equal already; only the ones edited in place have operations of their own.
  for (const [f, t] of edited) operations.push(...jsonDiff(from[f], to[t], `${path}/${f}`));
  const stays = new Set(pairs.map(([f]) => f));
  const arrives = new Set(pairs.map(([, t]) => t));
  let length = from.length;
  for (let f = from.length - 1; f >= 0; f -= 1) {
    if (stays.has(f)) continue;
    operations.push({ op: 'remove', path: `${path}/${f}` });
    length -= 1;
  }
  to.forEach((value, t) => {
    if (arrives.has(t)) return;
    operations.push({ op: 'add', path: `${path}/${t === length ? '-' : t}`, value });
    length += 1;
  });
  return operations;
}

/** Pairs [fromIndex, toIndex] of equal items, in order in both lists, as many as possible. */
function keptPairs(from: readonly unknown[], to: readonly unknown[]): [number, number][] {
  const waiting = new Map<string, number[]>();
  from.forEach((value, f) => {
    const key = sortedJson(value);
    const queue = waiting.get(key);
    if (queue === undefined) waiting.set(key, [f]);
    else queue.push(f);
  });
  const candidates: [number, number][] = [];
  to.forEach((value, t) => {
    const f = waiting.get(sortedJson(value))?.shift();
    if (f !== undefined) candidates.push([f, t]);
  });
  const ranks = new Map([...candidates.map(([f]) => f)].sort((a, b) => a - b).map((f, rank) => [f, rank]));
  const keep = maxWeightIncreasingSubsequence(candidates.map(([f]) => ranks.get(f) as number), candidates.map(() => 1));
  return candidates.filter((_, index) => keep[index]);
}

/** Between each two kept pairs, the items left on both sides paired in order (edited in place). */
function editedPairs(from: readonly unknown[], to: readonly unknown[], kept: readonly [number, number][]): [number, number][] {
  const pairs: [number, number][] = [];
  let f = 0;
  let t = 0;
  for (const anchor of [...kept, [from.length, to.length] as [number, number]]) {
    while (f < anchor[0] && t < anchor[1]) pairs.push([f++, t++]);
    f = anchor[0] + 1;
    t = anchor[1] + 1;
  }
  return pairs;
}
