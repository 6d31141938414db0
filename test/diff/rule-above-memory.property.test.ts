// The rule-above check (src/diff/rule-above.ts) against a scan of the whole stack, with its
// memory kept over many states: over random rule lists, each state puts some of the rules above
// on the stack (in any order, some twice), requires a few literals under which none of them is
// true, then pushes the literals of a way of the last rule. Its answer must be the scan's in
// every state, also when the tree it found for the way before is no longer on the stack, or no
// longer true. Answers the memory gave are counted, so the property cannot pass without them.
import fc from 'fast-check';
import type { AtomTree } from '../../src/diff/atoms.js';
import { RuleAbove } from '../../src/diff/rule-above.js';
import { StackWalk, stackWalks } from './stack-walk.js';

describe('the rule-above check with the tree it found for each way remembered', () => {
  it('answers as a scan of the stack in every state', () => {
    let remembered = 0;
    let states = 0;
    fc.assert(
      fc.property(stackWalks, ([rules, walk]) => {
        fc.pre(rules.length >= 2);
        const fixture = new StackWalk(rules);
        const { trees, assignment, stack, conditionsIds, ways, last } = fixture;
        const check = new RuleAbove(stack, assignment, trees, conditionsIds, fixture.onStack);
        // The asks that reach the stack's index: one the check answers without is the memory's.
        let indexAsks = 0;
        const someHolding = stack.someHolding.bind(stack);
        stack.someHolding = (atoms, implied) => {
          indexAsks += 1;
          return someHolding(atoms, implied);
        };
        for (const { stacked, extra, wayPick } of walk) {
          fixture.push(stacked);
          fixture.require(extra);
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
          fixture.clear();
        }
      }),
      { numRuns: 1500 },
    );
    expect(states).toBeGreaterThan(1000);
    expect(remembered).toBeGreaterThan(50);
  });
});
