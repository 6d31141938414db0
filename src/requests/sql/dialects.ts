// How each SQL dialect spells what the emitter needs (docs/replay.md, "Where the traffic lives"):
// identifiers, text literals, a lookup in a map of names to texts that is NULL when the name is
// absent, the text tests, RE2 regular expressions and a cast to a 64-bit integer. The table's
// maps are DuckDB MAP(VARCHAR, VARCHAR), Trino map(varchar, varchar), BigQuery JSON and
// ClickHouse Map(String, String); their plain columns are nullable texts.

export const DIALECTS = ['duckdb', 'trino', 'bigquery', 'clickhouse'] as const;
export type DialectName = (typeof DIALECTS)[number];

export interface Dialect {
  name: DialectName;
  identifier(name: string): string;
  text(value: string): string;
  /** The value under `name` in a map column, NULL when the map does not hold it. */
  mapValue(column: string, name: string): string;
  contains(value: string, literal: string): string;
  startsWith(value: string, literal: string): string;
  endsWith(value: string, literal: string): string;
  /** Whether an RE2 pattern (partial match, as RegExp.test) matches. */
  regex(value: string, pattern: string): string;
  /** Whether the text is whole-matched by an RE2 pattern written without anchors. */
  fullRegex(value: string, pattern: string): string;
  /** Part `index` (1-based) of the text split at dots, as a 64-bit integer. */
  dottedPart(value: string, index: number): string;
  /** A boolean NULL: the verdict "undecided". */
  undecided: string;
  /** Whether the SQL engine behind the dialect runs RE2 itself (the pattern gives JavaScript's answer when it has a linear form). */
  re2: boolean;
}

/** Standard SQL quoting: a quote is written twice. */
const quoted = (value: string) => `'${value.replaceAll("'", "''")}'`;
/** Backslash-escaping string literals (BigQuery, ClickHouse). */
const escaped = (value: string) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n').replaceAll('\r', '\\r').replaceAll('\0', '\\0')}'`;

const duckdb: Dialect = {
  name: 'duckdb',
  identifier: (name) => `"${name.replaceAll('"', '""')}"`,
  text: quoted,
  mapValue: (column, name) => `${column}[${quoted(name)}]`,
  contains: (value, literal) => `contains(${value}, ${literal})`,
  startsWith: (value, literal) => `starts_with(${value}, ${literal})`,
  endsWith: (value, literal) => `suffix(${value}, ${literal})`,
  regex: (value, pattern) => `regexp_matches(${value}, ${quoted(pattern)})`,
  fullRegex: (value, pattern) => `regexp_full_match(${value}, ${quoted(pattern)})`,
  dottedPart: (value, index) => `CAST(split_part(${value}, '.', ${index}) AS BIGINT)`,
  undecided: 'CAST(NULL AS BOOLEAN)',
  re2: true,
};

const trino: Dialect = {
  name: 'trino',
  identifier: (name) => `"${name.replaceAll('"', '""')}"`,
  text: quoted,
  // element_at is NULL for an absent key (the subscript operator fails).
  mapValue: (column, name) => `element_at(${column}, ${quoted(name)})`,
  contains: (value, literal) => `strpos(${value}, ${literal}) > 0`,
  startsWith: (value, literal) => `starts_with(${value}, ${literal})`,
  endsWith: (value, literal) => `(length(${value}) >= length(${literal}) AND substr(${value}, length(${value}) - length(${literal}) + 1) = ${literal})`,
  regex: (value, pattern) => `regexp_like(${value}, ${quoted(pattern)})`,
  fullRegex: (value, pattern) => `regexp_like(${value}, ${quoted(`^(?:${pattern})\\z`)})`,
  dottedPart: (value, index) => `CAST(split_part(${value}, '.', ${index}) AS BIGINT)`,
  undecided: 'CAST(NULL AS BOOLEAN)',
  // Trino's default regular expression library is Joni (Java syntax), not RE2.
  re2: false,
};

const bigquery: Dialect = {
  name: 'bigquery',
  identifier: (name) => `\`${name.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``,
  text: escaped,
  mapValue: (column, name) => `JSON_VALUE(${column}[${escaped(name)}])`,
  contains: (value, literal) => `STRPOS(${value}, ${literal}) > 0`,
  startsWith: (value, literal) => `STARTS_WITH(${value}, ${literal})`,
  endsWith: (value, literal) => `ENDS_WITH(${value}, ${literal})`,
  regex: (value, pattern) => `REGEXP_CONTAINS(${value}, ${escaped(pattern)})`,
  fullRegex: (value, pattern) => `REGEXP_CONTAINS(${value}, ${escaped(`^(?:${pattern})\\z`)})`,
  dottedPart: (value, index) => `CAST(SPLIT(${value}, '.')[OFFSET(${index - 1})] AS INT64)`,
  undecided: 'CAST(NULL AS BOOL)',
  re2: true,
};

const clickhouse: Dialect = {
  name: 'clickhouse',
  identifier: (name) => `"${name.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`,
  text: escaped,
  // A Map answers '' for an absent key: absent must stay NULL.
  mapValue: (column, name) => `if(mapContains(${column}, ${escaped(name)}), ${column}[${escaped(name)}], NULL)`,
  contains: (value, literal) => `position(${value}, ${literal}) > 0`,
  startsWith: (value, literal) => `startsWith(${value}, ${literal})`,
  endsWith: (value, literal) => `endsWith(${value}, ${literal})`,
  regex: (value, pattern) => `match(${value}, ${escaped(pattern)})`,
  fullRegex: (value, pattern) => `match(${value}, ${escaped(`^(?:${pattern})\\z`)})`,
  dottedPart: (value, index) => `toInt64OrZero(splitByChar('.', ${value})[${index}])`,
  undecided: 'CAST(NULL AS Nullable(Bool))',
  re2: true,
};

export const DIALECT: Readonly<Record<DialectName, Dialect>> = { duckdb, trino, bigquery, clickhouse };
