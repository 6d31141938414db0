// The atoms a region search adds (src/diff/entries.ts activeEntries) by the leaf numbers each
// rule object keeps (src/diff/rule-keys.ts, semantics/program.ts leafNumber), against a table
// made here by each leaf's canonical key: over random lists, their edits (copies whose leaves are
// other objects with the same keys) and several searches over the same rule objects (as a plan
// makes them), the atoms are the same, in the same order, with the same first leaf and rules,
// and every rule's tree holds the atoms of its own leaves. The leaves of other objects found by
// an earlier number are counted, so the property cannot pass on fresh leaves alone.
import fc from 'fast-check';
import { AtomTable, type AtomTree } from '../../src/diff/atoms.js';
import { activeEntries } from '../../src/diff/entries.js';
import { leafKey } from '../../src/semantics/canonical.js';
import type { Leaf, NormalRule } from '../../src/semantics/model.js';
import { leafNumber } from '../../src/semantics/program.js';
import { editedList, ruleList } from './brute-force.js';

/** Per distinct leaf key, first seen walking each list's active rules (each rule object once): the first leaf and the rules' names. */
function atomsByKey(lists: readonly (readonly NormalRule[])[]): { leaf: Leaf; rules: string[] }[] {
  const atoms = new Map<string, { leaf: Leaf; rules: string[] }>();
  const seen = new Set<NormalRule>();
  for (const rule of lists.flat()) {
    if (rule.status !== 'active' || seen.has(rule)) continue;
    seen.add(rule);
    for (const leaf of rule.conditions.children.flatMap((group) => group.children)) {
      const atom = atoms.get(leafKey(leaf)) ?? { leaf, rules: [] };
      if (!atom.rules.includes(rule.name)) atom.rules.push(rule.name);
      atoms.set(leafKey(leaf), atom);
    }
  }
  return [...atoms.values()];
}

/** The groups as a set of (all or any, set of leaf keys): what conditionsKeyOf tells apart. */
function asSets(operators: readonly boolean[], groups: readonly (readonly string[])[]): string[] {
  return [...new Set(groups.map((keys, i) => JSON.stringify([operators[i], [...new Set(keys)].sort()])))].sort();
}

describe('the atoms of a search, by the leaf numbers of its rule objects', () => {
  it('are those of the leaves by their keys, search after search over the same rule objects', () => {
    let foundByNumber = 0;
    fc.assert(
      fc.property(ruleList(true, ['a', 'b', 'c', 'd', 'e']).chain((before) => fc.tuple(fc.constant(before), editedList(true)(before))), ([before, after]) => {
        // Rules of other names with the very same conditions: their leaves are added by number to the trees made for the first.
        const renamed = before.map((rule) => ({ ...rule, name: `${rule.name}2` }));
        for (const lists of [[before, after], [after, before], [after, renamed], [before]]) {
          const table = new AtomTable();
          const entries = activeEntries(lists, table, () => true);
          const expected = atomsByKey(lists);
          expect(table.atoms.map((atom) => ({ id: atom.id, key: leafKey(atom.leaf), rules: [...atom.rules] }))).toEqual(expected.map((atom, id) => ({ id, key: leafKey(atom.leaf), rules: atom.rules })));
          table.atoms.forEach((atom, id) => expect(atom.leaf).toBe(expected[id]?.leaf));
          // Rules whose conditions are equal as sets (another order, a leaf written twice) share one
          // tree (rule-keys.ts conditionsKeyOf): made from the leaves of one of them, as written.
          const madeAsWritten = new Map<number, boolean>();
          for (const entry of entries.entries) {
            const tree = entries.trees[entry.conditionsId] as AtomTree;
            const leaves = entry.rule.conditions.children.map((group) => group.children.map(leafKey));
            const inTree = tree.groups.map((group) => group.atoms.map((atom) => leafKey(atom.leaf)));
            expect(asSets(tree.groups.map((group) => group.all), inTree)).toEqual(asSets(entry.rule.conditions.children.map((group) => group.operator === '$and'), leaves));
            madeAsWritten.set(entry.conditionsId, (madeAsWritten.get(entry.conditionsId) ?? false) || JSON.stringify(inTree) === JSON.stringify(leaves));
            for (const leaf of entry.rule.conditions.children.flatMap((group) => group.children)) {
              expect(table.of(leaf)).toBe(table.atoms[expected.findIndex((atom) => leafKey(atom.leaf) === leafKey(leaf))]);
              if (table.of(leaf)?.leaf !== leaf) foundByNumber += 1;
            }
          }
          expect([...madeAsWritten].filter(([, asWritten]) => !asWritten)).toEqual([]);
        }
      }),
      { numRuns: 400 },
    );
    expect(foundByNumber).toBeGreaterThan(200);
  });

  it('are numbered alike exactly for leaves with equal keys', () => {
    // Written leaves whose keys are the same whatever order their fields were written in.
    const written: Leaf[] = [
      { conditionType: 'path', operator: '$startsWith', value: '/a' },
      { operator: '$startsWith', value: '/a', conditionType: 'path' },
      { fieldOption: 'x-key', operator: '$notExists', conditionType: 'header' },
      { conditionType: 'header', fieldOption: 'x-key', operator: '$notExists' },
    ];
    const leaves = [...written, ...fc.sample(ruleList(true), 40).flat().flatMap((rule) => rule.conditions.children.flatMap((group) => group.children))];
    const keys = leaves.map(leafKey);
    const numbers = leaves.map(leafNumber);
    let equal = 0;
    leaves.forEach((a, i) => {
      leaves.forEach((b, j) => {
        if ((numbers[i] === numbers[j]) !== (keys[i] === keys[j])) throw new Error(`${keys[i]} and ${keys[j]}: numbers ${numbers[i]} and ${numbers[j]}`);
        if (a !== b && numbers[i] === numbers[j]) equal += 1;
      });
    });
    expect(equal).toBeGreaterThan(20);
  });
});
