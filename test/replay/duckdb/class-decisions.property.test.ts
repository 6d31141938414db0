// A tuple of classes decided from what its classes settle (src/replay/duckdb/class-decisions.ts)
// is decided as the js program decides the request made of the classes' values, for every set:
// random rule lists (active and paused, `$and` and `$or` trees over several fields, repeated
// trees), compiled as replay compiles them (live, declared, and declared with its paused rules
// active, as shadow rules are replayed), and random requests whose fields' values are the
// classes (small vocabularies: the classes recur from request to request, so each class's
// settled bits are reused). A class with a leaf undecided within its time budget is left to the
// caller, and only such a class.
import fc from 'fast-check';
import type { Decision } from '../../../src/evaluate/evaluate.js';
import type { TestRequest } from '../../../src/evaluate/request.js';
import { compileRuleSets } from '../../../src/replay/compiled.js';
import { CLASS_FIELDS } from '../../../src/replay/duckdb/class-query.js';
import { ClassDecisions } from '../../../src/replay/duckdb/class-decisions.js';
import { FieldVerdicts } from '../../../src/replay/duckdb/field-verdicts.js';
import { NO_RULE } from '../../../src/replay/sql/emit.js';
import type { Group, Leaf, NormalRule, Rule } from '../../../src/semantics/model.js';
import { compileProgram } from '../../../src/semantics/program.js';
import { normal } from '../../helpers/rules.js';
import { leaf as analysisLeaf, request as analysisRequest } from '../../validate/arbitraries.js';

const NAMES = ['q', 'token', '__proto__'];
const VALUES = ['', 'a', 'ab', 'b'];

const parameterLeaf: fc.Arbitrary<Leaf> = fc.tuple(
  fc.constantFrom<Leaf['conditionType']>('queryParam', 'customParam'),
  fc.constantFrom<Leaf['operator']>('$eq', '$ne', '$in', '$notIn', '$startsWith', '$exists', '$notExists'),
  fc.constantFrom(...NAMES),
  fc.array(fc.constantFrom(...VALUES), { maxLength: 2 }),
).map(([conditionType, operator, fieldOption, values]) => {
  const value = operator === '$in' || operator === '$notIn' ? values : operator === '$exists' || operator === '$notExists' ? undefined : (values[0] ?? '');
  return { conditionType, operator, fieldOption, ...(value === undefined ? {} : { value }) };
});

const group: fc.Arbitrary<Group> = fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(fc.oneof(analysisLeaf, parameterLeaf), { maxLength: 3 }) });
const rule: fc.Arbitrary<Rule> = fc.record({
  name: fc.constant('r'),
  description: fc.constant(''),
  status: fc.constantFrom<Rule['status']>('active', 'active', 'paused'),
  actions: fc.constantFrom<Rule['actions']>(['allow'], ['hardBlock']),
  conditions: fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(group, { maxLength: 3 }) }),
});
const parameters = fc.option(fc.dictionary(fc.constantFrom(...NAMES), fc.constantFrom(...VALUES), { maxKeys: 2 }), { nil: undefined });
const request: fc.Arbitrary<TestRequest> = fc.tuple(analysisRequest, parameters, parameters, fc.boolean()).map(([base, query, custom, pathless]) => {
  const { path: _path, ...rest } = base;
  return { ...(pathless ? rest : base), ...(query === undefined ? {} : { query }), ...(custom === undefined ? {} : { custom }) };
});

/** As replay numbers a decision (engine/replay-duckdb.ts). */
function codeOf(decision: Decision): number {
  if (decision.undecided !== undefined) return -2 - decision.undecided.index;
  return decision.rule === undefined ? NO_RULE : decision.index;
}

/** The requests' values of each field as classes: a request is the tuple of its fields' classes, a class's part its field alone. */
function classesOf(requests: readonly TestRequest[]): { parts: TestRequest[][]; tuples: number[][] } {
  const parts: TestRequest[][] = CLASS_FIELDS.map(() => []);
  const keys: string[][] = CLASS_FIELDS.map(() => []);
  const tuples = requests.map((one) => CLASS_FIELDS.map((field, at) => {
    const part: TestRequest = one[field] === undefined ? {} : { [field]: one[field] };
    const key = JSON.stringify(part);
    const known = (keys[at] as string[]).indexOf(key);
    if (known !== -1) return known;
    (keys[at] as string[]).push(key);
    return (parts[at] as TestRequest[]).push(part) - 1;
  }));
  return { parts, tuples };
}

/** Each tuple's codes, or undefined where a class has an undecided leaf, with the js program's codes for the request. */
function decided(sets: readonly (readonly NormalRule[])[], requests: readonly TestRequest[]): { got: (number[] | undefined)[]; expected: number[][]; undecidedTuples: number } {
  const { parts, tuples } = classesOf(requests);
  const program = compileProgram(sets);
  // As the engine classes the values: each field's leaves' verdicts found by value-classes.ts' own means.
  const verdicts = CLASS_FIELDS.map((field) => new FieldVerdicts(program.leaves.filter((leaf) => leaf.field === field)));
  const decisions = new ClassDecisions(program, CLASS_FIELDS, (at, id) => (verdicts[at] as FieldVerdicts).changes((parts[at] as TestRequest[])[id] as TestRequest));
  const js = compileRuleSets(sets);
  return {
    got: tuples.map((tuple) => decisions.codes(tuple)),
    expected: requests.map((one) => js.decide(one).map(codeOf)),
    undecidedTuples: decisions.undecidedTuples,
  };
}

test('every set decides each tuple of classes as the js program decides the request they make', () => {
  let tuples = 0;
  const repeats = fc.array(fc.nat(), { minLength: 12, maxLength: 12 });
  fc.assert(fc.property(fc.array(rule, { maxLength: 12 }), repeats, fc.array(request, { minLength: 1, maxLength: 10 }), (rules, picks, requests) => {
    const live = rules.map((one, i) => normal({ ...one, name: `rule ${i}` }));
    // Declared rules take some live rule's conditions: trees repeat within and across sets.
    const declared = live.map((one, i) => normal({ ...one, name: `declared ${i}`, conditions: (live[(picks[i] ?? 0) % live.length] as Rule).conditions }));
    const shadow = declared.map((one) => (one.status === 'paused' ? { ...one, status: 'active' as const } : one));
    const { got, expected } = decided([live, declared, shadow], requests);
    // None of these patterns runs out of time: every tuple is decided here.
    expect(got).toEqual(expected);
    tuples += got.length;
  }), { numRuns: 5_000 });
  expect(tuples).toBeGreaterThan(5_000);
});

test('a class with a leaf undecided within its time budget is left to the caller; the others are decided', () => {
  const attack = `${'a'.repeat(36)}!`;
  const lookahead = normal({ name: 'Lookahead', description: '', status: 'active', actions: ['hardBlock'],
    conditions: { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'userAgent', operator: '$re', value: ['(?=(a+)+$)'] }] }] } });
  const byPath = normal({ name: 'By path', description: '', status: 'active', actions: ['allow'],
    conditions: { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$eq', value: '/a' }] }] } });
  const requests: TestRequest[] = [{ userAgent: attack, path: '/a' }, { userAgent: 'aaa', path: '/b' }, { userAgent: 'b', path: '/a' }, { path: '/b' }];
  const { got, expected, undecidedTuples } = decided([[lookahead, byPath], [byPath, lookahead]], requests);
  expect(got).toEqual([undefined, ...expected.slice(1)]);
  expect(expected.slice(1)).toEqual([[0, 1], [1, 0], [NO_RULE, NO_RULE]]);
  expect(undecidedTuples).toBe(1);
});
