// The grouping query of the DuckDB engine's native reading (class-query.ts for the records and
// the first query; docs/replay.md, "Engines"): each record's class per field, by a join with the
// field's class table, a comparison with a few values, JavaScript's answer on a Parquet column's
// dictionary (CLASS_FUNCTION), or an IPv4 address's block and range; counted per tuple of classes
// with its first records and the odd ones.
import type { RequestField } from '../coverage.js';
import { DIALECT } from '../sql/dialects.js';
import { CLASS_FIELDS, CLASS_FUNCTION, classCode, MAX_ODD_RECORDS, records, type LogSource, type Numbering } from './class-query.js';
import { IPV4_BLOCKS } from './ipv4-blocks.js';

const quoted = DIALECT.duckdb.text;

/** The class tables the second query joins: one per field, (v, q for query, id, odd). */
export function classTable(field: RequestField): string {
  return `botrules_class_${field}`;
}

export function classTableSql(field: RequestField): string {
  return `CREATE OR REPLACE TEMP TABLE ${classTable(field)} (v VARCHAR, ${field === 'query' ? 'q VARCHAR, ' : ''}id INTEGER, odd BOOLEAN)`;
}

/**
 * How the second query finds a field's class: no value at all; one class for every value; a
 * few values, each compared (cheaper than a join); a join with the field's class table;
 * JavaScript's answer for each value (a Parquet file's text column, CLASS_FUNCTION); or the value
 * itself, grouped as it is and classed after the grouping, by distinct text (mergeQuery).
 */
export type FieldLookup =
  | { kind: 'none' }
  | { kind: 'function' }
  | { kind: 'raw' }
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
  /** The SQL naming the file, where it is no parameter (`?`). */
  file?: string;
}

/** The second query: rows (odd, k0…k10, count, first rows, odd rows). */
export function groupQuery(options: GroupQueryOptions): string {
  const joins: string[] = [];
  const oddTerms: string[] = [];
  const rawKeys: string[] = [];
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
      case 'function': {
        // An address has a text per request: asked only where it is no IPv4 one, which is rare.
        const code = field === 'ip' ? `${CLASS_FUNCTION}(${at}, ${text})` : `t.${classCode(field)}`;
        sql = `coalesce(${code} >> 1, 0)`;
        oddTerms.push(field === 'ip' ? `CASE WHEN ${present} THEN coalesce((${code} & 1) = 1, FALSE) ELSE FALSE END` : `coalesce((${code} & 1) = 1, FALSE)`);
        break;
      }
      case 'raw':
        // mergeQuery classes the texts; the query's path rides along.
        sql = text;
        if (field === 'query') rawKeys.push(`t.botrules_qpath AS k${at}q`);
        break;
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
  // A coded field's code is NULL where its text is: tested without reading the text again.
  const absent = (field: RequestField) => `${options.lookups.get(field)?.kind === 'function' && field !== 'ip' ? `t.${classCode(field)}` : field === 'query' ? 't.query' : `t."${field}"`} IS NULL`;
  const odd = [
    ...oddTerms,
    `(${CLASS_FIELDS.map(absent).join(' AND ')})`,
    ...[...options.fieldsRead].flatMap((field) => (field === 'custom' ? [] : field === 'query' ? [`(t.query IS NULL AND ${absent('path')})`] : [absent(field)])),
  ].join(' OR ');
  const keys = [...CLASS_FIELDS.map((_, at) => `k${at}`), ...rawKeys.map((key) => key.slice(key.lastIndexOf(' ') + 1))];
  const numbering = options.numbering ?? { numbered: true };
  const row = numbering.numbered ? 't.botrules_row' : 'CAST(NULL AS BIGINT) AS botrules_row';
  const coded = CLASS_FIELDS.filter((field) => field !== 'ip' && options.lookups.get(field)?.kind === 'function');
  const inner = `SELECT ${row}, ${[...classes.map((sql, at) => `${sql} AS k${at}`), ...rawKeys].join(', ')}, (${odd}) AS botrules_odd FROM ${records(options.source, numbering, options.ipv4, coded, options.file)} AS t ${joins.join(' ')}`;
  const rows = numbering.numbered ? `min(botrules_row, 3) AS firsts, min(botrules_row, ${MAX_ODD_RECORDS + 1}) FILTER (WHERE botrules_odd) AS odd_rows`
    : 'NULL AS firsts, NULL AS odd_rows';
  return `SELECT botrules_odd, ${keys.join(', ')}, CAST(count(*) AS BIGINT) AS n, ${rows} ` +
    `FROM (SELECT botrules_row, botrules_odd, ${keys.map((key) => `CASE WHEN botrules_odd THEN NULL ELSE ${key} END AS ${key}`).join(', ')} FROM (${inner})) GROUP BY ALL`;
}

/** The table a Parquet file's one reading keeps its groups in (groupQuery, `raw` fields by their texts). */
export const GROUPS_TABLE = 'botrules_groups';

/** The columns of GROUPS_TABLE holding a `raw` field's texts (`query`'s with the path): for its class table's rows. */
export function rawColumns(field: RequestField): string[] {
  const at = CLASS_FIELDS.indexOf(field);
  return field === 'query' ? [`k${at}`, `k${at}q`] : [`k${at}`];
}

/**
 * A Parquet file's one reading, second step: GROUPS_TABLE's groups, each `raw` field's texts
 * joined with its class table, merged per tuple of classes. Rows as groupQuery's.
 */
export function mergeQuery(lookups: ReadonlyMap<RequestField, FieldLookup>): string {
  const joins: string[] = [];
  const classes = CLASS_FIELDS.map((field, at) => {
    if (lookups.get(field)?.kind !== 'raw') return `g.k${at}`;
    const [text, path] = rawColumns(field) as [string, string | undefined];
    joins.push(`LEFT JOIN ${classTable(field)} AS c${at} ON g.${text} IS NOT DISTINCT FROM c${at}.v${path === undefined ? '' : ` AND g.${path} IS NOT DISTINCT FROM c${at}.q`}`);
    // Both texts absent: no class table row, class 0 (absent).
    return `coalesce(c${at}.id, 0)`;
  });
  const keys = CLASS_FIELDS.map((_, at) => `k${at}`);
  const merged = (column: string, count: number) => `list_slice(list_sort(flatten(list(${column}) FILTER (WHERE ${column} IS NOT NULL))), 1, ${count})`;
  return `SELECT botrules_odd, ${keys.join(', ')}, CAST(sum(n) AS BIGINT) AS n, ${merged('firsts', 3)} AS firsts, ${merged('odd_rows', MAX_ODD_RECORDS + 1)} AS odd_rows ` +
    `FROM (SELECT g.botrules_odd, ${classes.map((sql, at) => `${sql} AS k${at}`).join(', ')}, g.n, g.firsts, g.odd_rows FROM ${GROUPS_TABLE} AS g ${joins.join(' ')}) GROUP BY botrules_odd, ${keys.join(', ')}`;
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
