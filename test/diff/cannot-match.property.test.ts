// What the region search passes without a split when one list is left undecided
// (src/diff/literal-pairs.ts cannotMatch, src/diff/regions.ts settle), against brute force: over
// random rule lists and random literals a state requires, a tree said to be matched by no request
// meeting the literals is matched by none of the brute-force domain. And the truths the
// assignment remembers by fixed values (src/diff/atoms.ts truthOf) are those of an assignment
// holding the same literals without that memory, after literals are undone and others pushed.
// Claims are counted, so neither property can pass without them.
import fc from 'fast-check';
import { conditionsVerdict } from '../../src/evaluate/evaluate.js';
import { leafVerdict } from '../../src/evaluate/leaf.js';
import type { Leaf } from '../../src/semantics/model.js';
import { Assignment, AtomTable, atomTree } from '../../src/diff/atoms.js';
import { cannotMatch } from '../../src/diff/literal-pairs.js';
import { domain, ruleList } from './brute-force.js';

const literals = fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 4 });

describe('a tree no request of a state matches', () => {
  it('is matched by no request meeting the literals', () => {
    let claims = 0;
    let trees = 0;
    fc.assert(
      fc.property(ruleList(true, ['a', 'b', 'c', 'd', 'e', 'f']), literals, fc.boolean(), (rules, picked, ignoreCase) => {
        fc.pre(domain([rules]).length <= 5000);
        const options = { caseInsensitiveValues: ignoreCase };
        const table = new AtomTable();
        const atomTrees = rules.map((rule) => atomTree(rule.conditions, table, rule.name));
        const assignment = new Assignment(table, options);
        const leaves: Leaf[] = rules.flatMap((rule) => rule.conditions.children.flatMap((group) => group.children));
        for (const [at, holds] of picked) {
          const atom = table.of(leaves[at % Math.max(1, leaves.length)] as Leaf);
          if (atom !== undefined && assignment.truthOf(atom) === 'undecided') assignment.push(atom, holds);
        }
        const meets = assignment.literals();
        const meeting = domain([rules]).filter((request) => meets.every(({ atom, holds }) => leafVerdict(atom.leaf, request, options) === holds));
        rules.forEach((rule, i) => {
          trees += 1;
          if (!cannotMatch(atomTrees[i] as (typeof atomTrees)[number], assignment, options)) return;
          claims += 1;
          for (const request of meeting) expect({ rule: rule.name, request, matches: conditionsVerdict(rule.conditions, request, options) }).toEqual({ rule: rule.name, request, matches: false });
        });
      }),
      { numRuns: 1500 },
    );
    expect(claims).toBeGreaterThan(trees / 10);
  });

  it('is told by truths remembered by fixed values that an assignment without that memory gives', () => {
    let fixedAsked = 0;
    fc.assert(
      fc.property(ruleList(true, ['a', 'b', 'c', 'd', 'e']), literals, fc.nat(4), literals, fc.boolean(), (rules, first, keep, second, ignoreCase) => {
        const options = { caseInsensitiveValues: ignoreCase };
        const table = new AtomTable();
        for (const rule of rules) atomTree(rule.conditions, table, rule.name);
        const assignment = new Assignment(table, options);
        const push = (picked: readonly [number, boolean][]): void => {
          for (const [at, holds] of picked) {
            const atom = table.atoms[at % Math.max(1, table.atoms.length)];
            if (atom !== undefined && assignment.truthOf(atom) === 'undecided') assignment.push(atom, holds);
          }
        };
        // Every truth asked (and remembered) after the first literals, some undone, others pushed.
        push(first);
        for (const atom of table.atoms) assignment.truthOf(atom);
        assignment.popTo(Math.min(keep, assignment.size));
        for (const atom of table.atoms) assignment.truthOf(atom);
        push(second);
        const fresh = new Assignment(table, options);
        for (const { atom, holds } of assignment.literals()) fresh.push(atom, holds);
        for (const atom of table.atoms) {
          expect({ atom: atom.id, truth: assignment.truthOf(atom) }).toEqual({ atom: atom.id, truth: fresh.truthOf(atom) });
          if (assignment.fixedValue(atom.field) !== undefined && assignment.literals().every((literal) => literal.atom !== atom)) fixedAsked += 1;
        }
      }),
      { numRuns: 1500 },
    );
    expect(fixedAsked).toBeGreaterThan(500);
  });
});
