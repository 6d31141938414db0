// Replay's check of fields a log lacks (src/replay/missing.ts) asks the compiled touched rules
// with the leaves on lacking fields unknown (docs/replay.md, "Fields the log lacks"). Held here
// to the reference evaluator: each touched rule at or before the deciding one, its match by
// combine and leafVerdict (src/evaluate/) with those leaves undecided. The property counts how
// often it reaches its assertion with fields to blame, so that it cannot pass by never blaming.
import fc from 'fast-check';
import { combine, decide, type Decision } from '../../src/evaluate/evaluate.js';
import { leafVerdict } from '../../src/evaluate/leaf.js';
import type { TestRequest } from '../../src/evaluate/request.js';
import { fieldName, requestField, type RequestField } from '../../src/semantics/fields.js';
import type { Conditions, Group, Leaf, NormalRule } from '../../src/semantics/model.js';
import { lackedFields, type Carriage } from '../../src/replay/coverage.js';
import { MissingFieldCheck, ruleFields } from '../../src/replay/missing.js';
import { leaf, request as analysisRequest } from '../validate/arbitraries.js';
import { normal } from '../helpers/rules.js';

const group: fc.Arbitrary<Group> = fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(leaf, { maxLength: 3 }) });
const conditions: fc.Arbitrary<Conditions> = fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(group, { minLength: 1, maxLength: 3 }) });
const ruleSet = fc.array(fc.record({ status: fc.constantFrom<'active' | 'paused'>('active', 'active', 'paused'), conditions, touched: fc.boolean() }), { minLength: 1, maxLength: 5 });
// Lines lacking the path (and so the query) or carrying a country in a form no rule matches, too.
const request = fc.tuple(analysisRequest, fc.boolean(), fc.boolean()).map(([one, noPath, badCountry]): TestRequest => {
  const { path: _path, ...rest } = one;
  return { ...(noPath ? rest : one), ...(badCountry ? { country: 'United States' } : {}) };
});
const carriage: fc.Arbitrary<Carriage> = fc.record({ partialHeaders: fc.subarray(['x-a', 'x-b']), noCustom: fc.constant<true>(true) }, { requiredKeys: [] });

test('the fields a request\'s outcome depends on are those the reference evaluator leaves undecided, rule by rule', () => {
  let reached = 0;
  let blaming = 0;
  fc.assert(fc.property(fc.tuple(ruleSet, ruleSet), fc.array(fc.tuple(request, carriage), { minLength: 1, maxLength: 4 }), (written, lines) => {
    const sets = written.map((rules, s) => rules.map(({ touched, ...one }, i) =>
      ({ rule: normal({ name: `r${s}-${i}`, description: '', actions: ['allow'], ...one }), touched })));
    const touched = new Set(sets.flat().flatMap(({ rule, touched: yes }) => (yes ? [rule] : [])));
    const ruleSets = sets.map((one) => one.map(({ rule }) => rule));
    const check = new MissingFieldCheck(ruleSets.map((rules) => ({ rules, touched: (rule) => touched.has(rule) })));
    for (const [one, carried] of lines) {
      const decisions = ruleSets.map((rules) => decide(rules, one));
      const expected = referenceDependsOn(ruleSets, touched, one, carried, decisions);
      expect(check.dependsOn(one, carried, decisions)).toEqual(expected);
      reached += 1;
      if (expected.length > 0) blaming += 1;
    }
  }), { numRuns: 2_000 });
  expect(reached).toBeGreaterThan(4_000);
  expect(blaming).toBeGreaterThan(500);
});

/** The check as the reference evaluator works it out: a touched rule at or before the deciding one whose match is unknown blames its lacking fields. */
function referenceDependsOn(sets: readonly NormalRule[][], touched: ReadonlySet<NormalRule>, one: TestRequest, carried: Carriage, decisions: readonly Decision[]): RequestField[] {
  const lacked = lackedFields(one, carried);
  const blamed = new Set<RequestField>();
  sets.forEach((rules, s) => {
    const decision = decisions[s] as Decision;
    if (decision.undecided !== undefined) return;
    rules.forEach((rule, index) => {
      if (rule.status !== 'active' || !touched.has(rule) || (decision.index >= 0 && index > decision.index)) return;
      const fields = ruleFields(rule);
      const verdict = combine(rule.conditions.operator, rule.conditions.children, (g) =>
        combine(g.operator, g.children, (written) => (lacks(written, lacked, carried) ? 'undecided' : leafVerdict(written, one))));
      if (verdict === 'undecided') for (const field of fields) if (lacked.has(field)) blamed.add(field);
    });
  });
  return [...blamed];
}

function lacks(written: Leaf, lacked: ReadonlySet<RequestField>, carried: Carriage): boolean {
  const field = requestField(written);
  if (field === 'headers' && carried.partialHeaders !== undefined) return !carried.partialHeaders.includes(fieldName(written).toLowerCase());
  return lacked.has(field);
}
