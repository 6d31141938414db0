// The shortcut of the region search (src/diff/regions.ts, ruleAboveMatches) against brute force:
// over random rule lists whose trees must not match and random literals a state requires (a way
// of the next rule among them), whenever the guarded stack (src/diff/tree-stack.ts, someImplied)
// names a tree true under the literals alone, every request of the brute-force domain that meets
// the literals matches that tree, so none reaches the rule below. It must also find every such
// tree a scan of the whole stack finds. Claims are counted, so the property cannot pass without them.
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
        const stack = new TreeStack((leaf) => table.of(leaf)?.id);
        const above = rules.slice(0, -1).map((rule) => rule.conditions);
        for (const tree of above) stack.push(tree);
        // What a state requires: a few literals, then the leaves of one way of the last rule, each pushed while undecided (as the search does).
        const leaves: Leaf[] = rules.flatMap((rule) => rule.conditions.children.flatMap((group) => group.children));
        const ways = waysOf((rules[rules.length - 1] as (typeof rules)[number]).conditions) ?? [];
        const literals: [Leaf, boolean][] = [...extra.map(([at, holds]): [Leaf, boolean] => [leaves[at % leaves.length] as Leaf, holds]), ...(ways[wayPick % Math.max(1, ways.length)] ?? []).map((leaf): [Leaf, boolean] => [leaf, true])];
        for (const [leaf, holds] of literals) {
          const atom = table.of(leaf);
          if (atom !== undefined && assignment.truthOf(atom) === 'undecided') assignment.push(atom, holds);
        }
        states += 1;
        const trueAtoms = (field: string): number[] => assignment.fieldLiterals(field).flatMap(({ atom, holds }) => (holds ? [atom.id] : []));
        let named = -1;
        const found = stack.someImplied(assignment.fields(), (field) => assignment.fixedValue(field), trueAtoms, (at) => {
          const implied = assignment.conditionsTruth(stack.list[at] as Conditions) === true;
          if (implied) named = at;
          return implied;
        });
        const meets = assignment.literals();
        const meeting = domain([rules]).filter((request) => meets.every(({ atom, holds }) => leafVerdict(atom.leaf, request, options) === holds));
        // Complete where some request meets the literals (a contradictory state has no request to lose).
        const scanned = above.some((tree) => assignment.conditionsTruth(tree) === true);
        if (meeting.length > 0) expect({ found, scanned }).toEqual({ found: scanned, scanned });
        if (!found) return;
        claims += 1;
        for (const request of meeting) expect({ request, matches: conditionsVerdict(above[named] as Conditions, request, options) }).toEqual({ request, matches: true });
      }),
      { numRuns: 1500 },
    );
    expect(claims).toBeGreaterThan(states / 20);
  });
});
