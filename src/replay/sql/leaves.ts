// One leaf of a compiled program (semantics/program.ts) as a SQL boolean with the reference
// evaluator's three values: TRUE, FALSE, and NULL for undecided (docs/evaluation.md). SQL's AND
// and OR are Kleene's, as the evaluator's combine(), so trees and groups are plain AND/OR.
// What a dialect cannot decide exactly is never approximated: it is a fallback the caller
// supplies (the DuckDB engine's JavaScript functions) or NULL, and a note names it.
import { compilePattern } from '../../evaluate/pattern.js';
import { MATCH_WHEN_ABSENT } from '../../evaluate/leaf.js';
import { linearForm } from '../../evaluate/linear-pattern.js';
import { firstValue, leafValues } from '../../semantics/fields.js';
import type { ProgramLeaf } from '../../semantics/program.js';
import { addressIntervals, IPV4_COLUMN, IPV6_COLUMN } from './addresses.js';
import type { Dialect } from './dialects.js';

/** What decides a leaf the dialect cannot: a SQL expression calling back into JavaScript, or nothing (undecided). */
export interface Fallbacks {
  /** `$re` pattern `source` on `value` (a JavaScript pattern outside RE2's exact subset, or a text RE2 reads otherwise). */
  pattern(source: string, value: string): string;
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
const ADDRESS_OPERATORS = new Set(['$eq', '$ne', '$in', '$notIn']);

export function leafSql({ leaf, field, name }: ProgramLeaf, ctx: LeafContext): LeafSql {
  const { dialect } = ctx;
  const column = dialect.identifier(field);
  const value = field === 'headers' || field === 'query' || field === 'custom' ? dialect.mapValue(column, name) : column;
  if (leaf.operator === '$exists') return { sql: `(${value} IS NOT NULL)`, undecided: false };
  if (leaf.operator === '$notExists') return { sql: `(${value} IS NULL)`, undecided: false };
  const present = leaf.conditionType === 'socketIps' && ADDRESS_OPERATORS.has(leaf.operator) ? addressTest(leaf.operator, leafValues(leaf)) : textTest(leaf.operator, leafValues(leaf), firstValue(leaf), value, ctx);
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
 * Whether the address lies in the leaf's ranges, as Node's BlockList says (leaf.ts; addresses.ts
 * for how): an IPv4 address as a number, an IPv6 address as 32 hex digits, other text in no range.
 */
function addressTest(operator: string, values: readonly string[]): LeafSql {
  const inside = operator === '$eq' || operator === '$in';
  const { ipv4, ipv6 } = addressIntervals(operator === '$eq' || operator === '$ne' ? values.slice(0, 1) : values);
  const v4 = within(IPV4_COLUMN, ipv4.map(([first, last]) => [String(first), String(last)]));
  const v6 = within(IPV6_COLUMN, ipv6.map(([first, last]) => [`'${first}'`, `'${last}'`]));
  const test = (contained: string) => (inside ? contained : `NOT ${contained}`);
  return { sql: `(CASE WHEN ${IPV4_COLUMN} IS NOT NULL THEN ${test(v4)} WHEN ${IPV6_COLUMN} IS NOT NULL THEN ${test(v6)} ELSE ${inside ? 'FALSE' : 'TRUE'} END)`, undecided: false };
}

/** Whether the column lies in any of the intervals (their ends SQL literals). */
function within(column: string, intervals: readonly (readonly [string, string])[]): string {
  return intervals.length === 0 ? 'FALSE' : `(${intervals.map(([first, last]) => `${column} BETWEEN ${first} AND ${last}`).join(' OR ')})`;
}
