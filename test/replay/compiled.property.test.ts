// The compiled rule set (src/replay/compiled.ts) decides exactly as the reference evaluator
// (src/evaluate/) on random rule lists and random requests: same deciding rule, same position,
// same actions. Small vocabularies, so generated requests often hit generated leaves and the
// index's value, prefix and presence lookups are all exercised; 10,000 rule lists. Sets compiled
// together share leaf and tree verdicts, and a set skips rules whose tree an earlier rule has:
// a second set made of the first's trees repeated under other rules checks both.
import fc from 'fast-check';
import { decide } from '../../src/evaluate/evaluate.js';
import type { TestRequest } from '../../src/evaluate/request.js';
import type { Group, Leaf, Rule } from '../../src/semantics/model.js';
import { compileRules } from '../../src/replay/compiled.js';
import { leaf as analysisLeaf, request as analysisRequest } from '../validate/arbitraries.js';
import { normal } from '../helpers/rules.js';
import { expectDecidedAsReference } from './compiled-oracle.js';

const NAMES = ['q', 'Q', 'token', '__proto__'];
const VALUES = ['', 'a', 'ab', 'b'];

const parameterLeaf: fc.Arbitrary<Leaf> = fc.tuple(
  fc.constantFrom<Leaf['conditionType']>('queryParam', 'customParam'),
  fc.constantFrom<Leaf['operator']>('$eq', '$ne', '$in', '$notIn', '$startsWith', '$contains', '$exists', '$notExists'),
  fc.constantFrom(...NAMES),
  fc.array(fc.constantFrom(...VALUES), { minLength: 0, maxLength: 2 }),
).map(([conditionType, operator, fieldOption, values]) => {
  const value = operator === '$in' || operator === '$notIn' ? values : operator === '$exists' || operator === '$notExists' ? undefined : (values[0] ?? '');
  return { conditionType, operator, fieldOption, ...(value === undefined ? {} : { value }) };
});

const leaf = fc.oneof(analysisLeaf, parameterLeaf);
const group: fc.Arbitrary<Group> = fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(leaf, { maxLength: 3 }) });
const rule: fc.Arbitrary<Rule> = fc.record({
  name: fc.constantFrom('r'),
  description: fc.constant(''),
  status: fc.constantFrom<Rule['status']>('active', 'active', 'paused'),
  actions: fc.constantFrom<Rule['actions']>(['allow'], ['hardBlock'], ['blockWithChallenge']),
  conditions: fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(group, { maxLength: 3 }) }),
});
const parameters = fc.option(fc.dictionary(fc.constantFrom(...NAMES), fc.constantFrom(...VALUES), { maxKeys: 2 }), { nil: undefined });
const request: fc.Arbitrary<TestRequest> = fc.tuple(analysisRequest, parameters, parameters).map(([base, query, custom]) => ({
  ...base, ...(query === undefined ? {} : { query }), ...(custom === undefined ? {} : { custom }),
}));

test('the compiled rule set decides every request as the reference evaluator does', () => {
  fc.assert(fc.property(fc.array(rule, { minLength: 0, maxLength: 12 }), fc.array(request, { minLength: 1, maxLength: 8 }), (rules, requests) => {
    const named = rules.map((r, i) => normal({ ...r, name: `rule ${i}` }));
    const compiled = compileRules(named);
    for (const one of requests) expect(compiled.decide(one)).toEqual(decide(named, one));
  }), { numRuns: 10_000 });
});

test('rule sets compiled together, with repeated condition trees, each decide as the reference evaluator does', () => {
  const repeats = fc.array(fc.nat(), { minLength: 12, maxLength: 12 });
  fc.assert(fc.property(fc.array(rule, { minLength: 1, maxLength: 12 }), repeats, fc.array(request, { minLength: 1, maxLength: 8 }), (rules, picks, requests) => {
    const live = rules.map((r, i) => normal({ ...r, name: `rule ${i}` }));
    // Each declared rule takes the conditions of some live rule: trees repeat within and across sets.
    const declared = live.map((r, i) => normal({ ...r, name: `declared ${i}`, conditions: (live[(picks[i] ?? 0) % live.length] as Rule).conditions }));
    expectDecidedAsReference(live, declared, requests);
  }), { numRuns: 10_000 });
});
