// Why a witness search (model.ts) found no request, as the atoms whose literals leave none: a
// field's literals that no value meets, or the literals that make a "must not match" tree true.
// The search jumps back over an atom such a reason does not name: its other truth value cannot
// help (conflict-directed backjumping, as SAT solvers do; docs/behaviour.md, "Exhaustive
// behaviour diff").
import type { Assignment, AtomGroup, AtomTree } from './atoms.js';

/** The atoms whose literals make `tree` true under the assignment. */
export function blamedFor(tree: AtomTree, assignment: Assignment): Set<number> {
  const blamed = new Set<number>();
  for (const group of tree.groups) {
    if (tree.all) blameGroup(group, assignment, blamed);
    // Of a root `$or`, its first true group's only: the others may be false for reasons the other
    // truth value of an atom split on changes, and blaming them would keep that value from being skipped.
    else if (assignment.groupTruth(group) === true) return blameGroup(group, assignment, blamed);
  }
  return blamed;
}

/** Adds the atoms whose literals make a true group true: all of an `$and`'s, the first true leaf's of an `$or`. */
function blameGroup(group: AtomGroup, assignment: Assignment, blamed: Set<number>): Set<number> {
  for (const atom of group.atoms) {
    if (group.all) blamed.add(assignment.decidedBy(atom));
    else if (assignment.truthOf(atom) === true) return blamed.add(assignment.decidedBy(atom));
  }
  return blamed;
}
