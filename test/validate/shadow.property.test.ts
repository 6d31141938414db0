// Property tests of the analysis against the evaluator, over small vocabularies so that
// generated requests often hit generated leaves: a rule reported as shadowed never decides
// any request of a large generated set, no reported shadow has a counterexample (a request
// the later rule matches and the earlier does not), and every leaf relation claimed as proved
// holds for every generated request. Requests always carry a path and a method, as the
// analysis assumes (docs/evaluation.md, "Rule-set analysis").
import fc from 'fast-check';
import { analyseRules } from '../../src/validate/checks.js';
import { leafImplies, leavesContradict } from '../../src/validate/leaves.js';
import { conditionsVerdict, decide } from '../../src/evaluate/evaluate.js';
import { leafVerdict } from '../../src/evaluate/leaf.js';
import type { TestRequest } from '../../src/evaluate/request.js';
import type { DeclaredRule } from '../../src/semantics/model.js';
import { leaf, request } from './arbitraries.js';

const conditionsMatch = (conditions: DeclaredRule['conditions'], r: TestRequest) => conditionsVerdict(conditions, r) === true;
const leafMatches = (l: Parameters<typeof leafVerdict>[0], r: TestRequest) => leafVerdict(l, r) === true;

const rules: fc.Arbitrary<DeclaredRule[]> = fc.array(
  fc.record({
    operator: fc.constantFrom<'$or' | '$and'>('$or', '$and'),
    groups: fc.array(fc.record({ operator: fc.constantFrom<'$or' | '$and'>('$or', '$and'), children: fc.array(leaf, { minLength: 1, maxLength: 3 }) }), { minLength: 1, maxLength: 2 }),
    paused: fc.boolean(),
  }),
  { minLength: 2, maxLength: 6 },
).map((written) => written.map((r, i) => ({
  name: `r${i}`, description: '', status: r.paused && i % 3 === 1 ? 'paused' : 'active', actions: i % 2 === 0 ? ['allow'] : ['hardBlock'],
  conditions: { operator: r.operator, children: r.groups }, source: { file: 'rules/a.yaml', line: i + 1, col: 1 },
}) as DeclaredRule));

const requests = fc.array(request, { minLength: 200, maxLength: 200 });

describe('the analysis against the evaluator', () => {
  it('a rule reported as shadowed never decides a generated request, and no counterexample disproves the shadow', () => {
    let reported = 0;
    fc.assert(fc.property(rules, requests, (ruleSet, sample) => {
      for (const finding of analyseRules(ruleSet).filter((f) => f.check === 'shadowed-rule')) {
        reported++;
        const index = finding.line - 1;
        const shadowed = ruleSet[index] as DeclaredRule;
        const earlier = ruleSet.find((r) => finding.message.includes(`rule "${r.name}" (`)) as DeclaredRule;
        // Plain loops with one expect each: expect() per request would dominate the run time.
        const decided = sample.filter((r) => decide(ruleSet, r).index === index);
        const counterexamples = sample.filter((r) => conditionsMatch(shadowed.conditions, r) && !conditionsMatch(earlier.conditions, r));
        if (decided.length + counterexamples.length > 0) expect({ finding: finding.message, decided, counterexamples }).toEqual({ finding: finding.message, decided: [], counterexamples: [] });
      }
    }), { numRuns: 400, seed: 15 });
    // The property says something only if shadows are found.
    expect(reported).toBeGreaterThan(20);
  });

  it('every proved leaf implication and contradiction holds for every generated request', () => {
    let implications = 0;
    let contradictions = 0;
    fc.assert(fc.property(leaf, leaf, requests, (p, q, sample) => {
      const implied = leafImplies(p, q);
      const contradict = leavesContradict(p, q);
      if (implied) implications++;
      if (contradict) contradictions++;
      const disproved = sample.filter((r) => (implied && leafMatches(p, r) && !leafMatches(q, r)) || (contradict && leafMatches(p, r) && leafMatches(q, r)));
      if (disproved.length > 0) expect({ p, q, disproved }).toEqual({ p, q, disproved: [] });
    }), { numRuns: 2000, seed: 15 });
    expect(implications).toBeGreaterThan(100);
    expect(contradictions).toBeGreaterThan(50);
  });

  it('unsatisfiable groups and catch-alls are what they claim on every generated request', () => {
    const reached = { unsatisfiable: 0, catchAll: 0 };
    fc.assert(fc.property(rules, requests, (ruleSet, sample) => {
      for (const finding of analyseRules(ruleSet)) {
        const rule = ruleSet[finding.line - 1] as DeclaredRule;
        if (finding.check === 'unsatisfiable-group') {
          reached.unsatisfiable++;
          const group = Number(/^group (\d+)/.exec(finding.message)?.[1]) - 1;
          const only = { operator: '$and' as const, children: [rule.conditions.children[group] ?? { operator: '$or' as const, children: [] }] };
          expect(sample.filter((r) => conditionsMatch(only, r))).toEqual([]);
        }
        if (finding.check === 'catch-all') {
          reached.catchAll++;
          expect(sample.filter((r) => !conditionsMatch(rule.conditions, r))).toEqual([]);
        }
      }
    }), { numRuns: 300, seed: 16 });
    // The property says something only if both kinds of finding are made, often (46 and 81
    // with this seed).
    expect(reached.unsatisfiable).toBeGreaterThan(20);
    expect(reached.catchAll).toBeGreaterThan(30);
  });
});
