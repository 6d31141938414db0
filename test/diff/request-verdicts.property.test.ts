// The region search's verdicts on its requests (src/diff/request-verdicts.ts: each distinct
// leaf's verdict once per request, trees combined from them) against the reference evaluator:
// random condition trees, some with a pattern that runs out of its time budget on one user agent,
// asked about requests in turn and back again (a verdict remembered for one request must not
// answer for another), with and without case-insensitive values. Verdicts are counted, so the
// property cannot pass without reaching all three.
import fc from 'fast-check';
import { conditionsVerdict } from '../../src/evaluate/evaluate.js';
import type { TestRequest } from '../../src/evaluate/request.js';
import { AtomTable, atomTree } from '../../src/diff/atoms.js';
import { RequestVerdicts } from '../../src/diff/request-verdicts.js';
import type { Conditions, Group, Leaf } from '../../src/semantics/model.js';
import { leaf, request } from '../validate/arbitraries.js';

// A pattern only the backtracking engine runs, out of time on ATTACK (remembered after: each runs once).
const ATTACK = `${'a'.repeat(36)}!`;
const hostile = fc.constantFrom<Leaf>(
  { conditionType: 'userAgent', operator: '$re', value: ['(?=(a+)+$)'] },
  { conditionType: 'userAgent', operator: '$re', value: ['b', '(?=(a+)+$)'] },
);
const anyLeaf = fc.oneof({ weight: 6, arbitrary: leaf }, { weight: 1, arbitrary: hostile });
const group: fc.Arbitrary<Group> = fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(anyLeaf, { maxLength: 3 }) });
const conditions: fc.Arbitrary<Conditions> = fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(group, { maxLength: 3 }) });
const agent = fc.tuple(request, fc.constantFrom(ATTACK, 'aaa', 'b', undefined, 'keep')).map(([one, userAgent]): TestRequest => {
  if (userAgent === 'keep') return one;
  const { userAgent: _, ...rest } = one;
  return userAgent === undefined ? rest : { ...rest, userAgent };
});

test('a tree\'s verdict from its leaves\' remembered verdicts is the reference evaluator\'s, request after request', () => {
  const seen = { true: 0, false: 0, undecided: 0 };
  fc.assert(
    fc.property(fc.array(conditions, { minLength: 1, maxLength: 5 }), fc.array(agent, { minLength: 1, maxLength: 3 }), fc.boolean(), (written, requests, ignoreCase) => {
      const options = { caseInsensitiveValues: ignoreCase };
      const table = new AtomTable();
      const trees = written.map((tree, i) => atomTree(tree, table, `r${i}`));
      const verdicts = new RequestVerdicts(table, options);
      // Each request asked twice, the others between: the second answers come from what was remembered.
      for (const one of [...requests, ...requests]) {
        written.forEach((tree, t) => {
          const verdict = verdicts.verdict(trees[t] as (typeof trees)[number], one);
          expect(verdict).toBe(conditionsVerdict(tree, one, options));
          seen[String(verdict) as keyof typeof seen] += 1;
        });
      }
    }),
    { numRuns: 1_500 },
  );
  expect(seen.true).toBeGreaterThan(500);
  expect(seen.false).toBeGreaterThan(500);
  expect(seen.undecided).toBeGreaterThan(20);
});
