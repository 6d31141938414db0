// How a region search numbers its rules (src/diff/entries.ts activeEntries): two rule objects
// get one entry id exactly when their conditions and their outcomes have equal keys, and one
// conditions id exactly when their conditions do; each rule object's outcome is made once, so
// two searches over the same rule objects (the transition check makes a dozen on a large plan)
// share it. The runs where two different rule objects share an id are counted, so the property
// cannot pass on distinct rules alone.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { AtomTable } from '../../src/diff/atoms.js';
import { activeEntries, outcomeKey, ruleOutcome, ruleKeysOf } from '../../src/diff/entries.js';
import type { Action, Leaf, NormalRule } from '../../src/semantics/model.js';
import { normal } from '../helpers/rules.js';

const LEAVES: Leaf[] = [
  { conditionType: 'path', operator: '$startsWith', value: '/a' },
  { conditionType: 'country', operator: '$in', value: ['US', 'DE'] },
  { conditionType: 'header', fieldOption: 'x-key', operator: '$notExists' },
];
const ACTIONS: Action[][] = [['hardBlock'], ['allow'], ['blockWithChallenge', 'allow']];

const rule = fc.record({ leaf: fc.nat(LEAVES.length - 1), name: fc.constantFrom('one', 'two', 'three'), actions: fc.nat(ACTIONS.length - 1) }).map(({ leaf, name, actions }): NormalRule =>
  normal({ name, description: '', status: 'active', actions: [...(ACTIONS[actions] as Action[])], conditions: { operator: '$and', children: [{ operator: '$and', children: [{ ...(LEAVES[leaf] as Leaf) }] }] } }));

describe('the numbers a region search gives its rules', () => {
  it('one id exactly for equal conditions and outcomes, and one outcome object per rule object', () => {
    let shared = 0;
    fc.assert(
      fc.property(fc.array(rule, { minLength: 1, maxLength: 8 }), fc.array(rule, { maxLength: 4 }), (first, more) => {
        const lists = [first, [...more, ...first]];
        const numbered = activeEntries(lists, new AtomTable(), () => true);
        const again = activeEntries([first], new AtomTable(), () => true);
        const entries = numbered.entries;
        for (const a of entries) {
          expect(a.outcome).toEqual({ rule: a.rule.name, actions: a.rule.actions });
          expect(a.outcome).toBe(ruleOutcome(a.rule));
          expect(a.outcome.actions).not.toBe(a.rule.actions);
          for (const b of entries) {
            const sameConditions = ruleKeysOf(a.rule).conditions === ruleKeysOf(b.rule).conditions;
            expect(a.conditionsId === b.conditionsId).toBe(sameConditions);
            expect(a.id === b.id).toBe(sameConditions && outcomeKey(a.outcome) === outcomeKey(b.outcome));
            if (a !== b && a.id === b.id) shared += 1;
          }
        }
        // Another search over the same rule objects holds the very same outcomes.
        for (const entry of again.entries) expect(entries.find((known) => known.rule === entry.rule)?.outcome).toBe(entry.outcome);
      }),
      { numRuns: 300 },
    );
    expect(shared).toBeGreaterThan(50);
  });
});
