// Hand-written cases for every operator × condition type, including absent fields.
import { leafVerdict as leafMatches, MATCH_WHEN_ABSENT } from '../../src/evaluate/leaf.js';
import type { TestRequest } from '../../src/evaluate/request.js';
import { CONDITION_TYPES, LEAF_OPERATORS, type ConditionType, type Leaf, type LeafOperator } from '../../src/semantics/model.js';

const request: TestRequest = {
  path: '/api/login', method: 'POST', userAgent: 'python-requests/2.31', ip: '203.0.113.7', asn: '13335',
  country: 'US', domain: 'shop.example.com', deviceType: 'desktop',
  headers: { 'X-Monitor': '1' }, query: { q: 'shoes' }, custom: { tier: 'gold' },
};

const leaf = (conditionType: ConditionType, operator: LeafOperator, value?: string | string[], fieldOption?: string): Leaf => ({
  conditionType, operator, ...(value === undefined ? {} : { value }), ...(fieldOption === undefined ? {} : { fieldOption }),
});

/** [conditionType, fieldOption, a value equal to the request's, a prefix, a suffix, an inner part, another value]. */
const FIELDS: [ConditionType, string | undefined, string, string, string, string, string][] = [
  ['userAgent', undefined, 'python-requests/2.31', 'python', '2.31', 'requests', 'curl/8.0'],
  ['domain', undefined, 'shop.example.com', 'shop.', '.com', 'example', 'www.example.com'],
  ['path', undefined, '/api/login', '/api', 'login', 'pi/lo', '/account/login'],
  ['httpMethod', undefined, 'POST', 'PO', 'ST', 'OS', 'GET'],
  ['deviceType', undefined, 'desktop', 'desk', 'top', 'skt', 'mobile'],
  ['country', undefined, 'US', 'U', 'S', 'US', 'DE'],
  ['socketIpASN', undefined, '13335', '13', '35', '333', '15169'],
  ['header', 'x-monitor', '1', '1', '1', '1', '2'],
  ['queryParam', 'q', 'shoes', 'sh', 'es', 'hoe', 'boots'],
  ['customParam', 'tier', 'gold', 'go', 'ld', 'ol', 'silver'],
];

describe.each(FIELDS)('%s (%s)', (type, option, equal, prefix, suffix, inner, other) => {
  const cases: [LeafOperator, string | string[] | undefined, boolean][] = [
    ['$eq', equal, true], ['$eq', other, false],
    ['$ne', other, true], ['$ne', equal, false],
    ['$contains', inner, true], ['$contains', other, false],
    ['$startsWith', prefix, true], ['$startsWith', other, false],
    ['$endsWith', suffix, true], ['$endsWith', other, false],
    ['$notEndsWith', other, true], ['$notEndsWith', suffix, false],
    ['$re', [other, `^${equal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`], true], ['$re', [`^${other}$`], false],
    ['$in', [other, equal], true], ['$in', [other], false],
    ['$notIn', [other], true], ['$notIn', [other, equal], false],
    ['$exists', undefined, true], ['$notExists', undefined, false],
  ];
  it.each(cases)('%s %j → %s', (operator, value, expected) => {
    expect(leafMatches(leaf(type, operator, value, option), request)).toBe(expected);
  });
});

describe('socketIps', () => {
  it.each([
    ['$in', ['203.0.113.0/24'], '203.0.113.7', true],
    ['$in', ['203.0.113.7'], '203.0.113.7', true],
    ['$in', ['198.51.100.0/24', '203.0.112.0/23'], '203.0.113.7', true],
    ['$in', ['203.0.113.8/29'], '203.0.113.7', false],
    ['$in', ['0.0.0.0/0'], '203.0.113.7', true],
    ['$in', ['2001:db8::/32'], '2001:db8:1::5', true],
    ['$in', ['2001:db8::/32'], '2001:db9::5', false],
    ['$in', ['2001:db8::/32'], '203.0.113.7', false],
    ['$in', ['2001:DB8::1'], '2001:db8:0:0::1', true],
    ['$in', ['10.0.0.0/8'], 'not-an-address', false],
    ['$notIn', ['10.0.0.0/8'], '203.0.113.7', true],
    ['$notIn', ['203.0.0.0/8'], '203.0.113.7', false],
    ['$eq', '203.0.113.7', '203.0.113.7', true],
    ['$eq', '2001:db8::1', '2001:0db8:0::1', true],
    ['$eq', '203.0.113.8', '203.0.113.7', false],
    ['$ne', '203.0.113.8', '203.0.113.7', true],
    ['$ne', '203.0.113.7', '203.0.113.7', false],
    ['$startsWith', '203.0.', '203.0.113.7', true],
    ['$endsWith', '.7', '203.0.113.7', true],
    ['$notEndsWith', '.7', '203.0.113.7', false],
    ['$contains', '.113.', '203.0.113.7', true],
    ['$re', ['^203\\.'], '203.0.113.7', true],
    ['$exists', undefined, '203.0.113.7', true],
    ['$notExists', undefined, '203.0.113.7', false],
  ] as [LeafOperator, string | string[] | undefined, string, boolean][])('%s %j for %s → %s', (operator, value, ip, expected) => {
    expect(leafMatches(leaf('socketIps', operator, value), { ip })).toBe(expected);
  });
});

describe('a field the request does not carry', () => {
  const value = (operator: LeafOperator): string | string[] | undefined =>
    operator === '$exists' || operator === '$notExists' ? undefined : ['$in', '$notIn', '$re'].includes(operator) ? ['x'] : 'x';
  const combos = CONDITION_TYPES.flatMap((type) => LEAF_OPERATORS.map((operator) => [type, operator] as const));
  it.each(combos)('%s %s matches only for $notExists, $ne, $notIn, $notEndsWith', (type, operator) => {
    const option = ['header', 'queryParam', 'customParam'].includes(type) ? 'absent-name' : undefined;
    const expected = ['$notExists', '$ne', '$notIn', '$notEndsWith'].includes(operator);
    expect(leafMatches(leaf(type, operator, value(operator), option), {})).toBe(expected);
    expect(MATCH_WHEN_ABSENT.has(operator)).toBe(expected);
  });
  it('a $re that matches the empty string still needs the field', () => {
    expect(leafMatches(leaf('path', '$re', ['.*']), {})).toBe(false);
  });
});

describe('names and case', () => {
  it('compares header names case-insensitively and query/custom parameter names as written', () => {
    expect(leafMatches(leaf('header', '$eq', '1', 'X-MONITOR'), request)).toBe(true);
    expect(leafMatches(leaf('header', '$exists', undefined, 'x-monitor'), request)).toBe(true);
    expect(leafMatches(leaf('queryParam', '$exists', undefined, 'Q'), request)).toBe(false);
    expect(leafMatches(leaf('customParam', '$exists', undefined, 'Tier'), request)).toBe(false);
  });
  it('compares values as written unless asked to ignore case', () => {
    const upper = leaf('userAgent', '$contains', 'PYTHON');
    expect(leafMatches(upper, request)).toBe(false);
    expect(leafMatches(upper, request, { caseInsensitiveValues: true })).toBe(true);
    expect(leafMatches(leaf('country', '$in', ['us']), request, { caseInsensitiveValues: true })).toBe(true);
    expect(leafMatches(leaf('path', '$re', ['^/API/']), request)).toBe(false);
    expect(leafMatches(leaf('path', '$re', ['^/API/']), request, { caseInsensitiveValues: true })).toBe(true);
  });
  it('does not read inherited properties as parameters', () => {
    expect(leafMatches(leaf('queryParam', '$exists', undefined, 'constructor'), { query: {} })).toBe(false);
    expect(leafMatches(leaf('customParam', '$exists', undefined, 'toString'), { custom: {} })).toBe(false);
  });
});
