// The shortcut of the region search (src/diff/rule-above.ts) against brute force:
// over random rule lists whose trees must not match, random literals a state requires under
// which none of them is true yet, and the literals of a way of the next rule pushed after, the
// trees watching a true atom (src/diff/atoms.ts trueAtoms, src/diff/tree-stack.ts someHolding)
// name a tree true under the literals exactly when a scan of the whole stack finds one, and
// every request of the brute-force domain that meets the literals matches the tree named, so none
// reaches the rule below. Claims are counted, so the property cannot pass without them.
import fc from 'fast-check';
import { conditionsVerdict } from '../../src/evaluate/evaluate.js';
import { leafVerdict } from '../../src/evaluate/leaf.js';
import type { Conditions, Leaf } from '../../src/semantics/model.js';
import { Assignment, AtomTable } from '../../src/diff/atoms.js';
import { waysOf } from '../../src/diff/set-walk.js';
import { TreeStack } from '../../src/diff/tree-stack.js';
import { domain, ruleList } from './brute-force.js';

describe('a rule above that every request of a way matches', () => {
  it('is named only when every request meeting the literals matches it, and whenever a scan finds one', () => {
    let claims = 0;
    let states = 0;
    fc.assert(
      fc.property(ruleList(true, ['a', 'b', 'c', 'd', 'e', 'f']), fc.nat(), fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 3 }), fc.boolean(), (rules, wayPick, extra, ignoreCase) => {
        fc.pre(rules.length >= 2 && domain([rules]).length <= 5000);
        const options = { caseInsensitiveValues: ignoreCase };
        const table = new AtomTable();
        for (const rule of rules) for (const group of rule.conditions.children) for (const leaf of group.children) table.add(leaf, rule.name);
        const assignment = new Assignment(table, options);
        const stack = new TreeStack((leaf) => table.of(leaf)?.id, table.atoms);
        const above = rules.slice(0, -1).map((rule) => rule.conditions);
        for (const tree of above) stack.push(tree);
        // What a state requires: a few literals, then the leaves of one way of the last rule, each pushed while undecided (as the search does).
        const leaves: Leaf[] = rules.flatMap((rule) => rule.conditions.children.flatMap((group) => group.children));
        const ways = waysOf((rules[rules.length - 1] as (typeof rules)[number]).conditions) ?? [];
        const push = (literals: readonly (readonly [Leaf, boolean])[]): void => {
          for (const [leaf, holds] of literals) {
            const atom = table.of(leaf);
            if (atom !== undefined && assignment.truthOf(atom) === 'undecided') assignment.push(atom, holds);
          }
        };
        push(extra.map(([at, holds]) => [leaves[at % leaves.length] as Leaf, holds] as const));
        // The search's state: its request meets the literals and matches no tree above, so none is true under them.
        if (above.some((tree) => assignment.conditionsTruth(tree) === true)) return;
        push((ways[wayPick % Math.max(1, ways.length)] ?? []).map((leaf) => [leaf, true] as const));
        states += 1;
        let named = -1;
        const found = stack.someHolding(assignment.trueAtoms((field) => stack.watchedOf(field)), (at) => {
          const implied = assignment.conditionsTruth(stack.list[at] as Conditions) === true;
          if (implied) named = at;
          return implied;
        });
        const scanned = above.some((tree) => assignment.conditionsTruth(tree) === true);
        expect({ found, scanned }).toEqual({ found: scanned, scanned });
        if (!found) return;
        const meets = assignment.literals();
        const meeting = domain([rules]).filter((request) => meets.every(({ atom, holds }) => leafVerdict(atom.leaf, request, options) === holds));
        claims += 1;
        for (const request of meeting) expect({ request, matches: conditionsVerdict(above[named] as Conditions, request, options) }).toEqual({ request, matches: true });
      }),
      { numRuns: 1500 },
    );
    expect(claims).toBeGreaterThan(states / 20);
  });
});
