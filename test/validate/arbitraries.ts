// Generators shared by the analysis property tests: small vocabularies, so that generated
// requests often hit generated leaves and generated leaves often relate to each other.
import fc from 'fast-check';
import type { TestRequest } from '../../src/evaluate/request.js';
import type { Leaf, LeafOperator } from '../../src/semantics/model.js';

const TEXTS = ['/', '/a', '/ab', '/b', 'a', 'b', 'ab', 'ba', ''];
const IPS = ['10.0.0.1', '10.1.0.1', '192.0.2.1', '2001:db8::1', '2001:db9::1'];
const RANGES = ['10.0.0.0/8', '10.0.0.0/16', '10.0.0.1', '192.0.2.0/24', '0.0.0.0/0', '2001:db8::/32', '2001:db8::1', '::/0'];
const PATTERNS = ['^/a', 'b$', '.*', 'a'];
const OPERATORS: LeafOperator[] = ['$eq', '$ne', '$contains', '$startsWith', '$endsWith', '$notEndsWith', '$re', '$in', '$notIn', '$exists', '$notExists'];
const IP_OPERATORS: LeafOperator[] = ['$eq', '$ne', '$in', '$notIn', '$exists', '$notExists'];

const text = fc.constantFrom(...TEXTS);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

export const request: fc.Arbitrary<TestRequest> = fc.record({
  path: fc.constantFrom('/', '/a', '/ab', '/b', '/ba'),
  method: fc.constantFrom('GET', 'POST'),
  userAgent: maybe(text),
  ip: maybe(fc.constantFrom(...IPS)),
  country: maybe(fc.constantFrom('US', 'DE')),
  headers: maybe(fc.dictionary(fc.constantFrom('x-a', 'X-A', 'x-b'), text, { maxKeys: 2 })),
}).map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as TestRequest);

function leafOf(type: Leaf['conditionType'], operator: LeafOperator, values: string[], fieldOption?: string): Leaf {
  const value = ['$in', '$notIn', '$re'].includes(operator) ? values : operator === '$exists' || operator === '$notExists' ? undefined : values[0];
  return { conditionType: type, operator, ...(value === undefined ? {} : { value }), ...(fieldOption === undefined ? {} : { fieldOption }) };
}

export const leaf: fc.Arbitrary<Leaf> = fc.oneof(
  fc.tuple(fc.constantFrom<Leaf['conditionType']>('path', 'userAgent'), fc.constantFrom(...OPERATORS), fc.array(text, { minLength: 1, maxLength: 3 }))
    .map(([type, op, values]) => leafOf(type, op, op === '$re' ? values.map((v, i) => PATTERNS[(v.length + i) % PATTERNS.length] ?? '.*') : values)),
  fc.tuple(fc.constantFrom(...IP_OPERATORS), fc.array(fc.constantFrom(...RANGES), { minLength: 1, maxLength: 3 })).map(([op, values]) => leafOf('socketIps', op, values)),
  fc.tuple(fc.constantFrom<LeafOperator>('$eq', '$ne', '$in', '$notIn', '$exists', '$notExists'), fc.array(fc.constantFrom('US', 'DE', 'GB'), { minLength: 1, maxLength: 2 })).map(([op, values]) => leafOf('country', op, values)),
  fc.tuple(fc.constantFrom(...OPERATORS), fc.array(text, { minLength: 1, maxLength: 2 }), fc.constantFrom('x-a', 'X-A')).map(([op, values, name]) => leafOf('header', op === '$re' ? '$eq' : op, values, name)),
  fc.tuple(fc.constantFrom<LeafOperator>('$eq', '$in', '$exists'), fc.constantFrom('GET', 'POST')).map(([op, method]) => leafOf('httpMethod', op, [method])),
);

