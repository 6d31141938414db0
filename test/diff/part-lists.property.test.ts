// Each part's lists (src/diff/part-lists.ts partsOf) against the cut worked out plainly: every
// list given cut to each part's rules, equal cuts one list, in the order first seen. partsOf cuts
// a list from the one before: the parts of no rule between their common start and end are the
// arrays of the list before; when the rules in between belong to many parts (a far move), it cuts
// the list whole and keeps the array of the list before for each part whose cut is the same.
// The runs that reach that branch with a part changed and a part kept are counted, so the
// property cannot pass without it. A rule may be in several parts (one per way of matching it
// has there, changed-parts.ts), each holding it as its own object. And two cuts whose numbers
// hash alike are two lists.
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { commonEnds, IdsAlong, idsHash } from '../../src/diff/list-delta.js';
import { partsOf } from '../../src/diff/part-lists.js';
import type { NormalRule } from '../../src/semantics/model.js';
import { normal } from '../helpers/rules.js';

const RULES = 24;
const PARTS = 8;
/** Parts the rules in between may touch before partsOf cuts a list whole (part-lists.ts). */
const MAX_TOUCHED_PARTS = 4;

const rules: NormalRule[] = Array.from({ length: RULES }, (_, id) =>
  normal({ name: `r${id}`, description: '', status: 'active', actions: ['allow'], conditions: { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$startsWith', value: `/${id}` }] }] } }),
);

/** Rule numbers in order, one list after another: a rule moved near or far, created, deleted, or the list shuffled. */
const runs = fc
  .record({
    partsOf: fc.array(fc.oneof(fc.integer({ min: -1, max: PARTS - 1 }).map((part) => (part === -1 ? [] : [part])), fc.uniqueArray(fc.integer({ min: 0, max: PARTS - 1 }), { minLength: 2, maxLength: 3 })), { minLength: RULES, maxLength: RULES }),
    start: fc.shuffledSubarray(Array.from({ length: RULES }, (_, id) => id), { minLength: 8 }),
    steps: fc.array(fc.record({ kind: fc.constantFrom('move', 'move', 'move', 'create', 'delete', 'shuffle', 'same'), from: fc.nat(), to: fc.nat(), id: fc.nat(RULES - 1), seed: fc.nat() }), { minLength: 1, maxLength: 12 }),
  })
  .map(({ partsOf: partsOfRule, start, steps }) => {
    const lists: number[][] = [start];
    for (const step of steps) {
      const list = [...(lists[lists.length - 1] as number[])];
      const [from, to] = [step.from % Math.max(1, list.length), step.to % Math.max(1, list.length)];
      if (step.kind === 'move') list.splice(to, 0, ...list.splice(from, 1));
      else if (step.kind === 'create' && !list.includes(step.id)) list.splice(to, 0, step.id);
      else if (step.kind === 'delete' && list.length > 1) list.splice(from, 1);
      else if (step.kind === 'shuffle') list.sort((a, b) => ((a * 7919 + step.seed) % 31) - ((b * 7919 + step.seed) % 31));
      lists.push(list);
    }
    return { partsOfRule, lists };
  });

/** Every list whole, as the delta partsOf reads it as (the numbers of the list before are not needed). */
function along(lists: readonly number[][]): IdsAlong {
  const numbers = new IdsAlong(Int32Array.from(lists[0] as number[]));
  for (const list of lists.slice(1)) numbers.push({ start: 0, before: [...list], run: { from: 0, length: 0 }, after: [], end: 0 });
  return numbers;
}

/** The rule as part `part` holds it: a copy of its own (as a rule narrowed to its ways there is). */
const copies = new Map<string, NormalRule>();
function ruleIn(part: number, id: number): NormalRule {
  const key = `${part}/${id}`;
  let copy = copies.get(key);
  if (copy === undefined) copies.set(key, (copy = { ...(rules[id] as NormalRule) }));
  return copy;
}

/** The parts as cut plainly: per part, its distinct cut lists (as rules) and per list the index of its cut. */
function plainly(partIds: readonly number[][], lists: readonly number[][]) {
  return partIds.map((ids, part) => {
    const cuts: string[] = [];
    const listOf = lists.map((list) => {
      const key = list.filter((id) => ids.includes(id)).join(',');
      if (!cuts.includes(key)) cuts.push(key);
      return cuts.indexOf(key);
    });
    return { lists: cuts.map((key) => (key === '' ? [] : key.split(',').map((id) => ruleIn(part, Number(id))))), listOf };
  });
}

describe('each part cut from the list before', () => {
  test('gives the cut of every list worked out plainly, also where the rules in between touch many parts', () => {
    let reached = 0;
    let shared = 0;
    fc.assert(
      fc.property(runs, ({ partsOfRule, lists }) => {
        const partIds = Array.from({ length: PARTS }, (_, part) => partsOfRule.flatMap((of, id) => (of.includes(part) ? [id] : [])));
        const changed = new Uint8Array(RULES);
        const parts = partsOf(partIds.map((ids, part) => ({ ids, ruleOf: new Map(ids.map((id) => [id, ruleIn(part, id)])) })), lists.map((_, index) => index), along(lists), RULES, changed);
        const got = parts.map(({ lists: cut, listOf }) => ({ lists: cut, listOf }));
        const wanted = plainly(partIds, lists);
        expect(got).toEqual(wanted);
        // Each part's own objects, not another part's copy of the same rule.
        got.forEach((part, index) => part.lists.forEach((list, at) => list.forEach((rule, i) => expect(rule).toBe((wanted[index] as { lists: NormalRule[][] }).lists[at]?.[i]))));
        if (partsOfRule.some((of) => of.length > 1 && lists.some((list) => list.includes(partsOfRule.indexOf(of))))) shared += 1;
        // A list whose rules in between touch many parts, some of whose cuts change and some not.
        const cutOf = (list: readonly number[], part: number) => list.filter((id) => (partsOfRule[id] as number[]).includes(part)).join(',');
        const far = lists.some((list, i) => {
          const before = lists[i - 1];
          if (before === undefined) return false;
          const { start, end } = commonEnds(before, list);
          const touched = new Set([...before.slice(start, before.length - end), ...list.slice(start, list.length - end)].flatMap((id) => partsOfRule[id] as number[]));
          const same = [...touched].filter((part) => cutOf(before, part) === cutOf(list, part));
          return touched.size > MAX_TOUCHED_PARTS && same.length > 0 && same.length < touched.size;
        });
        if (far) reached += 1;
      }),
      { numRuns: 400 },
    );
    expect(reached).toBeGreaterThan(150);
    expect(shared).toBeGreaterThan(200);
  });

  test('keeps apart two cuts whose numbers hash alike', () => {
    // idsHash([0, 31]) === idsHash([1, 0]) (list-delta.ts): equal cuts are found by their hash, then told apart by their rules.
    const lists = [[0, 31], [1, 0], [0, 31], [1, 0]];
    const ids = [0, 1, 31];
    const [part] = partsOf([{ ids, ruleOf: new Map(ids.map((id) => [id, ruleIn(0, id)])) }], [0, 1, 2, 3], along(lists), 32, new Uint8Array(32));
    expect(idsHash([0, 31])).toBe(idsHash([1, 0]));
    expect(part?.listOf).toEqual([0, 1, 0, 1]);
    expect(part?.lists).toEqual([[ruleIn(0, 0), ruleIn(0, 31)], [ruleIn(0, 1), ruleIn(0, 0)]]);
  });
});
