// The key of a field's verdicts (src/replay/duckdb/field-verdicts.ts) looks most leaves up by
// the value, its prefixes or its suffixes instead of asking each: on random leaves of one field
// (headers of several names and spellings, query parameters, duplicate listed values, empty texts, lone surrogates,
// the operators asked beside them) and random request parts, present or absent, it holds the reference evaluator's
// leafVerdict for every leaf, in the leaves' order.
import fc from 'fast-check';
import { leafVerdict } from '../../../src/evaluate/leaf.js';
import type { TestRequest } from '../../../src/evaluate/request.js';
import { FieldVerdicts } from '../../../src/replay/duckdb/field-verdicts.js';
import type { Leaf } from '../../../src/semantics/model.js';
import type { ProgramLeaf } from '../../../src/semantics/program.js';

const VALUES = ['', 'a', 'A', 'ab', 'ba', 'aba', 'b', '__proto__', 'constructor', 'x y', '\ud83d', '\ud83dx'];
const OPERATORS: Leaf['operator'][] = ['$eq', '$ne', '$in', '$notIn', '$in', '$notIn', '$contains', '$startsWith', '$endsWith', '$notEndsWith', '$exists', '$notExists', '$re'];

function leafOf(conditionType: Leaf['conditionType'], name: string): fc.Arbitrary<Leaf> {
  return fc.tuple(fc.constantFrom(...OPERATORS), fc.array(fc.constantFrom(...VALUES), { maxLength: 4 }), fc.constantFrom(...VALUES)).map(([operator, list, one]) => {
    const base = { conditionType, operator, ...(name === '' ? {} : { fieldOption: name }) };
    if (operator === '$exists' || operator === '$notExists') return base as Leaf;
    if (operator === '$in' || operator === '$notIn') return { ...base, value: list } as Leaf;
    return { ...base, value: operator === '$re' ? [`^${one}`] : one } as Leaf;
  });
}

const program = (leaves: Leaf[], field: ProgramLeaf['field']): ProgramLeaf[] => leaves.map((leaf) => ({ leaf, field, name: leaf.fieldOption ?? '' }));
const expected = (leaves: readonly ProgramLeaf[], part: TestRequest) =>
  leaves.map(({ leaf }) => { const verdict = leafVerdict(leaf, part); return verdict === 'undecided' ? 'u' : verdict ? 't' : 'f'; }).join('');

test('a text field: the key is every leaf\'s verdict, the value present or absent', () => {
  fc.assert(fc.property(fc.array(leafOf('userAgent', ''), { maxLength: 12 }), fc.option(fc.constantFrom(...VALUES), { nil: undefined }), (leaves, value) => {
    const field = program(leaves, 'userAgent');
    const part: TestRequest = value === undefined ? {} : { userAgent: value };
    expect(new FieldVerdicts(field).key(part)).toBe(expected(field, part));
  }), { numRuns: 3_000 });
});

test('headers: leaves of several names (in any case) read each its own header', () => {
  const leaf = fc.constantFrom('x-a', 'X-A', 'x-b').chain((name) => leafOf('header', name));
  const headers = fc.dictionary(fc.constantFrom('x-a', 'X-A', 'x-b', 'x-c'), fc.constantFrom(...VALUES), { maxKeys: 4 });
  fc.assert(fc.property(fc.array(leaf, { maxLength: 12 }), fc.option(headers, { nil: undefined }), (leaves, map) => {
    const field = program(leaves, 'headers');
    const part: TestRequest = map === undefined ? {} : { headers: map };
    expect(new FieldVerdicts(field).key(part)).toBe(expected(field, part));
  }), { numRuns: 3_000 });
});

test('query parameters: names compare as written, one leaf\'s parameter absent beside another\'s present', () => {
  const leaf = fc.constantFrom('p', 'P', 'q', '__proto__').chain((name) => leafOf('queryParam', name));
  const query = fc.dictionary(fc.constantFrom('p', 'P', 'r', '__proto__'), fc.constantFrom(...VALUES), { maxKeys: 4 });
  fc.assert(fc.property(fc.array(leaf, { maxLength: 12 }), fc.option(query, { nil: undefined }), (leaves, map) => {
    const field = program(leaves, 'query');
    const part: TestRequest = map === undefined ? {} : { query: map };
    expect(new FieldVerdicts(field).key(part)).toBe(expected(field, part));
  }), { numRuns: 3_000 });
});
