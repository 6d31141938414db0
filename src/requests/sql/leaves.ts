// One leaf of a compiled program (semantics/program.ts) as a SQL boolean with the reference
// evaluator's three values: TRUE, FALSE, and NULL for undecided (docs/evaluation.md). SQL's AND
// and OR are Kleene's, as the evaluator's combine(), so trees and groups are plain AND/OR.
// What a dialect cannot decide exactly is never approximated: it is a fallback the caller
// supplies (the DuckDB engine's JavaScript functions) or NULL, and a note names it.
import { isIP } from 'node:net';
import { compilePattern, MATCH_WHEN_ABSENT } from '../../evaluate/index.js';
import { linearForm } from '../../evaluate/linear-pattern.js';
import { parseRange, rangeBounds } from '../../evaluate/addresses.js';
import { firstValue, leafValues } from '../../semantics/fields.js';
import type { ProgramLeaf } from '../../semantics/program.js';
import type { Dialect } from './dialects.js';

/** What decides a leaf the dialect cannot: a SQL expression calling back into JavaScript, or nothing (undecided). */
export interface Fallbacks {
  /** `$re` pattern `source` on `value` (a JavaScript pattern outside RE2's exact subset, or a text RE2 reads otherwise). */
  pattern(source: string, value: string): string;
  /** The whole address leaf on `value` (an address that is not IPv4): never undecided. */
  address(leafId: number, value: string): string;
  /** Whether the rows hold no character beyond U+FFFF (the caller decided those elsewhere): RE2 then needs no guard. */
  rowsWithinBmp: boolean;
}

export interface LeafSql {
  sql: string;
  /** Whether the expression can be NULL (undecided) for a request. */
  undecided: boolean;
}

export interface LeafContext {
  dialect: Dialect;
  fallbacks?: Fallbacks;
  /** What the query leaves undecided, for the comment at its top. */
  notes: Set<string>;
}

/** Code points from U+10000: JavaScript (without `u`) sees two code units where RE2 sees one. */
const ASTRAL = '[\\x{10000}-\\x{10FFFF}]';
/** An IPv4 address as isIP and the evaluator accept it: four decimal parts 0-255, no leading zero. */
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
/** IPv4 addresses lie in the IPv6 space as ::ffff:a.b.c.d, as Node's BlockList compares them. */
const MAPPED = 0xffff_0000_0000n;
const ADDRESS_OPERATORS = new Set(['$eq', '$ne', '$in', '$notIn']);

export function leafSql(id: number, { leaf, field, name }: ProgramLeaf, ctx: LeafContext): LeafSql {
  const { dialect } = ctx;
  const column = dialect.identifier(field);
  const value = field === 'headers' || field === 'query' || field === 'custom' ? dialect.mapValue(column, name) : column;
  if (leaf.operator === '$exists') return { sql: `(${value} IS NOT NULL)`, undecided: false };
  if (leaf.operator === '$notExists') return { sql: `(${value} IS NULL)`, undecided: false };
  const present = leaf.conditionType === 'socketIps' && ADDRESS_OPERATORS.has(leaf.operator) ? addressTest(id, leaf.operator, leafValues(leaf), value, ctx) : textTest(leaf.operator, leafValues(leaf), firstValue(leaf), value, ctx);
  const absent = MATCH_WHEN_ABSENT.has(leaf.operator) ? 'TRUE' : 'FALSE';
  return { sql: `(CASE WHEN ${value} IS NULL THEN ${absent} ELSE ${present.sql} END)`, undecided: present.undecided };
}

function textTest(operator: string, values: readonly string[], one: string, value: string, ctx: LeafContext): LeafSql {
  const { dialect } = ctx;
  const literal = dialect.text(one);
  const decided = (sql: string): LeafSql => ({ sql, undecided: false });
  switch (operator) {
    case '$eq': return decided(`${value} = ${literal}`);
    case '$ne': return decided(`${value} <> ${literal}`);
    case '$contains': return decided(one === '' ? 'TRUE' : dialect.contains(value, literal));
    case '$startsWith': return decided(one === '' ? 'TRUE' : dialect.startsWith(value, literal));
    case '$endsWith': return decided(one === '' ? 'TRUE' : dialect.endsWith(value, literal));
    case '$notEndsWith': return decided(one === '' ? 'FALSE' : `NOT ${dialect.endsWith(value, literal)}`);
    case '$in': return decided(values.length === 0 ? 'FALSE' : `${value} IN (${values.map(dialect.text).join(', ')})`);
    case '$notIn': return decided(values.length === 0 ? 'TRUE' : `${value} NOT IN (${values.map(dialect.text).join(', ')})`);
    case '$re': return patternsTest(values, value, ctx);
    default: throw new Error(`no SQL for the operator ${operator}`);
  }
}

/** Any pattern that matches decides; an undecided one only when none matches: SQL's OR. */
function patternsTest(sources: readonly string[], value: string, ctx: LeafContext): LeafSql {
  const tests = sources.map((source) => patternTest(source, value, ctx)).filter((test) => test.sql !== 'FALSE');
  if (tests.length === 0) return { sql: 'FALSE', undecided: false };
  return { sql: `(${tests.map((test) => test.sql).join(' OR ')})`, undecided: tests.some((test) => test.undecided) };
}

function patternTest(source: string, value: string, ctx: LeafContext): LeafSql {
  const { dialect, fallbacks, notes } = ctx;
  const compiled = compilePattern(source, false);
  if (compiled.engine === 'none') return { sql: 'FALSE', undecided: false };
  const form = compiled.engine === 're2' && dialect.re2 ? linearForm(source, false) : undefined;
  if (form === undefined) {
    if (fallbacks !== undefined) return { sql: fallbacks.pattern(source, value), undecided: true };
    notes.add(`$re ${JSON.stringify(source)}: ${compiled.engine === 're2' ? `${dialect.name} does not run RE2` : 'outside the RE2 subset that gives JavaScript\'s answer'}`);
    return { sql: dialect.undecided, undecided: true };
  }
  if (fallbacks?.rowsWithinBmp === true) return { sql: dialect.regex(value, form), undecided: false };
  // A text with characters beyond U+FFFF is read by JavaScript as two code units each.
  const other = fallbacks === undefined ? dialect.undecided : fallbacks.pattern(source, value);
  if (fallbacks === undefined) notes.add(`$re ${JSON.stringify(source)} on texts with characters beyond U+FFFF`);
  return { sql: `(CASE WHEN ${dialect.regex(value, ASTRAL)} THEN ${other} ELSE ${dialect.regex(value, form)} END)`, undecided: true };
}

/**
 * Whether the address lies in the leaf's ranges, as Node's BlockList says (leaf.ts): IPv4 ranges
 * are the mapped part of the IPv6 space. An IPv4 address is a number compared with the ranges'
 * IPv4 intervals; text that is no address lies in no range; an IPv6 address goes to the fallback.
 */
function addressTest(id: number, operator: string, values: readonly string[], value: string, ctx: LeafContext): LeafSql {
  const { dialect, fallbacks, notes } = ctx;
  const inside = operator === '$eq' || operator === '$in';
  const ranges = (operator === '$eq' || operator === '$ne' ? values.slice(0, 1) : values).map(rangeOf);
  if (ranges.some((range) => range === 'zone')) {
    if (fallbacks !== undefined) return { sql: fallbacks.address(id, value), undecided: false };
    notes.add(`client address ranges with a zone index (${values.join(', ')})`);
    return { sql: dialect.undecided, undecided: true };
  }
  const intervals = ranges.flatMap((range) => (range === undefined || range === 'zone' ? [] : ipv4Interval(range)));
  const contained = intervals.length === 0 ? 'FALSE' : `(${intervals.map(([first, last]) => `${IPV4_COLUMN} BETWEEN ${first} AND ${last}`).join(' OR ')})`;
  const v4 = inside ? contained : `NOT ${contained}`;
  const v6 = fallbacks === undefined ? dialect.undecided : fallbacks.address(id, value);
  if (fallbacks === undefined) notes.add('client address ranges on IPv6 addresses');
  const notAddress = inside ? 'FALSE' : 'TRUE';
  return { sql: `(CASE WHEN ${IPV4_COLUMN} IS NOT NULL THEN ${v4} WHEN ${dialect.contains(value, "':'")} THEN ${v6} ELSE ${notAddress} END)`, undecided: fallbacks === undefined };
}

/** A range as the evaluator reads it (leaf.ts addRange): undefined when it is not one, 'zone' for an address with a zone index. */
function rangeOf(text: string): { first: bigint; last: bigint } | undefined | 'zone' {
  const [address = '', prefix] = text.split('/');
  const version = isIP(address);
  if (version === 0) return undefined;
  if (prefix !== undefined && (!/^[0-9]{1,3}$/.test(prefix) || Number(prefix) > (version === 4 ? 32 : 128))) return undefined;
  if (address.includes('%')) return 'zone';
  const range = parseRange(prefix === undefined ? address : `${address}/${Number(prefix)}`);
  if (range === undefined) return undefined;
  const { first, last } = rangeBounds(range);
  return range.family === 4 ? { first: first + MAPPED, last: last + MAPPED } : { first, last };
}

/** The part of a range (in the IPv6 space) that IPv4 addresses can lie in, as IPv4 numbers. */
function ipv4Interval({ first, last }: { first: bigint; last: bigint }): [bigint, bigint][] {
  const low = first > MAPPED ? first : MAPPED;
  const high = last < MAPPED + 0xffff_ffffn ? last : MAPPED + 0xffff_ffffn;
  return low > high ? [] : [[low - MAPPED, high - MAPPED]];
}

/** The column of the row's IPv4 address as a number (NULL when `ip` is not one), selected once per row by ipv4Select. */
export const IPV4_COLUMN = 'botrules_ipv4';

/** `<source>` with the column IPV4_COLUMN added: the address parsed once, whatever the number of address leaves. */
export function ipv4Select(source: string, dialect: Dialect): string {
  const ip = dialect.identifier('ip');
  const number = `(${[1, 2, 3, 4].map((part) => `${dialect.dottedPart(ip, part)} * ${256 ** (4 - part)}`).join(' + ')})`;
  return `SELECT *, CASE WHEN ${dialect.fullRegex(ip, IPV4)} THEN ${number} END AS ${IPV4_COLUMN} FROM ${source}`;
}
