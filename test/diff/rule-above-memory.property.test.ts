// The rule-above check (src/diff/rule-above.ts) against a scan of the whole stack, with its
// memory kept over many states: over random rule lists, each state puts some of the rules above
// on the stack (in any order, some twice), requires a few literals under which none of them is
// true, then pushes the literals of a way of the last rule. Its answer must be the scan's in
// every state, also when the tree it found for the way before is no longer on the stack, or no
// longer true. Answers the memory gave are counted, so the property cannot pass without them.
import fc from 'fast-check';
import type { Leaf } from '../../src/semantics/model.js';
import { Assignment, AtomTable, atomTree, type AtomTree } from '../../src/diff/atoms.js';
import { AtomWays } from '../../src/diff/set-walk.js';
import { TreeStack } from '../../src/diff/tree-stack.js';
import { RuleAbove } from '../../src/diff/rule-above.js';
import { ruleList } from './brute-force.js';

const state = fc.record({
  stacked: fc.array(fc.nat(), { maxLength: 6 }),
  extra: fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 3 }),
  wayPick: fc.nat(),
});

describe('the rule-above check with the tree it found for each way remembered', () => {
  it('answers as a scan of the stack in every state', () => {
    let remembered = 0;
    let states = 0;
    fc.assert(
      fc.property(ruleList(false, ['a', 'b', 'c', 'd', 'e', 'f']), fc.array(state, { minLength: 2, maxLength: 12 }), (rules, walk) => {
        fc.pre(rules.length >= 2);
        const table = new AtomTable();
        const trees: AtomTree[] = rules.map((rule) => atomTree(rule.conditions, table, rule.name));
        const assignment = new Assignment(table, {});
        const stack = new TreeStack((leaf) => table.of(leaf)?.id, table.atoms);
        const conditionsIds: number[] = [];
        const notMatching = new Map<number, number>();
        const check = new RuleAbove(stack, assignment, trees, conditionsIds, notMatching);
        const ways = new AtomWays(table);
        // The asks that reach the stack's index: one the check answers without is the memory's.
        let indexAsks = 0;
        const someHolding = stack.someHolding.bind(stack);
        stack.someHolding = (atoms, implied) => {
          indexAsks += 1;
          return someHolding(atoms, implied);
        };
        const last = rules[rules.length - 1] as (typeof rules)[number];
        const leaves: Leaf[] = rules.flatMap((rule) => rule.conditions.children.flatMap((group) => group.children));
        const pushAtoms = (literals: readonly (readonly [Leaf, boolean])[]): void => {
          for (const [leaf, holds] of literals) {
            const atom = table.of(leaf);
            if (atom !== undefined && assignment.truthOf(atom) === 'undecided') assignment.push(atom, holds);
          }
        };
        for (const { stacked, extra, wayPick } of walk) {
          for (const pick of stacked) {
            const id = pick % (rules.length - 1);
            stack.push((rules[id] as (typeof rules)[number]).conditions);
            conditionsIds.push(id);
            notMatching.set(id, (notMatching.get(id) ?? 0) + 1);
          }
          pushAtoms(extra.map(([at, holds]) => [leaves[at % leaves.length] as Leaf, holds] as const));
          const scan = (): boolean => conditionsIds.some((id) => assignment.treeTruth(trees[id] as AtomTree) === true);
          // The search's state: its request meets the literals and matches no tree of the stack.
          const way = ways.of(last.conditions)?.[wayPick % Math.max(1, ways.of(last.conditions)?.length ?? 1)];
          if (!scan() && way !== undefined && way.every((atom) => atom !== undefined)) {
            for (const atom of way) if (atom !== undefined && assignment.truthOf(atom) === 'undecided') assignment.push(atom, true);
            states += 1;
            const asksBefore = indexAsks;
            const answer = check.matches(way);
            if (indexAsks === asksBefore) remembered += 1;
            expect({ answer, stack: [...conditionsIds] }).toEqual({ answer: scan(), stack: [...conditionsIds] });
          }
          assignment.popTo(0);
          while (stack.length > 0) {
            stack.pop();
            const id = conditionsIds.pop() as number;
            const count = (notMatching.get(id) as number) - 1;
            if (count === 0) notMatching.delete(id);
            else notMatching.set(id, count);
          }
        }
      }),
      { numRuns: 1500 },
    );
    expect(states).toBeGreaterThan(1000);
    expect(remembered).toBeGreaterThan(50);
  });
});
