// The two queries of the DuckDB engine's native reading (docs/replay.md, "Engines"). DuckDB
// reads an NDJSON log (read_json, gzip too) twice: first for each field's distinct values, which
// JavaScript sorts into classes (value-classes.ts) and hands back as one small table per field
// (value → class, and whether its records are odd); then for the groups: each record's class
// per field (a join with those tables; an IPv4 address's class by its block, ipv4-blocks.ts, or
// a binary search over the bounds of the rules' ranges), counted per tuple of classes with its first records. No rule is
// evaluated per record in SQL: JavaScript decides each tuple once.
import { isAddressLeaf } from '../../evaluate/leaf.js';
import { firstValue, leafValues } from '../../semantics/fields.js';
import type { NormalRule } from '../../semantics/model.js';
import type { RuleProgram } from '../../semantics/program.js';
import { MAP_FIELDS, TEXT_FIELDS, type RequestField } from '../coverage.js';
import { addressIntervals, IPV4 } from '../sql/addresses.js';
import { DIALECT } from '../sql/dialects.js';
import { IPV4_BLOCKS } from './ipv4-blocks.js';

const quoted = DIALECT.duckdb.text;

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

/** The file's records (`?`: its path), with the path when it holds a query string, and the IPv4 address as a number. */
function records(source: LogSource, numbering: Numbering, ranges?: { bounds: readonly bigint[] }): string {
  let base: string;
  const { numbered } = numbering;
  if (source.kind === 'ndjson') {
    const read = `read_json(?, format = 'newline_delimited', columns = ${COLUMNS}, maximum_object_size = 262144, compression = '${source.gzip ? 'gzip' : 'uncompressed'}')`;
    base = `(SELECT ${numbered ? 'row_number() OVER () AS botrules_row, ' : ''}* FROM ${read})`;
    // The filter makes the prefix exact whatever order LIMIT takes rows in; LIMIT stops the reading.
    if (numbering.numbered && numbering.prefix !== undefined) base = `(SELECT * FROM ${base} WHERE botrules_row <= ${Math.trunc(numbering.prefix)} LIMIT ${Math.trunc(numbering.prefix)})`;
  } else {
    // A Parquet file numbers its rows itself: the js reader's "line" of a row.
    const columns = CLASS_FIELDS.map((field) => `${source.columns.get(field) ?? 'CAST(NULL AS VARCHAR)'} AS "${field}"`);
    base = `(SELECT ${numbered ? 'CAST(file_row_number AS BIGINT) + 1 AS botrules_row, ' : ''}${columns.join(', ')} FROM read_parquet(?, file_row_number = true))`;
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

const DISTINCT_COLUMNS = [...CLASS_FIELDS.filter((field) => field !== 'ip'), 'botrules_ip', 'botrules_qpath'];

/** The first query: each field's distinct values (`ip` only those no IPv4 range search classes), rows (grouping, value, path). */
export function distinctQuery(source: LogSource, byRanges: boolean): { sql: string; sets: DistinctSet[] } {
  const bit = (column: string) => 2 ** (DISTINCT_COLUMNS.length - 1 - DISTINCT_COLUMNS.indexOf(column));
  const all = 2 ** DISTINCT_COLUMNS.length - 1;
  const sets: DistinctSet[] = CLASS_FIELDS.map((field) => {
    const columns = field === 'ip' ? ['botrules_ip'] : field === 'query' ? ['query', 'botrules_qpath'] : [field];
    return { field, withPath: field === 'query', grouping: columns.reduce((left, column) => left - bit(column), all) };
  });
  const ip = byRanges ? 'CASE WHEN botrules_ipv4 IS NULL THEN ip END' : 'ip';
  const groupings = sets.map(({ field }) => (field === 'ip' ? '(botrules_ip)' : field === 'query' ? '(query, botrules_qpath)' : `("${field}")`));
  const value = `coalesce(${DISTINCT_COLUMNS.slice(0, -1).map((column) => `CAST("${column}" AS VARCHAR)`).join(', ')})`;
  const sql = `SELECT grouping_id(${DISTINCT_COLUMNS.map((column) => `"${column}"`).join(', ')}) AS g, ${value} AS v, botrules_qpath AS q ` +
    `FROM (SELECT *, ${ip} AS botrules_ip FROM ${records(source, { numbered: false }, { bounds: [] })}) GROUP BY GROUPING SETS (${groupings.join(', ')})`;
  return { sql, sets };
}

/** The class tables the second query joins: one per field, (v, q for query, id, odd). */
export function classTable(field: RequestField): string {
  return `botrules_class_${field}`;
}

export function classTableSql(field: RequestField): string {
  return `CREATE OR REPLACE TEMP TABLE ${classTable(field)} (v VARCHAR, ${field === 'query' ? 'q VARCHAR, ' : ''}id INTEGER, odd BOOLEAN)`;
}

/**
 * How the second query finds a field's class: no value at all; one class for every value; a
 * few values, each compared (cheaper than a join); or a join with the field's class table.
 */
export type FieldLookup =
  | { kind: 'none' }
  | { kind: 'one'; id: number; odd: boolean }
  | { kind: 'values'; values: { v: string; id: number; odd: boolean }[] }
  | { kind: 'table' };

/** Up to how many values a field's classes are compared one by one rather than joined. */
const COMPARED_VALUES = 24;

/** The lookup for a field's classed values (v, q, id, odd). */
export function fieldLookup(field: RequestField, rows: readonly (readonly [string | null, string | null, number, boolean])[]): FieldLookup {
  if (rows.length === 0) return { kind: 'none' };
  const [, , id, odd] = rows[0] as readonly [string | null, string | null, number, boolean];
  // The path joins the query's class: one class of query parameters is one whatever the path.
  if (rows.every((row) => row[2] === id && row[3] === odd)) return { kind: 'one', id, odd };
  if (field !== 'query' && rows.length <= COMPARED_VALUES && rows.every(([v]) => v !== null && !v.includes('\0'))) {
    return { kind: 'values', values: rows.map(([v, , one, isOdd]) => ({ v: v as string, id: one, odd: isOdd })) };
  }
  return { kind: 'table' };
}

export interface GroupQueryOptions {
  source: LogSource;
  lookups: ReadonlyMap<RequestField, FieldLookup>;
  /** The IPv4 classes by range (ipByRanges): the bounds where a class starts, ascending, and the class of each part (one more than bounds). */
  ipv4?: { bounds: bigint[]; classes: number[]; blocks?: readonly (16 | 24)[] };
  /** Fields a rule the change touches reads: a record lacking one is odd. */
  fieldsRead: ReadonlySet<RequestField>;
  /** Numbered in log order unless said otherwise (without numbers: no first records). */
  numbering?: Numbering;
}

/** The second query: rows (odd, k0…k10, count, first rows, odd rows). */
export function groupQuery(options: GroupQueryOptions): string {
  const joins: string[] = [];
  const oddTerms: string[] = [];
  const classes = CLASS_FIELDS.map((field, at) => {
    const lookup = options.lookups.get(field) ?? { kind: 'none' };
    const column = field === 'query' ? 't.query' : `t."${field}"`;
    const text = `CAST(${column} AS VARCHAR)`;
    // A field with a query string in its path has classes even where the query itself is absent.
    const present = field === 'query' ? `(${column} IS NOT NULL OR t.botrules_qpath IS NOT NULL)`
      : field === 'ip' && options.ipv4 !== undefined ? `(${column} IS NOT NULL AND t.botrules_ipv4 IS NULL)` : `${column} IS NOT NULL`;
    let sql: string;
    switch (lookup.kind) {
      case 'none': sql = '0'; break;
      case 'one':
        sql = `CASE WHEN ${present} THEN ${lookup.id} ELSE 0 END`;
        if (lookup.odd) oddTerms.push(present);
        break;
      case 'values': {
        sql = `CASE ${text} ${lookup.values.map(({ v, id }) => `WHEN ${quoted(v)} THEN ${id}`).join(' ')} ELSE 0 END`;
        const odd = lookup.values.filter((value) => value.odd);
        if (odd.length > 0) oddTerms.push(`${text} IN (${odd.map(({ v }) => quoted(v)).join(', ')})`);
        break;
      }
      case 'table': {
        const on = field === 'query' ? `${text} IS NOT DISTINCT FROM c${at}.v AND t.botrules_qpath IS NOT DISTINCT FROM c${at}.q` : `${text} = c${at}.v`;
        joins.push(`LEFT JOIN ${classTable(field)} AS c${at} ON ${on}`);
        sql = `coalesce(c${at}.id, 0)`;
        oddTerms.push(`coalesce(c${at}.odd, FALSE)`);
        break;
      }
    }
    return field === 'ip' && options.ipv4 !== undefined ? `CASE WHEN t.botrules_ipv4 IS NOT NULL THEN ${ipv4ClassSql(options.ipv4)} ELSE ${sql} END` : sql;
  });
  // The blocks' tables (ipv4-blocks.ts) first: the class tables' joins do not move the address.
  joins.unshift(...ipv4BlockJoins(options.ipv4?.blocks ?? []));
  const odd = [
    ...oddTerms,
    `(${CLASS_FIELDS.map((field) => `t."${field}" IS NULL`).join(' AND ')})`,
    ...[...options.fieldsRead].flatMap((field) => (field === 'custom' ? [] : field === 'query' ? ['(t.query IS NULL AND t.path IS NULL)'] : [`t."${field}" IS NULL`])),
  ].join(' OR ');
  const keys = CLASS_FIELDS.map((_, at) => `k${at}`);
  const numbering = options.numbering ?? { numbered: true };
  const row = numbering.numbered ? 't.botrules_row' : 'CAST(NULL AS BIGINT) AS botrules_row';
  const inner = `SELECT ${row}, ${classes.map((sql, at) => `${sql} AS k${at}`).join(', ')}, (${odd}) AS botrules_odd FROM ${records(options.source, numbering, options.ipv4)} AS t ${joins.join(' ')}`;
  const rows = numbering.numbered ? `min(botrules_row, 3) AS firsts, min(botrules_row, ${MAX_ODD_RECORDS + 1}) FILTER (WHERE botrules_odd) AS odd_rows`
    : 'NULL AS firsts, NULL AS odd_rows';
  return `SELECT botrules_odd, ${keys.join(', ')}, CAST(count(*) AS BIGINT) AS n, ${rows} ` +
    `FROM (SELECT botrules_row, botrules_odd, ${keys.map((key) => `CASE WHEN botrules_odd THEN NULL ELSE ${key} END AS ${key}`).join(', ')} FROM (${inner})) GROUP BY ALL`;
}

/** The joins with the blocks' tables of these sizes (ipv4-blocks.ts), on the number `t.botrules_ipv4`. */
export function ipv4BlockJoins(blocks: readonly (16 | 24)[]): string[] {
  return blocks.map((bits) => `LEFT JOIN ${IPV4_BLOCKS[bits]} AS b${bits} ON b${bits}.p = (t.botrules_ipv4 >> ${32 - bits})`);
}

/** The class of the IPv4 number `t.botrules_ipv4`: its block's (ipv4BlockJoins), else a search among the bounds. */
export function ipv4ClassSql({ bounds, classes, blocks }: NonNullable<GroupQueryOptions['ipv4']>): string {
  const search = rangeSearch(bounds, classes);
  return blocks === undefined || blocks.length === 0 ? search : `coalesce(${blocks.map((bits) => `b${bits}.c`).join(', ')}, ${search})`;
}

/** A binary search over the bounds as nested CASE: a few comparisons per record, however many ranges. */
function rangeSearch(bounds: readonly bigint[], classes: readonly number[]): string {
  const search = (from: number, to: number): string => {
    // Parts from..to (part i lies from bounds[i - 1] up to bounds[i]).
    if (from === to) return String(classes[from]);
    const middle = Math.ceil((from + to) / 2);
    return `CASE WHEN t.botrules_ipv4 < ${bounds[middle - 1]} THEN ${search(from, middle - 1)} ELSE ${search(middle, to)} END`;
  };
  return search(0, bounds.length);
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
