// The verdicts of a field's leaves (src/replay/duckdb/field-verdicts.ts) look most leaves up by
// the value, its prefixes or its suffixes, and find `$contains` and literal-bearing `$re` leaves
// by the texts the value holds, instead of asking each: on random leaves of one field (headers of
// several names and spellings, query parameters, duplicate listed values, empty texts, lone
// surrogates, patterns with and without a required literal, several patterns to a leaf, values
// long enough that each text is looked for rather than each substring looked up) and random
// request parts, present or absent, they hold the reference evaluator's leafVerdict for every
// leaf, in the leaves' order; and the key of two parts is the same exactly when their verdicts are.
import fc from 'fast-check';
import { leafVerdict } from '../../../src/evaluate/leaf.js';
import type { TestRequest } from '../../../src/evaluate/request.js';
import { FieldVerdicts } from '../../../src/replay/duckdb/field-verdicts.js';
import type { Leaf } from '../../../src/semantics/model.js';
import type { ProgramLeaf } from '../../../src/semantics/program.js';

const VALUES = ['', 'a', 'A', 'ab', 'ba', 'aba', 'b', '__proto__', 'constructor', 'x y', '\ud83d', '\ud83dx', 'xab', 'ab'.repeat(12), `${'x'.repeat(20)}ba`, '\ud83dab'];
/** Patterns around a text: its required literal found, or none to find (`.` alone, an alternation at the top). */
const PATTERNS = [(one: string) => `^${one}`, (one: string) => one, (one: string) => `(?:^|x)${one}$`, (one: string) => `${one}\\b`, (one: string) => `a.${one}`, (one: string) => `${one}|b`, () => '.',
  (one: string) => `^(?!x).*${one}$`, (one: string) => `^(?=.*${one})a`];
const OPERATORS: Leaf['operator'][] = ['$eq', '$ne', '$in', '$notIn', '$in', '$notIn', '$contains', '$startsWith', '$endsWith', '$notEndsWith', '$exists', '$notExists', '$re'];

function leafOf(conditionType: Leaf['conditionType'], name: string): fc.Arbitrary<Leaf> {
  const pattern = fc.tuple(fc.constantFrom(...PATTERNS), fc.constantFrom(...VALUES)).map(([around, one]) => around(one));
  return fc.tuple(fc.constantFrom(...OPERATORS), fc.array(fc.constantFrom(...VALUES), { maxLength: 4 }), fc.constantFrom(...VALUES), fc.array(pattern, { minLength: 1, maxLength: 2 })).map(([operator, list, one, patterns]) => {
    const base = { conditionType, operator, ...(name === '' ? {} : { fieldOption: name }) };
    if (operator === '$exists' || operator === '$notExists') return base as Leaf;
    if (operator === '$in' || operator === '$notIn') return { ...base, value: list } as Leaf;
    return { ...base, value: operator === '$re' ? patterns : one } as Leaf;
  });
}

const program = (leaves: Leaf[], field: ProgramLeaf['field']): ProgramLeaf[] => leaves.map((leaf) => ({ leaf, field, name: leaf.fieldOption ?? '' }));
const expected = (leaves: readonly ProgramLeaf[], part: TestRequest) =>
  leaves.map(({ leaf }) => { const verdict = leafVerdict(leaf, part); return verdict === 'undecided' ? 'u' : verdict ? 't' : 'f'; }).join('');

/** The verdicts on each part are the evaluator's, and two parts' keys are equal exactly when their verdicts are. */
function holds(leaves: readonly ProgramLeaf[], parts: readonly TestRequest[]): void {
  const verdicts = new FieldVerdicts(leaves);
  const marks = parts.map((part) => verdicts.marks(part));
  expect(marks).toEqual(parts.map((part) => expected(leaves, part)));
  const keys = parts.map((part) => verdicts.key(part));
  for (const [at, key] of keys.entries()) for (const [other, otherKey] of keys.entries()) expect(key === otherKey).toBe(marks[at] === marks[other]);
}

test('a text field: the key is every leaf\'s verdict, the value present or absent', () => {
  const part = fc.option(fc.constantFrom(...VALUES), { nil: undefined }).map((value): TestRequest => (value === undefined ? {} : { userAgent: value }));
  fc.assert(fc.property(fc.array(leafOf('userAgent', ''), { maxLength: 12 }), fc.array(part, { minLength: 1, maxLength: 4 }), (leaves, parts) => {
    holds(program(leaves, 'userAgent'), parts);
  }), { numRuns: 3_000 });
});

test('headers: leaves of several names (in any case) read each its own header', () => {
  const leaf = fc.constantFrom('x-a', 'X-A', 'x-b').chain((name) => leafOf('header', name));
  const headers = fc.dictionary(fc.constantFrom('x-a', 'X-A', 'x-b', 'x-c'), fc.constantFrom(...VALUES), { maxKeys: 4 });
  const part = fc.option(headers, { nil: undefined }).map((map): TestRequest => (map === undefined ? {} : { headers: map }));
  fc.assert(fc.property(fc.array(leaf, { maxLength: 12 }), fc.array(part, { minLength: 1, maxLength: 4 }), (leaves, parts) => {
    holds(program(leaves, 'headers'), parts);
  }), { numRuns: 3_000 });
});

test('query parameters: names compare as written, one leaf\'s parameter absent beside another\'s present', () => {
  const leaf = fc.constantFrom('p', 'P', 'q', '__proto__').chain((name) => leafOf('queryParam', name));
  const query = fc.dictionary(fc.constantFrom('p', 'P', 'r', '__proto__'), fc.constantFrom(...VALUES), { maxKeys: 4 });
  const part = fc.option(query, { nil: undefined }).map((map): TestRequest => (map === undefined ? {} : { query: map }));
  fc.assert(fc.property(fc.array(leaf, { maxLength: 12 }), fc.array(part, { minLength: 1, maxLength: 4 }), (leaves, parts) => {
    holds(program(leaves, 'query'), parts);
  }), { numRuns: 3_000 });
});
