// The query of the DuckDB engine's native reading (docs/replay.md, "Engines"): DuckDB reads an
// NDJSON log itself (read_json, gzip too), numbers its records in file order, decides each
// request by the compiled program's SQL and counts the groups the report needs: per decision
// of every set, per set of fields carried and per field carried in an unusable form, with the
// first records of each group. A record whose request DuckDB might read otherwise than the js
// engine's reader (a number written another way, an object where text belongs, a value the
// masking would change, a header name with capitals, a line lacking a field a touched rule
// reads…) is "odd": it is only numbered, and the engine reads it again with the js reader.
import type { NormalRule } from '../../semantics/model.js';
import type { RuleProgram } from '../../semantics/program.js';
import { MAP_FIELDS, TEXT_FIELDS, type RequestField } from '../coverage.js';
import { REDACTED } from '../redact.js';
import { DIALECT, type Dialect } from '../sql/dialects.js';
import { decisionColumns, leafSelect } from '../sql/emit.js';
import type { Fallbacks } from '../sql/leaves.js';
import { requiredLiteral } from './required-literal.js';

/** The fields in the order of the presence bits of a group. */
export const PRESENCE_ORDER: readonly RequestField[] = [...TEXT_FIELDS, ...MAP_FIELDS];
/** The fields whose unusable forms are counted, in the order of their bits. */
export const UNUSABLE_ORDER = ['country', 'asn', 'ip'] as const;
/** How many odd records a file may have before the whole file is read by the js reader instead. */
export const MAX_ODD_RECORDS = 10_000;

const COLUMNS = `{${TEXT_FIELDS.map((field) => `${field}: 'VARCHAR'`).join(', ')}, ${MAP_FIELDS.map((field) => `${field}: 'MAP(VARCHAR, VARCHAR)'`).join(', ')}}`;

/**
 * A text DuckDB may hold otherwise than JavaScript's String(), in texts joined after U+0001: an
 * object or a list read as its JSON text, or a number not written as JavaScript writes it (a
 * fraction, an exponent, leading zeros, -0, more digits than a double keeps). Strings of that
 * look are odd too: never wrong.
 */
const END = String.raw`(?:\x01|$)`;
const TEXT_NOT_AS_JS = String.raw`\x01(?:[\[{]|-0${END}|-?0[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?${END}|-?[0-9]+\.[0-9]+(?:[eE][+-]?[0-9]+)?${END}|-?[0-9]+[eE][+-]?[0-9]+${END}|-?[0-9]{16,}${END})`;
/** What makes the masking (redact.ts) look at a value: it may change it, so the value is odd. */
const MASKABLE = String.raw`[=@%]|(?i:\b(?:bearer|basic|token)\s)`;
const ASTRAL = String.raw`[\x{10000}-\x{10FFFF}]`;
const IPV4 = String.raw`(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])`;

export interface NativeQueryOptions {
  /** Fields read by a rule the change touches: a record lacking one is odd (its accounting is the js engine's). */
  fieldsRead: ReadonlySet<RequestField>;
  /** Header, query and custom parameter names masked whole (redact.ts secretNameTest). */
  isSecret: (name: string) => boolean;
  fallbacks: Fallbacks;
}

/** The query over one file (`?`: its path); rows: odd, d0…dn, presence bits, unusable bits, count, first rows, odd rows. */
export function nativeQuery(program: RuleProgram<NormalRule>, options: NativeQueryOptions, gzip: boolean): string {
  const read = readValues(program);
  const dialect: Dialect = {
    ...DIALECT.duckdb,
    // A secret-named parameter reaches the rules masked whole, as the js reader hands it on.
    mapValue: (column, name) => (options.isSecret(name) ? `(CASE WHEN ${DIALECT.duckdb.mapValue(column, name)} IS NULL THEN NULL ELSE ${DIALECT.duckdb.text(REDACTED)} END)` : DIALECT.duckdb.mapValue(column, name)),
    // RE2 only on the texts that hold what every match holds: `contains` costs a fraction of it.
    regex: (value, pattern) => {
      const literal = requiredLiteral(pattern);
      const test = DIALECT.duckdb.regex(value, pattern);
      return literal === undefined ? test : `(CASE WHEN contains(${value}, ${DIALECT.duckdb.text(literal)}) THEN ${test} ELSE FALSE END)`;
    },
  };
  const { leaves, columns } = decisionColumns(program, dialect, options.fallbacks);
  const source = `read_json(?, format = 'newline_delimited', columns = ${COLUMNS}, maximum_object_size = 262144, compression = '${gzip ? 'gzip' : 'uncompressed'}')`;
  const normalised = [
    ...TEXT_FIELDS.map((field) => (field === 'country' ? 'upper(country) AS country' : field === 'asn' ? String.raw`regexp_replace(asn, '^[aA][sS]([0-9]+)$', '\1') AS asn` : `"${field}"`)),
    ...MAP_FIELDS.map((field) => `"${field}"`),
  ];
  const records = `SELECT botrules_row, ${normalised.join(', ')}, ${oddSql(read, options)} AS botrules_odd FROM (SELECT row_number() OVER () AS botrules_row, * FROM ${source})`;
  const decided = columns.map((column, set) => `CASE WHEN botrules_odd THEN NULL ELSE ${column} END AS d${set}`);
  const presence = PRESENCE_ORDER.map((field, bit) => `(CASE WHEN ${carriedSql(field)} THEN ${2 ** bit} ELSE 0 END)`).join(' + ');
  const unusable = UNUSABLE_ORDER.map((field, bit) => `(CASE WHEN ${unusableSql(field)} THEN ${2 ** bit} ELSE 0 END)`).join(' + ');
  const rows = leafSelect(leaves, `(${records})`, dialect, 'botrules_row, botrules_odd, country, asn, ip, path, "headers", "query", custom, method, userAgent, domain, deviceType');
  const names = columns.map((_, set) => `d${set}`);
  return `SELECT botrules_odd, ${names.join(', ')}, p, u, CAST(count(*) AS BIGINT) AS n, min(botrules_row, 3) AS firsts, ` +
    `min(botrules_row, ${MAX_ODD_RECORDS + 1}) FILTER (WHERE botrules_odd) AS odd_rows ` +
    `FROM (SELECT botrules_row, botrules_odd, ${decided.join(', ')}, CASE WHEN botrules_odd THEN NULL ELSE ${presence} END AS p, CASE WHEN botrules_odd THEN NULL ELSE ${unusable} END AS u FROM (${rows})) GROUP BY ALL`;
}

/** The values the leaves read: text fields, and map entries by field and name. */
interface ReadValues {
  text: Set<RequestField>;
  entries: { field: RequestField; name: string }[];
  /** Fields read by a `$re` leaf: JavaScript and RE2 read characters beyond U+FFFF differently. */
  patterns: Set<string>;
}

function readValues(program: RuleProgram<NormalRule>): ReadValues {
  const text = new Set<RequestField>();
  const entries = new Map<string, { field: RequestField; name: string }>();
  const patterns = new Set<string>();
  for (const { leaf, field, name } of program.leaves) {
    const value = field === 'headers' || field === 'query' || field === 'custom' ? DIALECT.duckdb.mapValue(`"${field}"`, name) : `"${field}"`;
    if (field === 'headers' || field === 'query' || field === 'custom') entries.set(value, { field, name });
    else text.add(field);
    if (leaf.operator === '$re') patterns.add(value);
  }
  return { text, entries: [...entries.values()], patterns };
}

function oddSql(read: ReadValues, options: NativeQueryOptions): string {
  const odd: string[] = [];
  // Anything the js reader would read otherwise, or skip: a text that is no text (one pattern over all texts), a map value that is none.
  odd.push(`regexp_matches(${joined(TEXT_FIELDS.map((field) => `"${field}"`))}, '${TEXT_NOT_AS_JS}')`);
  for (const field of MAP_FIELDS) odd.push(`(${field} IS NOT NULL AND ${mapOdd(field)})`);
  // The js reader splits a path with a query string; trims and upper-cases countries and ASNs as Unicode does.
  odd.push(`contains(path, '?')`, `NOT regexp_full_match(concat(country, asn), '[A-Za-z0-9]*')`);
  // Masking may change what the rules read, and JavaScript's patterns read characters beyond U+FFFF as two: such values go to the js reader.
  const looked = [...[...read.text].filter((field) => field === 'userAgent' || field === 'path').map((field) => `"${field}"`),
    ...read.entries.filter(({ name }) => !options.isSecret(name)).map(({ field, name }) => DIALECT.duckdb.mapValue(`"${field}"`, name)), ...read.patterns];
  if (looked.length > 0) odd.push(`regexp_matches(${joined([...new Set(looked)])}, '${MASKABLE}|${ASTRAL}')`);
  // An address DuckDB cannot tell from text (IPv6), and a line carrying no field at all.
  odd.push(`(ip IS NOT NULL AND NOT regexp_full_match(ip, '${IPV4}') AND contains(ip, ':'))`);
  odd.push(`(${PRESENCE_ORDER.map((field) => `${field} IS NULL`).join(' AND ')})`);
  // Lacking a field a touched rule reads: the js engine's accounting says which outcomes hang on it.
  // (Custom parameters are never lacking in NDJSON: a line without any means the request had none.)
  for (const field of options.fieldsRead) if (field !== 'custom') odd.push(`NOT (${carriedSql(field)})`, ...(UNUSABLE_ORDER.includes(field as never) ? [unusableSqlRaw(field as (typeof UNUSABLE_ORDER)[number])] : []));
  return `coalesce(${odd.map((test) => `coalesce(${test}, FALSE)`).join(' OR ')}, FALSE)`;
}

/** Texts joined for one pattern over them all, each after the character U+0001 (absent ones empty). */
function joined(values: readonly string[]): string {
  return `concat(${values.map((value) => `chr(1), coalesce(${value}, '')`).join(', ')})`;
}

/**
 * A map the js reader would read otherwise: a value no text (null, list, object, a number not
 * written as JavaScript writes it), a header name with capitals, a name twice. Tested on the
 * list of values as text (`[a, b]`), whose element starts are enough: one pattern per map.
 */
function mapOdd(field: string): string {
  const column = `"${field}"`;
  const values = `regexp_matches(CAST(map_values(${column}) AS VARCHAR), '${MAP_VALUE_NOT_AS_JS}')`;
  const capitals = field === 'headers' ? ` OR regexp_matches(CAST(map_keys(${column}) AS VARCHAR), '[A-Z]')` : '';
  return `(${values}${capitals} OR (cardinality(${column}) > 1 AND len(list_distinct(map_keys(${column}))) <> cardinality(${column})))`;
}

/** An element of a list printed as text (`[a, NULL, 'x, y']`, quoted where DuckDB quotes) that starts as no text of JavaScript's would. */
const MAP_VALUE_NOT_AS_JS = String.raw`(?:^\[|, )\x27?(?:NULL(?:, |\]$)|[\[{]|-0|-?0[0-9]|-?[0-9]+\.[0-9]|-?[0-9]+[eE]|-?[0-9]{16})`;

/** Whether rules can read the field on a record (coverage.ts carries()): query comes with the path. */
function carriedSql(field: RequestField): string {
  if (field === 'query') return '(query IS NOT NULL OR path IS NOT NULL)';
  return `(${field === 'headers' || field === 'custom' ? `"${field}"` : field} IS NOT NULL)`;
}

/** A value carried in a form no rule matches (coverage.ts USABLE_FORM), on the normalised columns. */
function unusableSql(field: (typeof UNUSABLE_ORDER)[number]): string {
  switch (field) {
    case 'country': return `coalesce(NOT regexp_full_match(country, '[A-Z][A-Z0-9]'), FALSE)`;
    case 'asn': return `coalesce(NOT regexp_full_match(asn, '[0-9]+'), FALSE)`;
    case 'ip': return `coalesce(NOT regexp_full_match(ip, '${IPV4}'), FALSE)`;
  }
}

/** The same on the columns as read (before upper-casing and the ASN's prefix). */
function unusableSqlRaw(field: (typeof UNUSABLE_ORDER)[number]): string {
  switch (field) {
    case 'country': return `NOT regexp_full_match(upper(country), '[A-Z][A-Z0-9]')`;
    case 'asn': return String.raw`NOT regexp_full_match(asn, '(?:[aA][sS])?[0-9]+')`;
    case 'ip': return `NOT regexp_full_match(ip, '${IPV4}')`;
  }
}
