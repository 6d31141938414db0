// A condition tree's key (src/diff/entries.ts conditionsKeyOf), made of its groups' keys, is
// equal exactly when the canonical forms are (src/semantics/canonical.ts): the same operator
// and the same set of groups, each the same set of leaves, however they are ordered or repeated.
// The runs where the keys are equal are counted, so the property cannot pass on unequal pairs
// alone; trees that differ in their operator alone are among the others.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { conditionsKeyOf } from '../../src/diff/entries.js';
import { canonicalConditions } from '../../src/semantics/canonical.js';
import type { Conditions, Group, Leaf } from '../../src/semantics/model.js';

const leaf: fc.Arbitrary<Leaf> = fc.oneof(
  fc.constantFrom('a.example', 'b.example').map((value): Leaf => ({ conditionType: 'domain', operator: '$eq', value })),
  fc.constantFrom('/a', '/b').map((value): Leaf => ({ conditionType: 'path', operator: '$startsWith', value })),
  fc.subarray(['US', 'DE', 'FR'], { minLength: 1 }).map((value): Leaf => ({ conditionType: 'country', operator: '$in', value })),
  fc.constant<Leaf>({ conditionType: 'header', fieldOption: 'x-key', operator: '$notExists' }),
);
const group: fc.Arbitrary<Group> = fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(leaf, { minLength: 1, maxLength: 2 }) });
const conditions: fc.Arbitrary<Conditions> = fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(group, { minLength: 1, maxLength: 3 }) });

/** The same tree written otherwise: groups and leaves in another order, a group repeated (fresh objects). */
function rewritten(tree: Conditions, repeat: boolean): Conditions {
  const groups = tree.children.map((one): Group => ({ operator: one.operator, children: [...one.children].reverse().map((l) => ({ ...l })) })).reverse();
  return { operator: tree.operator, children: repeat ? [...groups, { ...(groups[0] as Group) }] : groups };
}

describe('condition keys made of group keys', () => {
  it('equal exactly when the canonical forms are', () => {
    let equal = 0;
    let runs = 0;
    fc.assert(
      fc.property(conditions, conditions, fc.constantFrom('rewritten', 'other', 'other operator'), fc.boolean(), (a, other, how, repeat) => {
        const flipped: Conditions = { operator: a.operator === '$and' ? '$or' : '$and', children: a.children };
        const b = how === 'rewritten' ? rewritten(a, repeat) : how === 'other' ? other : flipped;
        const canonicalEqual = JSON.stringify(canonicalConditions(a)) === JSON.stringify(canonicalConditions(b));
        runs += 1;
        if (canonicalEqual) equal += 1;
        expect(conditionsKeyOf(a) === conditionsKeyOf(b)).toBe(canonicalEqual);
      }),
      { numRuns: 600 },
    );
    expect(equal).toBeGreaterThan(runs / 5);
    expect(runs - equal).toBeGreaterThan(runs / 3);
  });
});
