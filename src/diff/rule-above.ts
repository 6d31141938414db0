// The region search's check, before a witness search for a way of a rule, of a rule above that
// every request of the way matches (regions.ts splitOnMatch; docs/behaviour.md, "Safe
// transitions", in proportion to the change): one of the trees no request of the state may match
// is true under the assignment alone. On the `apis` shape of the plan benchmark nine asks in ten
// find one, most often the same tree for the same way in every state the way is tried (its own
// literals imply an earlier rule's group): that tree is asked first, by its conditions id.
import type { Assignment, Atom, AtomTree } from './atoms.js';
import type { TreeStack } from './tree-stack.js';

export class RuleAbove {
  /** Per way (the list AtomWays keeps for it): the conditions id of the tree found true when last asked. */
  private readonly lastFound = new Map<readonly (Atom | undefined)[], number>();

  /**
   * `conditionsIds`: the conditions id of each tree of `trees`, by position; `notMatching`: whether
   * a conditions id is on the stack (regions.ts keeps both).
   */
  constructor(
    private readonly trees: TreeStack,
    private readonly assignment: Assignment,
    private readonly atomTrees: readonly AtomTree[],
    private readonly conditionsIds: readonly number[],
    private readonly notMatching: Pick<ReadonlyMap<number, number>, 'has'>,
  ) {}

  /**
   * Whether a tree of the stack is true under the assignment, the last literals pushed being those
   * of `way`. Only the trees watching a true atom are asked (tree-stack.ts someHolding), after the
   * one found for the way last time if it is on the stack: the answer is the same whichever tree
   * is found first.
   */
  matches(way: readonly (Atom | undefined)[]): boolean {
    const assignment = this.assignment;
    const last = this.lastFound.get(way);
    if (last !== undefined && this.notMatching.has(last) && assignment.treeTruth(this.atomTrees[last] as AtomTree) === true) return true;
    let found = -1;
    const holds = this.trees.someHolding(assignment.trueAtoms((field) => this.trees.watchedOf(field)), (at) => {
      const id = this.conditionsIds[at] as number;
      if (assignment.treeTruth(this.atomTrees[id] as AtomTree) !== true) return false;
      found = id;
      return true;
    });
    if (holds) this.lastFound.set(way, found);
    return holds;
  }
}
