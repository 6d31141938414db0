// The signatures of a partial assignment (src/diff/atoms.ts): equal for equal sequences of
// literals, whatever was pushed and undone before, and different for different ones, so that
// the model search (src/diff/model.ts) may remember its answers by them.
import { Assignment, AtomTable, type Atom } from '../../src/diff/atoms.js';
import type { Leaf } from '../../src/semantics/model.js';

const leaf = (value: string): Leaf => ({ conditionType: 'path', operator: '$startsWith', value });

function fixture(): { assignment: Assignment; atoms: [Atom, Atom, Atom] } {
  const table = new AtomTable();
  const atoms = ['/a', '/b', '/c'].map((value) => table.add(leaf(value), 'rule')) as [Atom, Atom, Atom];
  return { assignment: new Assignment(table, {}), atoms };
}

describe('Assignment signatures', () => {
  it('gives a field whose literals were all undone the empty signature again', () => {
    const { assignment, atoms } = fixture();
    const [a, b] = atoms;
    assignment.push(a, true);
    const pushedOnce = assignment.fieldSignature(a.field);
    assignment.popTo(0);
    expect(assignment.fieldSignature(a.field)).toBe(0);
    assignment.push(a, true);
    expect(assignment.fieldSignature(a.field)).toBe(pushedOnce);
    assignment.push(b, false);
    const both = assignment.signature;
    assignment.popTo(0);
    assignment.push(a, true);
    assignment.push(b, false);
    expect(assignment.signature).toBe(both);
  });

  it('tells apart sequences that differ in an atom or in a truth value', () => {
    const { assignment, atoms } = fixture();
    const [a, b, c] = atoms;
    const seen = new Set<number>();
    for (const [first, second] of [[a, b], [a, c], [b, a], [c, a]] as const) {
      for (const holds of [true, false]) {
        assignment.push(first, holds);
        seen.add(assignment.signature);
        assignment.push(second, !holds);
        seen.add(assignment.signature);
        assignment.popTo(0);
      }
    }
    // a+, a-, b+, b-, c+, c- alone and the eight pairs: fourteen sequences.
    expect(seen.size).toBe(14);
  });
});
