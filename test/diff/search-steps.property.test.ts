// The witness search's per-step shortcuts (src/diff/) against what they replace: a condition
// tree's verdict from its leaves compiled once (tree-verdicts.ts) is conditionsVerdict's for
// every request of the brute-force domain; a tree's truth under an assignment from its atoms
// looked up once (atoms.ts) is combine() over leafTruth; a pattern's examples remembered are the
// examples read afresh; the rules an unknown answer names, read lazily, are every rule of its
// literals' leaves once, in order. Each property counts how often it reaches its assertion and
// how often each answer came up, so none passes without comparing.
import fc from 'fast-check';
import { combine, conditionsVerdict } from '../../src/evaluate/evaluate.js';
import type { Verdict } from '../../src/evaluate/leaf.js';
import type { Conditions } from '../../src/semantics/model.js';
import { Assignment, AtomTable, type Literal } from '../../src/diff/atoms.js';
import { activeEntries } from '../../src/diff/entries.js';
import { namedRules } from '../../src/diff/model.js';
import { patternExamples, readExamples } from '../../src/diff/pattern-examples.js';
import { treeVerdict } from '../../src/diff/tree-verdicts.js';
import { differ, domain, editedList, ruleList } from './brute-force.js';

const pairs = ruleList(true, ['a', 'b', 'c', 'd', 'e']).chain((before) => fc.tuple(fc.constant(before), editedList(true)(before)));
const trees = (sets: readonly { conditions: Conditions }[][]): Conditions[] => sets.flatMap((rules) => rules.map((rule) => rule.conditions));

describe('the witness search per step', () => {
  it('a tree compiled once gives conditionsVerdict on every request of the domain', () => {
    const seen = new Map<Verdict, number>();
    fc.assert(
      fc.property(pairs, fc.boolean(), ([before, after], ignoreCase) => {
        const requests = domain([before, after]);
        fc.pre(requests.length <= 2000);
        const options = { caseInsensitiveValues: ignoreCase };
        for (const conditions of trees([before, after])) {
          for (const request of requests) {
            const expected = conditionsVerdict(conditions, request, options);
            const verdict = treeVerdict(conditions, request, options);
            // The whole case only when they differ: a deep comparison per request would be most of the test's time.
            if (verdict !== expected) expect({ conditions, request, verdict }).toEqual({ conditions, request, verdict: expected });
            seen.set(expected, (seen.get(expected) ?? 0) + 1);
          }
        }
      }),
      { numRuns: 100 },
    );
    expect(seen.get(true)).toBeGreaterThan(5_000);
    expect(seen.get(false)).toBeGreaterThan(5_000);
  });

  it("a tree's truth under an assignment is combine() over the truths of its leaves", () => {
    const seen = new Map<Verdict, number>();
    fc.assert(
      fc.property(pairs, fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 6 }), ([before, after], pushes) => {
        const table = new AtomTable();
        activeEntries([before, after], table, differ);
        const assignment = new Assignment(table, {});
        for (const [at, holds] of pushes) {
          const atom = table.atoms[at % table.atoms.length];
          if (atom === undefined || assignment.truthOf(atom) !== 'undecided') continue;
          assignment.push(atom, holds);
          for (const conditions of trees([before, after])) {
            const expected = combine(conditions.operator, conditions.children, (group) => combine(group.operator, group.children, (leaf) => assignment.leafTruth(leaf)));
            expect({ conditions, truth: assignment.conditionsTruth(conditions) }).toEqual({ conditions, truth: expected });
            seen.set(expected, (seen.get(expected) ?? 0) + 1);
          }
        }
      }),
      { numRuns: 300 },
    );
    for (const truth of [true, false, 'undecided'] as const) expect(seen.get(truth)).toBeGreaterThan(300);
  });

  it("a pattern's examples remembered are the examples read afresh", () => {
    let compared = 0;
    let withExamples = 0;
    const piece = fc.constantFrom('a', 'b', '.', '\\d', '[a-c]', '[^x]', '(', ')', '|', '*', '+', '?', '{2}', '{1,3}', '^', '$', '(?:', '(?=', '\\1');
    fc.assert(
      fc.property(fc.array(fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('')), { minLength: 1, maxLength: 6 }), (sources) => {
        for (const source of [...sources, ...sources]) {
          const examples = patternExamples(source);
          expect({ source, examples }).toEqual({ source, examples: readExamples(source) });
          compared += 1;
          if (examples.length > 0) withExamples += 1;
        }
      }),
      { numRuns: 300 },
    );
    expect(compared).toBeGreaterThan(1_000);
    expect(withExamples).toBeGreaterThan(compared / 10);
  });

  it('the rules an unknown answer names, read lazily, are the rules of its leaves once each, in order', () => {
    let compared = 0;
    fc.assert(
      fc.property(fc.array(fc.array(fc.array(fc.constantFrom('r1', 'r2', 'r3', 'r4', 'r5'), { maxLength: 4 }), { maxLength: 3 }), { maxLength: 3 }), fc.nat(6), (groups, wanted) => {
        const literals: Literal[][] = groups.map((group) => group.map((rules, i) => ({ atom: { id: i, leaf: { conditionType: 'path', operator: '$eq', value: '/' }, field: 'path', rules: new Set(rules) }, holds: true })));
        const eager = [...new Set(groups.flat(2))];
        expect([...namedRules(literals)]).toEqual(eager);
        const firstFew: string[] = [];
        for (const rule of namedRules(literals)) {
          if (firstFew.length >= wanted) break;
          firstFew.push(rule);
        }
        expect(firstFew).toEqual(eager.slice(0, wanted));
        compared += 1;
      }),
      { numRuns: 500 },
    );
    expect(compared).toBe(500);
  });
});
