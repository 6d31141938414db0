// What two property tests of the region search's checks share (rule-above-memory, refutations):
// random states over a random rule list, each putting some of the rules above the last on the
// stack of trees no request may match (in any order, some twice) and requiring a few literals,
// then asking about a way of the last rule.
import fc from 'fast-check';
import { Assignment, AtomTable, atomTree, type AtomTree } from '../../src/diff/atoms.js';
import { AtomWays } from '../../src/diff/set-walk.js';
import { TreeStack } from '../../src/diff/tree-stack.js';
import type { Leaf, NormalRule } from '../../src/semantics/model.js';
import { ruleList } from './brute-force.js';

/** One state: the rules above put on the stack, extra literals (leaf index, truth), the way of the last rule asked about. */
export const stackState = fc.record({
  stacked: fc.array(fc.nat(), { maxLength: 6 }),
  extra: fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 3 }),
  wayPick: fc.nat(),
});

/** A rule list and the states walked over it. */
export const stackWalks = fc.tuple(ruleList(false, ['a', 'b', 'c', 'd', 'e', 'f']), fc.array(stackState, { minLength: 2, maxLength: 12 }));

/** A rule list's atoms, trees, assignment and stack, with the conditions ids on the stack counted. */
export class StackWalk {
  readonly table = new AtomTable();
  readonly trees: AtomTree[];
  // Made once every leaf is in the table (by the trees): they size themselves by its atoms.
  readonly assignment: Assignment;
  readonly stack: TreeStack;
  readonly ways: AtomWays;
  /** Per position of the stack: the conditions id (the rule's index) of its tree. */
  readonly conditionsIds: number[] = [];
  /** Per conditions id on the stack: how many times (none kept at 0). */
  readonly onStack = new Map<number, number>();
  readonly last: NormalRule;
  readonly leaves: Leaf[];

  constructor(readonly rules: readonly NormalRule[]) {
    this.trees = rules.map((rule) => atomTree(rule.conditions, this.table, rule.name));
    this.assignment = new Assignment(this.table, {});
    this.stack = new TreeStack((leaf) => this.table.of(leaf)?.id, this.table.atoms);
    this.ways = new AtomWays(this.table);
    this.last = rules[rules.length - 1] as NormalRule;
    this.leaves = rules.flatMap((rule) => rule.conditions.children.flatMap((group) => group.children));
  }

  /** Puts the picked rules above the last on the stack. */
  push(stacked: readonly number[]): void {
    for (const pick of stacked) {
      const id = pick % (this.rules.length - 1);
      // With its tree by atoms, as the search pushes it: its watches are found from its atoms.
      this.stack.push((this.rules[id] as NormalRule).conditions, this.trees[id]);
      this.conditionsIds.push(id);
      this.onStack.set(id, (this.onStack.get(id) ?? 0) + 1);
    }
  }

  /** Requires the picked literals whose atoms have no truth yet. */
  require(extra: readonly (readonly [number, boolean])[]): void {
    for (const [at, holds] of extra) {
      const atom = this.table.of(this.leaves[at % this.leaves.length] as Leaf);
      if (atom !== undefined && this.assignment.truthOf(atom) === 'undecided') this.assignment.push(atom, holds);
    }
  }

  /** Empties the assignment and the stack. */
  clear(): void {
    this.assignment.popTo(0);
    while (this.stack.length > 0) {
      this.stack.pop();
      const id = this.conditionsIds.pop() as number;
      const count = (this.onStack.get(id) as number) - 1;
      if (count === 0) this.onStack.delete(id);
      else this.onStack.set(id, count);
    }
  }
}
