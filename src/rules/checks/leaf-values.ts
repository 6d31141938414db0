// Semantic checks of a leaf condition's values, each a named check that returns the
// problems it finds. Exact-match operators ($eq, $ne, $in, $notIn) compare whole values, so
// their values must be well-formed addresses, ASNs, country codes or methods; partial-match
// operators ($contains, $startsWith, ...) take fragments and are not checked.
import { isIP } from 'node:net';
import type { Problem } from '../../errors.js';
import type { LeafOperator } from '../../semantics/model.js';
import type { WrittenLeaf } from '../../semantics/written.js';
import type { Path } from '../../io/yaml-source.js';
import { COUNTRY_CODES, COUNTRY_CODE_HINTS } from './countries.js';
import type { Where } from './where.js';

type LeafCheck = (leaf: WrittenLeaf, where: Where) => Problem[];

const EXACT_OPERATORS: readonly LeafOperator[] = ['$eq', '$ne', '$in', '$notIn'];

const HTTP_METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'];

/** Largest autonomous system number (32-bit ASNs). */
const MAX_ASN = 4_294_967_295;

/**
 * A check of each value of a leaf, one at a time: `applies` picks the leaves it reads, `problem`
 * words what is wrong with one value (undefined when nothing is).
 */
function eachValue(applies: (leaf: WrittenLeaf) => boolean, problem: (value: string) => string | undefined): LeafCheck {
  return (leaf, where) => {
    if (!applies(leaf)) return [];
    return valuesOf(leaf).flatMap(({ value, path }) => {
      const message = problem(value);
      return message === undefined ? [] : [where.at(path, message)];
    });
  };
}

/** A check of the values of exact-match leaves (the operators that compare whole values) on one field. */
function exactValues(field: string, problem: (value: string) => string | undefined): LeafCheck {
  return eachValue((leaf) => leaf.conditionType === field && EXACT_OPERATORS.includes(leaf.operator), problem);
}

export const regexCompiles = eachValue((leaf) => leaf.operator === '$re', (value) => {
  const reason = compileError(value);
  return reason === undefined ? undefined : `regular expression ${JSON.stringify(value)} does not compile: ${reason}`;
});

/** Why a pattern does not compile, per pattern text: a rule set repeats a few patterns in many files. */
const compileErrors = new Map<string, string | undefined>();

function compileError(pattern: string): string | undefined {
  if (compileErrors.has(pattern)) return compileErrors.get(pattern);
  let reason: string | undefined;
  try {
    new RegExp(pattern);
  } catch (err) {
    reason = (err instanceof Error ? err.message : String(err)).replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
  }
  compileErrors.set(pattern, reason);
  return reason;
}

export const socketIpsAreAddresses = exactValues('socketIps', (value) => {
  const reason = addressProblem(value);
  return reason ? `socketIps value ${JSON.stringify(value)} is not an IP address or CIDR range: ${reason}` : undefined;
});

export const asnsAreDigits = exactValues('socketIpASN', (value) => {
  if (/^[0-9]+$/.test(value) && Number(value) <= MAX_ASN) return undefined;
  const digits = /^AS([0-9]+)$/i.exec(value)?.[1];
  const hint = digits ? `; write "${digits}"` : '';
  return `socketIpASN value ${JSON.stringify(value)} must be an AS number in digits only (0 to ${MAX_ASN})${hint}`;
});

export const countriesAreIsoCodes = exactValues('country', (value) => {
  if (COUNTRY_CODES.has(value) || isUnassignedCode(value)) return undefined;
  const upper = value.toUpperCase();
  const hint = COUNTRY_CODE_HINTS[upper] ?? (COUNTRY_CODES.has(upper) ? `codes are upper case: "${upper}"` : undefined);
  return `country value ${JSON.stringify(value)} is not an ISO 3166-1 alpha-2 country code${hint ? ` (${hint})` : ''}`;
});

/**
 * A warning: two upper-case letters the ISO list does not assign (XK, EU, XX). The service
 * stores any string, and some geolocation sources use such codes, so a rule imported with one
 * must still validate (docs/behaviour.md, "Warnings").
 */
export const countriesAreAssigned = exactValues('country', (value) =>
  isUnassignedCode(value) ? `country value ${JSON.stringify(value)} is not an assigned ISO 3166-1 alpha-2 country code; check the spelling` : undefined);

function isUnassignedCode(value: string): boolean {
  return /^[A-Z]{2}$/.test(value) && !COUNTRY_CODES.has(value) && COUNTRY_CODE_HINTS[value] === undefined;
}

/** RFC 9110, "Methods": a method is a token (letters, digits and !#$%&'*+-.^_`|~). */
const METHOD_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** An error: a common method in the wrong case, or a value that cannot be an HTTP method at all. */
export const httpMethodsAreStandard = exactValues('httpMethod', (value) => {
  if (HTTP_METHODS.includes(value)) return undefined;
  const upper = value.toUpperCase();
  if (HTTP_METHODS.includes(upper)) return `httpMethod value ${JSON.stringify(value)} is not an HTTP method (methods are upper case: "${upper}")`;
  if (METHOD_TOKEN.test(value)) return undefined;
  return `httpMethod value ${JSON.stringify(value)} is not an HTTP method: a method is one word of letters, digits and !#$%&'*+-.^_\`|~ (such as ${HTTP_METHODS.join(', ')})`;
});

/**
 * A warning: a valid method that is not one of the common ones (PROPFIND, PURGE...). The
 * service stores it and WebDAV clients send such methods, so an imported rule that lists one
 * must validate; the warning catches a typo (docs/behaviour.md, "Warnings").
 */
export const httpMethodsAreCommon = exactValues('httpMethod', (value) =>
  HTTP_METHODS.includes(value.toUpperCase()) || !METHOD_TOKEN.test(value) ? undefined : `httpMethod value ${JSON.stringify(value)} is not a common HTTP method (${HTTP_METHODS.join(', ')}); check the spelling`);

export const LEAF_CHECKS: readonly LeafCheck[] = [
  regexCompiles,
  socketIpsAreAddresses,
  asnsAreDigits,
  countriesAreIsoCodes,
  httpMethodsAreStandard,
];

/** Checks whose findings are warnings: legal values the service stores, but probably mistakes. */
export const LEAF_WARNINGS: readonly LeafCheck[] = [countriesAreAssigned, httpMethodsAreCommon];

/** Each value of a leaf with its path: `value` itself for one string, `value.N` for list items. */
function valuesOf(leaf: WrittenLeaf): { value: string; path: Path }[] {
  if (leaf.value === undefined) return [];
  if (typeof leaf.value === 'string') return [{ value: leaf.value, path: ['value'] }];
  return leaf.value.map((value, i) => ({ value, path: ['value', i] }));
}

/** Why a text is not an IPv4/IPv6 address or CIDR range; undefined when it is one. */
export function addressProblem(text: string): string | undefined {
  const [address = '', prefix, ...extra] = text.split('/');
  if (extra.length > 0) return 'more than one "/"';
  if (address.includes('%')) return 'zone indexes (%...) are not allowed';
  const version = isIP(address);
  if (version === 0) return `"${address}" is not an IPv4 or IPv6 address`;
  if (prefix === undefined) return undefined;
  const max = version === 4 ? 32 : 128;
  if (!/^(0|[1-9][0-9]{0,2})$/.test(prefix) || Number(prefix) > max) {
    return `the prefix length after "/" must be a whole number from 0 to ${max} for IPv${version}`;
  }
  return undefined;
}
