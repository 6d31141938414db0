// The two queries of the DuckDB engine's native reading (docs/replay.md, "Engines"). DuckDB
// reads an NDJSON log (read_json, gzip too) twice: first for each field's distinct values, which
// JavaScript sorts into classes (value-classes.ts) and hands back as one small table per field
// (value → class, and whether its records are odd); then for the groups: each record's class
// per field (a join with those tables; an IPv4 address's class by its block, ipv4-blocks.ts, or
// a binary search over the bounds of the rules' ranges), counted per tuple of classes with its first records.
// A Parquet file's text columns are classed in the grouping itself, by a function JavaScript
// answers (CLASS_FUNCTION): DuckDB calls it once per entry of a column's dictionary, not once per
// row, so such a file is read once for them. No rule is evaluated per record in SQL: JavaScript
// decides each tuple once.
import { isAddressLeaf } from '../../evaluate/leaf.js';
import { firstValue, leafValues } from '../../semantics/fields.js';
import type { NormalRule } from '../../semantics/model.js';
import type { RuleProgram } from '../../semantics/program.js';
import { MAP_FIELDS, TEXT_FIELDS, type RequestField } from '../coverage.js';
import { addressIntervals, IPV4 } from '../sql/addresses.js';

/** How many odd records a file may have before the whole file is read by the js reader instead. */
export const MAX_ODD_RECORDS = 10_000;
/** The fields in the order of the class columns (k0…k10) of the grouping query. */
export const CLASS_FIELDS: readonly RequestField[] = [...TEXT_FIELDS, ...MAP_FIELDS];

const COLUMNS = `{${TEXT_FIELDS.map((field) => `${field}: 'VARCHAR'`).join(', ')}, ${MAP_FIELDS.map((field) => `${field}: 'JSON'`).join(', ')}}`;

/**
 * Where the records come from: an NDJSON log DuckDB reads with read_json, or a Parquet file
 * with read_parquet, each field a column expression giving the text the js reader's plan reads
 * (parquet-source.ts).
 */
export type LogSource = { kind: 'ndjson'; gzip: boolean } | { kind: 'parquet'; columns: ReadonlyMap<RequestField, string> };

/**
 * How the grouping query reads the records: numbered in log order (which DuckDB does on one
 * thread), numbered up to the `prefix`-th record only, or unnumbered, on every thread.
 */
export type Numbering = { numbered: true; prefix?: number } | { numbered: false };

/**
 * The file's records (`?`: its path), with the path when it holds a query string, and the IPv4
 * address as a number; a Parquet file's with the codes of CLASS_FUNCTION for the fields
 * `coded`, taken as the file is read, where its columns are still dictionaries. `file`: the
 * SQL naming the file where a statement takes no parameter.
 */
export function records(source: LogSource, numbering: Numbering, ranges?: { bounds: readonly bigint[] }, coded: readonly RequestField[] = [], file = '?'): string {
  let base: string;
  const { numbered } = numbering;
  if (source.kind === 'ndjson') {
    const read = `read_json(${file}, format = 'newline_delimited', columns = ${COLUMNS}, maximum_object_size = 262144, compression = '${source.gzip ? 'gzip' : 'uncompressed'}')`;
    base = `(SELECT ${numbered ? 'row_number() OVER () AS botrules_row, ' : ''}* FROM ${read})`;
    // The filter makes the prefix exact whatever order LIMIT takes rows in; LIMIT stops the reading.
    if (numbering.numbered && numbering.prefix !== undefined) base = `(SELECT * FROM ${base} WHERE botrules_row <= ${Math.trunc(numbering.prefix)} LIMIT ${Math.trunc(numbering.prefix)})`;
  } else {
    // A Parquet file numbers its rows itself: the js reader's "line" of a row.
    const columns = CLASS_FIELDS.map((field) => `${source.columns.get(field) ?? 'CAST(NULL AS VARCHAR)'} AS "${field}"`);
    for (const field of coded) columns.push(`${CLASS_FUNCTION}(${CLASS_FIELDS.indexOf(field)}, CAST(${source.columns.get(field) ?? 'NULL'} AS VARCHAR)) AS ${classCode(field)}`);
    base = `(SELECT ${numbered ? 'CAST(file_row_number AS BIGINT) + 1 AS botrules_row, ' : ''}${columns.join(', ')} FROM read_parquet(${file}, file_row_number = true))`;
  }
  // Without range bounds an address's number is never compared: whether it is one is enough.
  const number = ranges === undefined || ranges.bounds.length > 0;
  const qpath = "CASE WHEN contains(path, '?') THEN path END AS botrules_qpath";
  if (!number) return `(SELECT *, ${qpath}, ${ipv4NumberSql('ip')} AS botrules_ipv4 FROM ${base})`;
  return `(SELECT * EXCLUDE (botrules_parts), ${qpath}, ${ipv4NumberSql('ip', 'botrules_parts')} AS botrules_ipv4 ` +
    `FROM (SELECT *, string_split(ip, '.') AS botrules_parts FROM ${base}))`;
}

/**
 * An IPv4 address's number, NULL where the text is no IPv4 address as isIP reads it (the form
 * of sql/addresses.ts); `parts`: the text split at its dots (a list column). The number is cast
 * from those parts once split: four split_part calls cost more per request than the form's
 * check and the rest of the class query together (bench/README.md, "Replay engines").
 * Without `parts`: 0 for an address (whether it is one is all the distinct values need).
 */
export function ipv4NumberSql(text: string, parts?: string): string {
  const value = parts === undefined ? '0' : [1, 2, 3, 4].map((at) => `CAST(CAST(${parts}[${at}] AS UTINYINT) AS BIGINT) * ${256 ** (4 - at)}`).join(' + ');
  return `CASE WHEN regexp_full_match(${text}, '${IPV4}') THEN ${value} END`;
}

/**
 * A Parquet file's rows at these numbers (1-based), each field's text as the class query reads it:
 * rows (number, one text per CLASS_FIELDS). DuckDB reads only the row groups that hold them.
 */
export function rowsQuery(columns: ReadonlyMap<RequestField, string>, rows: readonly number[]): string {
  const texts = CLASS_FIELDS.map((field) => `${columns.get(field) ?? 'CAST(NULL AS VARCHAR)'} AS "${field}"`);
  const wanted = rows.map((row) => String(Math.trunc(row) - 1)).join(', ');
  return `SELECT CAST(file_row_number AS BIGINT) + 1 AS botrules_row, ${texts.join(', ')} FROM read_parquet(?, file_row_number = true) WHERE file_row_number IN (${wanted})`;
}

/**
 * Whether IPv4 addresses are classed by the rules' ranges (every leaf on `ip` a range test or a
 * presence test); otherwise every address is a value of its own, classed by JavaScript.
 */
export function ipByRanges(program: RuleProgram<NormalRule>): boolean {
  return program.leaves.every(({ leaf, field }) => field !== 'ip' || isAddressLeaf(leaf) || leaf.operator === '$exists' || leaf.operator === '$notExists');
}

/** The sets of the first query, by the value of grouping_id: [field, the column read]. */
export interface DistinctSet {
  field: RequestField;
  /** With `query`: the path whose query string joins its parameters. */
  withPath: boolean;
  grouping: number;
}

/** The columns of the first query that collect a field's values (`query`'s with the path whose query string joins it). */
function distinctColumns(field: RequestField): string[] {
  return field === 'ip' ? ['botrules_ip'] : field === 'query' ? ['query', 'botrules_qpath'] : [field];
}

/**
 * The first query: the distinct values of these fields (`ip` only those no IPv4 range search
 * classes), rows (grouping, value, path).
 */
export function distinctQuery(source: LogSource, byRanges: boolean, fields: readonly RequestField[] = CLASS_FIELDS): { sql: string; sets: DistinctSet[] } {
  const columns = fields.flatMap(distinctColumns);
  const bit = (column: string) => 2 ** (columns.length - 1 - columns.indexOf(column));
  const all = 2 ** columns.length - 1;
  const sets: DistinctSet[] = fields.map((field) => ({ field, withPath: field === 'query', grouping: distinctColumns(field).reduce((left, column) => left - bit(column), all) }));
  const ip = byRanges ? 'CASE WHEN botrules_ipv4 IS NULL THEN ip END' : 'ip';
  const groupings = fields.map((field) => `(${distinctColumns(field).map((column) => `"${column}"`).join(', ')})`);
  const valued = columns.filter((column) => column !== 'botrules_qpath');
  const value = valued.length === 1 ? `CAST("${valued[0]}" AS VARCHAR)` : `coalesce(${valued.map((column) => `CAST("${column}" AS VARCHAR)`).join(', ')})`;
  const sql = `SELECT grouping_id(${columns.map((column) => `"${column}"`).join(', ')}) AS g, ${value} AS v, botrules_qpath AS q ` +
    `FROM (SELECT *, ${ip} AS botrules_ip FROM ${records(source, { numbered: false }, { bounds: [] })}) GROUP BY GROUPING SETS (${groupings.join(', ')})`;
  return { sql, sets };
}

/**
 * The function giving a value's class and whether its records are odd, as one code:
 * (class << 1) | odd, for (the field's place in CLASS_FIELDS, its text); NULL for no value.
 */
export const CLASS_FUNCTION = 'botrules_class';

/** The column of records() holding a field's code of CLASS_FUNCTION. */
export function classCode(field: RequestField): string {
  return `botrules_code_${CLASS_FIELDS.indexOf(field)}`;
}

/** Where IPv4 classes may change: the starts of the address leaves' ranges and the first numbers after them. */
export function ipv4Bounds(program: RuleProgram<NormalRule>): bigint[] {
  const bounds = new Set<bigint>();
  for (const { leaf, field } of program.leaves) {
    if (field !== 'ip' || !isAddressLeaf(leaf)) continue;
    const values = leaf.operator === '$eq' || leaf.operator === '$ne' ? [firstValue(leaf)] : leafValues(leaf);
    for (const [first, last] of addressIntervals(values).ipv4) {
      bounds.add(first);
      bounds.add(last + 1n);
    }
  }
  return [...bounds].filter((bound) => bound > 0n && bound <= 0xffff_ffffn).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** An IPv4 number as the address text the js reader would hold. */
export function ipv4Text(number: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((number >> shift) & 255n)).join('.');
}
