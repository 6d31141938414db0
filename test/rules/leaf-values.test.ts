import {
  addressProblem, asnsAreDigits, countriesAreAssigned, countriesAreIsoCodes, httpMethodsAreCommon, httpMethodsAreStandard, regexCompiles, socketIpsAreAddresses,
} from '../../src/rules/checks/leaf-values.js';
import { COUNTRY_CODES } from '../../src/rules/checks/countries.js';
import type { Where } from '../../src/rules/checks/where.js';
import type { WrittenLeaf } from '../../src/semantics/written.js';

/** Records problems as [path, message] so tests can see where each points. */
const where: Where = { at: (path, message) => ({ file: JSON.stringify(path), line: 1, col: 1, message }) };
const found = (problems: { file: string; message: string }[]) => problems.map((p) => [JSON.parse(p.file) as unknown, p.message]);

describe('regexCompiles', () => {
  it('reports each $re value that is not a JavaScript regular expression, at that value', () => {
    const leaf: WrittenLeaf = { conditionType: 'path', operator: '$re', value: ['^/ok$', '(', 'a{2,1}'] };
    expect(found(regexCompiles(leaf, where))).toEqual([
      [['value', 1], 'regular expression "(" does not compile: Unterminated group'],
      [['value', 2], 'regular expression "a{2,1}" does not compile: numbers out of order in {} quantifier'],
    ]);
  });

  it('checks a single string and ignores other operators', () => {
    expect(found(regexCompiles({ conditionType: 'path', operator: '$re', value: '[' }, where))).toEqual([
      [['value'], 'regular expression "[" does not compile: Unterminated character class'],
    ]);
    expect(regexCompiles({ conditionType: 'path', operator: '$eq', value: '(' }, where)).toEqual([]);
  });
});

describe('socketIpsAreAddresses', () => {
  it.each(['192.0.2.1', '192.0.2.0/24', '0.0.0.0/0', '2001:db8::1', '2001:db8::/32', '::/0', '::ffff:192.0.2.1'])('accepts %s', (value) => {
    expect(addressProblem(value)).toBeUndefined();
  });

  it.each([
    ['192.0.2.256', '"192.0.2.256" is not an IPv4 or IPv6 address'],
    ['192.0.2.01', '"192.0.2.01" is not an IPv4 or IPv6 address'],
    ['192.0.2.0/33', 'the prefix length after "/" must be a whole number from 0 to 32 for IPv4'],
    ['2001:db8::/129', 'the prefix length after "/" must be a whole number from 0 to 128 for IPv6'],
    ['192.0.2.0/024', 'the prefix length after "/" must be a whole number from 0 to 32 for IPv4'],
    ['192.0.2.0/', 'the prefix length after "/" must be a whole number from 0 to 32 for IPv4'],
    ['192.0.2.0/8/8', 'more than one "/"'],
    ['fe80::1%eth0', 'zone indexes (%...) are not allowed'],
    ['example.com', '"example.com" is not an IPv4 or IPv6 address'],
  ])('rejects %s', (value, reason) => {
    expect(addressProblem(value)).toBe(reason);
  });

  it('checks exact-match operators only', () => {
    const leaf: WrittenLeaf = { conditionType: 'socketIps', operator: '$notIn', value: ['192.0.2.0/24', '10.0.0.0/33'] };
    expect(found(socketIpsAreAddresses(leaf, where))).toEqual([
      [['value', 1], 'socketIps value "10.0.0.0/33" is not an IP address or CIDR range: the prefix length after "/" must be a whole number from 0 to 32 for IPv4'],
    ]);
    expect(socketIpsAreAddresses({ conditionType: 'socketIps', operator: '$startsWith', value: '10.' }, where)).toEqual([]);
  });
});

describe('asnsAreDigits', () => {
  it('accepts digits and explains the AS prefix', () => {
    const leaf: WrittenLeaf = { conditionType: 'socketIpASN', operator: '$in', value: ['13335', 'AS15169', '4294967296', '12a'] };
    expect(found(asnsAreDigits(leaf, where))).toEqual([
      [['value', 1], 'socketIpASN value "AS15169" must be an AS number in digits only (0 to 4294967295); write "15169"'],
      [['value', 2], 'socketIpASN value "4294967296" must be an AS number in digits only (0 to 4294967295)'],
      [['value', 3], 'socketIpASN value "12a" must be an AS number in digits only (0 to 4294967295)'],
    ]);
  });
});

describe('countriesAreIsoCodes', () => {
  it('ships the 249 assigned ISO 3166-1 alpha-2 codes', () => {
    expect(COUNTRY_CODES.size).toBe(249);
    for (const code of ['US', 'GB', 'DE', 'JP', 'BR', 'ZA', 'AX', 'SS', 'CW']) expect(COUNTRY_CODES.has(code)).toBe(true);
    for (const code of ['UK', 'EU', 'XK', 'ZZ']) expect(COUNTRY_CODES.has(code)).toBe(false);
  });

  it('rejects other values with a hint when one is known', () => {
    const leaf: WrittenLeaf = { conditionType: 'country', operator: '$in', value: ['US', 'uk', 'de', 'XX'] };
    expect(found(countriesAreIsoCodes(leaf, where))).toEqual([
      [['value', 1], 'country value "uk" is not an ISO 3166-1 alpha-2 country code (the code for the United Kingdom is "GB")'],
      [['value', 2], 'country value "de" is not an ISO 3166-1 alpha-2 country code (codes are upper case: "DE")'],
    ]);
  });

  it('warns (not errs) about two upper-case letters that are not assigned', () => {
    const leaf: WrittenLeaf = { conditionType: 'country', operator: '$in', value: ['US', 'XX', 'XK', 'uk'] };
    expect(found(countriesAreIsoCodes(leaf, where)).map(([path]) => path)).toEqual([['value', 3]]);
    expect(found(countriesAreAssigned(leaf, where))).toEqual([
      [['value', 1], 'country value "XX" is not an assigned ISO 3166-1 alpha-2 country code; check the spelling'],
      [['value', 2], 'country value "XK" is not an assigned ISO 3166-1 alpha-2 country code; check the spelling'],
    ]);
  });
});

describe('httpMethodsAreStandard', () => {
  it('accepts the standard methods only', () => {
    const leaf: WrittenLeaf = { conditionType: 'httpMethod', operator: '$eq', value: 'post' };
    expect(found(httpMethodsAreStandard(leaf, where))).toEqual([[['value'], 'httpMethod value "post" is not an HTTP method (methods are upper case: "POST")']]);
    const listed: WrittenLeaf = { conditionType: 'httpMethod', operator: '$in', value: ['GET', 'HEAD', 'PATCH', 'PURGE', 'M-SEARCH', 'A B', ''] };
    expect(found(httpMethodsAreStandard(listed, where)).map(([path]) => path)).toEqual([['value', 5], ['value', 6]]);
  });

  it('warns (not errs) about valid RFC 9110 tokens that are not common methods', () => {
    const listed: WrittenLeaf = { conditionType: 'httpMethod', operator: '$in', value: ['GET', 'get', 'PROPFIND', 'M-SEARCH', 'A B'] };
    expect(found(httpMethodsAreCommon(listed, where))).toEqual([
      [['value', 2], 'httpMethod value "PROPFIND" is not a common HTTP method (GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE, PATCH); check the spelling'],
      [['value', 3], 'httpMethod value "M-SEARCH" is not a common HTTP method (GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE, PATCH); check the spelling'],
    ]);
  });
});
