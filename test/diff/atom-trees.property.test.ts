// A condition tree by its atoms (src/diff/atoms.ts, made once per distinct conditions by
// src/diff/entries.ts) against the truth the tree's own leaves give (conditionsTruth): over
// random lists and their edits (copies whose equal conditions share one tree) and random
// literals pushed as the search pushes them, every rule's tree gives the same three-valued
// truth. Each verdict is counted, so the property cannot pass without reaching all three.
import fc from 'fast-check';
import { Assignment, AtomTable } from '../../src/diff/atoms.js';
import { activeEntries, type Entry } from '../../src/diff/entries.js';
import type { AtomTree } from '../../src/diff/atoms.js';
import { differ, editedList, ruleList } from './brute-force.js';

describe('a tree by its atoms', () => {
  it('has the truth its leaves give under every assignment, for every rule sharing it', () => {
    const seen = { true: 0, false: 0, undecided: 0 };
    let shared = 0;
    fc.assert(
      fc.property(
        ruleList(true, ['a', 'b', 'c', 'd', 'e']).chain((before) => fc.tuple(fc.constant(before), editedList(true)(before))),
        fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 6 }),
        fc.boolean(),
        ([before, after], literals, ignoreCase) => {
          const table = new AtomTable();
          const entries = activeEntries([before, after], table, differ);
          const assignment = new Assignment(table, { caseInsensitiveValues: ignoreCase });
          for (const [at, holds] of literals) {
            const atom = table.atoms[at % Math.max(1, table.atoms.length)];
            if (atom !== undefined && assignment.truthOf(atom) === 'undecided') assignment.push(atom, holds);
          }
          const objects = new Map<number, unknown>();
          for (const entry of entries.lists.flatMap((numbers) => Array.from(numbers, (n) => entries.entries[n] as Entry))) {
            const truth = assignment.treeTruth(entries.trees[entry.conditionsId] as AtomTree);
            expect({ rule: entry.rule.name, truth }).toEqual({ rule: entry.rule.name, truth: assignment.conditionsTruth(entry.rule.conditions) });
            seen[String(truth) as keyof typeof seen] += 1;
            const first = objects.get(entry.conditionsId);
            if (first !== undefined && first !== entry.rule.conditions) shared += 1;
            objects.set(entry.conditionsId, entry.rule.conditions);
          }
        },
      ),
      { numRuns: 600 },
    );
    expect(seen.true).toBeGreaterThan(100);
    expect(seen.false).toBeGreaterThan(100);
    expect(seen.undecided).toBeGreaterThan(100);
    // Edited copies hold equal conditions in other objects: their truth comes from the first's tree.
    expect(shared).toBeGreaterThan(100);
  });
});
