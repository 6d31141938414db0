// A rule read from a file is a copy of what the normaliser returns, its strings shared with the
// other rules read (src/rules/shared-strings.ts). The copy must equal the structuredClone that
// read the rules before: same keys in the same order (undefined values kept), same values.
import fc from 'fast-check';
import { SharedStrings, withSharedStrings } from '../../src/rules/shared-strings.js';

/** Values as a normalised rule holds them, with few distinct strings so that they repeat. */
const few = fc.constantFrom('$and', '$or', 'path', 'GET', 'hardBlock', '', 'déjà vu', '\ud800');
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, few, few, fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined), tie('array'), tie('object')),
  array: fc.array(tie('node'), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(few, fc.string()), tie('node'), { maxKeys: 5 }),
})).object;

const stringsIn = (v: unknown): string[] => {
  if (typeof v === 'string') return [v];
  if (typeof v !== 'object' || v === null) return [];
  return (Array.isArray(v) ? v : Object.values(v)).flatMap(stringsIn);
};

describe('rules with shared strings', () => {
  it('are the copies structuredClone made, one table across many rules', () => {
    let repeated = 0;
    fc.assert(
      fc.property(fc.array(value, { minLength: 2, maxLength: 6 }), (rules) => {
        const strings = new SharedStrings();
        const copies = rules.map((rule) => withSharedStrings(rule, strings));
        copies.forEach((copy, i) => {
          expect(copy).toStrictEqual(structuredClone(rules[i]));
          // Keys in the same order.
          expect(JSON.stringify(copy)).toBe(JSON.stringify(rules[i]));
          expect(copy).not.toBe(rules[i]);
        });
        const all = rules.flatMap(stringsIn);
        // A string seen before is answered from the table: the case the sharing is for.
        if (new Set(all).size < all.length) repeated += 1;
      }),
      { numRuns: 500 },
    );
    expect(repeated).toBeGreaterThan(150);
  });

  it('copies what is not a plain object or array as structuredClone does', () => {
    const when = new Date('2026-01-31T09:30:00.000Z');
    const copy = withSharedStrings({ when, list: [when] }, new SharedStrings());
    expect(copy).toStrictEqual({ when, list: [when] });
    expect(copy.when).not.toBe(when);
  });
});
