// How each SQL dialect spells what the emitter needs (docs/replay.md, "Where the traffic lives"):
// identifiers, text literals, a lookup in a map of names to texts that is NULL when the name is
// absent, the text tests, RE2 regular expressions and a cast to a 64-bit integer. The table's
// maps are DuckDB MAP(VARCHAR, VARCHAR), Trino map(varchar, varchar), BigQuery JSON and
// ClickHouse Map(String, String); their plain columns are nullable texts.

export const DIALECTS = ['duckdb', 'trino', 'bigquery', 'clickhouse'] as const;
export type DialectName = (typeof DIALECTS)[number];

export interface Dialect {
  name: DialectName;
  /** The column types the query expects, for the comment at its top. */
  textType: string;
  mapType: string;
  identifier(name: string): string;
  text(value: string): string;
  /** The value under `name` in a map column, NULL when the map does not hold it. */
  mapValue(column: string, name: string): string;
  contains(value: string, literal: string): string;
  startsWith(value: string, literal: string): string;
  endsWith(value: string, literal: string): string;
  /** Whether an RE2 pattern (partial match, as RegExp.test) matches. */
  regex(value: string, pattern: string): string;
  /** Whether the text is whole-matched by a pattern written without anchors (one that reads alike in RE2 and Java). */
  fullRegex(value: string, pattern: string): string;
  /** The text with the first match of a pattern ending in `$` replaced (no group references). */
  replaceRegex(value: string, pattern: string, replacement: string): string;
  /** Part `index` (1-based) of the text split at a one-character separator, '' or NULL past the last part. */
  textPart(value: string, separator: string, index: number): string;
  /** A text of decimal digits as a 64-bit integer, NULL (never an error) for any other text. */
  toInteger(value: string): string;
  /** Integer division of a non-negative integer. */
  integerDivide(value: string, divisor: number): string;
  /** The characters from `start` (1-based, an SQL integer) on; `substring` takes `length` of them. */
  substringFrom(value: string, start: string): string;
  substring(value: string, start: string, length: number): string;
  /** The text `times` (an SQL integer, 0 or more) over. */
  repeat(value: string, times: string): string;
  leftPad(value: string, length: number, fill: string): string;
  /** A boolean NULL: the verdict "undecided". */
  undecided: string;
  /** Whether the SQL engine behind the dialect runs RE2 itself (the pattern gives JavaScript's answer when it has a linear form). */
  re2: boolean;
}

/** Standard SQL quoting: a quote is written twice. */
const quoted = (value: string) => `'${value.replaceAll("'", "''")}'`;
/** Backslash-escaping string literals (BigQuery, ClickHouse). */
const escaped = (value: string) => `'${[...value].map(escapedCharacter).join('')}'`;

/** A backslash, a quote and every control character escaped (BigQuery and ClickHouse both read `\\xHH`). */
function escapedCharacter(char: string): string {
  if (char === '\\' || char === "'") return `\\${char}`;
  const code = char.codePointAt(0) ?? 0;
  return code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, '0')}` : char;
}

const duckdb: Dialect = {
  name: 'duckdb',
  textType: 'VARCHAR',
  mapType: 'MAP(VARCHAR, VARCHAR)',
  identifier: (name) => `"${name.replaceAll('"', '""')}"`,
  text: quoted,
  mapValue: (column, name) => `${column}[${quoted(name)}]`,
  contains: (value, literal) => `contains(${value}, ${literal})`,
  startsWith: (value, literal) => `starts_with(${value}, ${literal})`,
  endsWith: (value, literal) => `suffix(${value}, ${literal})`,
  regex: (value, pattern) => `regexp_matches(${value}, ${quoted(pattern)})`,
  fullRegex: (value, pattern) => `regexp_full_match(${value}, ${quoted(pattern)})`,
  replaceRegex: (value, pattern, replacement) => `regexp_replace(${value}, ${quoted(pattern)}, ${quoted(replacement)})`,
  textPart: (value, separator, index) => `split_part(${value}, ${quoted(separator)}, ${index})`,
  toInteger: (value) => `TRY_CAST(${value} AS BIGINT)`,
  integerDivide: (value, divisor) => `CAST(floor(${value} / ${divisor}) AS BIGINT)`,
  substringFrom: (value, start) => `substr(${value}, ${start})`,
  substring: (value, start, length) => `substr(${value}, ${start}, ${length})`,
  repeat: (value, times) => `repeat(${value}, ${times})`,
  leftPad: (value, length, fill) => `lpad(${value}, ${length}, ${quoted(fill)})`,
  undecided: 'CAST(NULL AS BOOLEAN)',
  re2: true,
};

const trino: Dialect = {
  name: 'trino',
  textType: 'varchar',
  mapType: 'map(varchar, varchar)',
  identifier: (name) => `"${name.replaceAll('"', '""')}"`,
  text: quoted,
  // element_at is NULL for an absent key (the subscript operator fails).
  mapValue: (column, name) => `element_at(${column}, ${quoted(name)})`,
  contains: (value, literal) => `strpos(${value}, ${literal}) > 0`,
  startsWith: (value, literal) => `starts_with(${value}, ${literal})`,
  endsWith: (value, literal) => `(length(${value}) >= length(${literal}) AND substr(${value}, length(${value}) - length(${literal}) + 1) = ${literal})`,
  regex: (value, pattern) => `regexp_like(${value}, ${quoted(pattern)})`,
  // \\A and \\z: in Java's syntax `$` also matches before a final line break.
  fullRegex: (value, pattern) => `regexp_like(${value}, ${quoted(`\\A(?:${pattern})\\z`)})`,
  replaceRegex: (value, pattern, replacement) => `regexp_replace(${value}, ${quoted(pattern)}, ${quoted(replacement)})`,
  textPart: (value, separator, index) => `split_part(${value}, ${quoted(separator)}, ${index})`,
  // try(CAST …) rather than TRY_CAST: the same in Trino, and node-sql-parser's Athena grammar reads it.
  toInteger: (value) => `try(CAST(${value} AS BIGINT))`,
  integerDivide: (value, divisor) => `CAST(floor(${value} / ${divisor}) AS BIGINT)`,
  substringFrom: (value, start) => `substr(${value}, ${start})`,
  substring: (value, start, length) => `substr(${value}, ${start}, ${length})`,
  // Trino's repeat() makes an array.
  repeat: (value, times) => `array_join(repeat(${value}, CAST(${times} AS INTEGER)), '')`,
  leftPad: (value, length, fill) => `lpad(${value}, ${length}, ${quoted(fill)})`,
  undecided: 'CAST(NULL AS BOOLEAN)',
  // Trino's default regular expression library is Joni (Java syntax), not RE2.
  re2: false,
};

const bigquery: Dialect = {
  name: 'bigquery',
  textType: 'STRING',
  mapType: 'JSON objects of strings',
  identifier: (name) => `\`${name.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``,
  text: escaped,
  mapValue: (column, name) => `JSON_VALUE(${column}[${escaped(name)}])`,
  contains: (value, literal) => `STRPOS(${value}, ${literal}) > 0`,
  startsWith: (value, literal) => `STARTS_WITH(${value}, ${literal})`,
  endsWith: (value, literal) => `ENDS_WITH(${value}, ${literal})`,
  regex: (value, pattern) => `REGEXP_CONTAINS(${value}, ${escaped(pattern)})`,
  fullRegex: (value, pattern) => `REGEXP_CONTAINS(${value}, ${escaped(`\\A(?:${pattern})\\z`)})`,
  replaceRegex: (value, pattern, replacement) => `REGEXP_REPLACE(${value}, ${escaped(pattern)}, ${escaped(replacement)})`,
  // SAFE_ forms: BigQuery may evaluate a CASE branch for rows the condition leaves out.
  // The CAST changes nothing but lets node-sql-parser read a subscript inside a call (tests parse the query with it).
  textPart: (value, separator, index) => `CAST(SPLIT(${value}, ${escaped(separator)})[SAFE_OFFSET(${index - 1})] AS STRING)`,
  toInteger: (value) => `SAFE_CAST(${value} AS INT64)`,
  integerDivide: (value, divisor) => `DIV(${value}, ${divisor})`,
  substringFrom: (value, start) => `SUBSTR(${value}, ${start})`,
  substring: (value, start, length) => `SUBSTR(${value}, ${start}, ${length})`,
  repeat: (value, times) => `REPEAT(${value}, ${times})`,
  leftPad: (value, length, fill) => `LPAD(${value}, ${length}, ${escaped(fill)})`,
  undecided: 'CAST(NULL AS BOOL)',
  re2: true,
};

const clickhouse: Dialect = {
  name: 'clickhouse',
  textType: 'Nullable(String)',
  mapType: 'Map(String, String)',
  identifier: (name) => `"${name.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`,
  text: escaped,
  // A Map answers '' for an absent key: absent must stay NULL.
  mapValue: (column, name) => `if(mapContains(${column}, ${escaped(name)}), ${column}[${escaped(name)}], NULL)`,
  contains: (value, literal) => `position(${value}, ${literal}) > 0`,
  startsWith: (value, literal) => `startsWith(${value}, ${literal})`,
  endsWith: (value, literal) => `endsWith(${value}, ${literal})`,
  regex: (value, pattern) => `match(${value}, ${escaped(pattern)})`,
  fullRegex: (value, pattern) => `match(${value}, ${escaped(`\\A(?:${pattern})\\z`)})`,
  replaceRegex: (value, pattern, replacement) => `replaceRegexpOne(${value}, ${escaped(pattern)}, ${escaped(replacement)})`,
  // An array cannot be Nullable: a NULL text is split as ''.
  textPart: (value, separator, index) => `splitByChar(${escaped(separator)}, ifNull(${value}, ''))[${index}]`,
  toInteger: (value) => `toInt64OrNull(${value})`,
  integerDivide: (value, divisor) => `intDiv(${value}, ${divisor})`,
  substringFrom: (value, start) => `substring(${value}, ${start})`,
  substring: (value, start, length) => `substring(${value}, ${start}, ${length})`,
  repeat: (value, times) => `repeat(${value}, toUInt32(${times}))`,
  leftPad: (value, length, fill) => `leftPad(${value}, ${length}, ${escaped(fill)})`,
  undecided: 'CAST(NULL AS Nullable(Bool))',
  re2: true,
};

export const DIALECT: Readonly<Record<DialectName, Dialect>> = { duckdb, trino, bigquery, clickhouse };
