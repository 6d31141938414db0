// The numbering of the behaviour search's signature keys (src/diff/number-ids.ts) against a Map
// that numbers keys in the order first seen: over random keys up to 2^53, many of them repeated
// and many 2^32 apart (whose low halves are equal), every key gets the Map's id, through the
// table's growth (counted, so the property cannot pass without repeats, collisions and growth).
// And the values a search keeps by the process-wide numbers of rule-keys.ts (ByNumber), against
// a Map: numbers past the array's end (read as missing, then set), at either side of its ends,
// values set again, and 0 both as a number and as a value; emptied by `clear` between steps, and
// reused by searches (reusedByNumbers): each search starts from empty sets, its own when nested.
import fc from 'fast-check';
import { ByNumber, NumberIds, reusedByNumbers } from '../../src/diff/number-ids.js';

describe('the numbering of signature keys', () => {
  it('gives each key the id a Map gives it, in the order first seen, through growth', () => {
    let repeats = 0;
    let sameLowHalf = 0;
    let grown = 0;
    const key = fc.oneof(
      fc.nat(50),
      fc.maxSafeNat(),
      fc.tuple(fc.nat(20), fc.nat(3)).map(([high, low]) => high * 2 ** 32 + low),
    );
    fc.assert(
      fc.property(fc.array(key, { maxLength: 3000, size: 'max' }), (keys) => {
        const ids = new NumberIds();
        const oracle = new Map<number, number>();
        const lowHalves = new Map<number, number>();
        const wrong: number[] = [];
        for (const k of keys) {
          if (oracle.has(k)) repeats += 1;
          else oracle.set(k, oracle.size + 1);
          const low = k % 2 ** 32;
          if (lowHalves.has(low) && lowHalves.get(low) !== k) sameLowHalf += 1;
          lowHalves.set(low, k);
          // One expect per case, not per key: the first key whose id differs, if any.
          if (ids.idOf(k) !== oracle.get(k) || ids.size !== oracle.size) wrong.push(k);
        }
        if (oracle.size > 768) grown += 1;
        for (const [k, id] of oracle) if (ids.idOf(k) !== id) wrong.push(k);
        expect(wrong.slice(0, 1)).toEqual([]);
        expect(ids.size).toBe(oracle.size);
      }),
      { numRuns: 100, endOnFailure: true },
    );
    expect(repeats).toBeGreaterThan(1000);
    expect(sameLowHalf).toBeGreaterThan(100);
    expect(grown).toBeGreaterThan(5);
  });
});

describe('values by number', () => {
  it('reads what a Map reads, -1 for a number never set, through growth', () => {
    let past = 0;
    let reset = 0;
    const step = fc.record({ number: fc.oneof(fc.nat(40), fc.nat(6000), fc.constantFrom(1023, 1024, 2047, 2048, 4095, 4096)), value: fc.oneof(fc.constant(0), fc.nat(2 ** 31 - 2)) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 400, size: 'max' }), (steps) => {
        const byNumber = new ByNumber();
        const oracle = new Map<number, number>();
        const wrong: number[] = [];
        let end = 1024;
        for (const { number, value } of steps) {
          if (number >= end) past += 1;
          while (number >= end) end *= 2;
          if (byNumber.get(number) !== (oracle.get(number) ?? -1)) wrong.push(number);
          if (oracle.has(number)) reset += 1;
          byNumber.set(number, value);
          oracle.set(number, value);
        }
        for (const { number } of steps) if (byNumber.get(number) !== oracle.get(number)) wrong.push(number);
        for (const number of [0, 1023, 1024, 5999, 6000, 100_000]) if (byNumber.get(number) !== (oracle.get(number) ?? -1)) wrong.push(number);
        expect(wrong.slice(0, 1)).toEqual([]);
      }),
      { numRuns: 200, endOnFailure: true },
    );
    expect(past).toBeGreaterThan(100);
    expect(reset).toBeGreaterThan(100);
  });
});

describe('values by number, cleared', () => {
  it('reads what a Map emptied at the same steps reads', () => {
    let cleared = 0;
    let readAfterClear = 0;
    const step = fc.oneof(
      { weight: 8, arbitrary: fc.record({ number: fc.oneof(fc.nat(40), fc.nat(6000)), value: fc.oneof(fc.constant(0), fc.nat(2 ** 31 - 2)) }) },
      { weight: 1, arbitrary: fc.constant('clear' as const) },
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 300, size: 'max' }), (steps) => {
        const byNumber = new ByNumber();
        const oracle = new Map<number, number>();
        const wrong: number[] = [];
        let forgotten = new Set<number>();
        for (const one of steps) {
          if (one === 'clear') {
            cleared += 1;
            forgotten = new Set([...forgotten, ...oracle.keys()]);
            byNumber.clear();
            oracle.clear();
            continue;
          }
          if (forgotten.has(one.number) && !oracle.has(one.number)) readAfterClear += 1;
          if (byNumber.get(one.number) !== (oracle.get(one.number) ?? -1)) wrong.push(one.number);
          byNumber.set(one.number, one.value);
          oracle.set(one.number, one.value);
        }
        for (const number of [...forgotten, 0, 6000]) if (byNumber.get(number) !== (oracle.get(number) ?? -1)) wrong.push(number);
        expect(wrong.slice(0, 1)).toEqual([]);
      }),
      { numRuns: 200, endOnFailure: true },
    );
    expect(cleared).toBeGreaterThan(100);
    expect(readAfterClear).toBeGreaterThan(100);
  });

  it('gives each search empty sets, and one inside another sets of its own', () => {
    const seen = (sets: ByNumber[]) => sets.map((set) => [0, 7, 5000].map((number) => set.get(number)));
    const empty = [[-1, -1, -1], [-1, -1, -1]];
    expect(reusedByNumbers(2, (sets) => {
      for (const set of sets) set.set(7, 1);
      return sets;
    })).toHaveLength(2);
    const outer = reusedByNumbers(2, (sets) => {
      const before = seen(sets);
      for (const set of sets) [0, 7, 5000].forEach((number) => set.set(number, number));
      const inner = reusedByNumbers(2, (own) => ({ before: seen(own), same: own.some((set) => sets.includes(set)) }));
      return { before, inner, after: seen(sets) };
    });
    expect(outer).toEqual({ before: empty, inner: { before: empty, same: false }, after: [[0, 7, 5000], [0, 7, 5000]] });
    expect(() => reusedByNumbers(1, (sets) => {
      sets[0]?.set(3, 3);
      throw new Error('search failed');
    })).toThrow('search failed');
    expect(reusedByNumbers(1, (sets) => sets[0]?.get(3))).toBe(-1);
  });
});
