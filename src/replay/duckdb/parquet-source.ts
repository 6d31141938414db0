// A Parquet log read by DuckDB itself (read_parquet; docs/replay.md, "Engines"): the js reader's
// plan of the file's columns (parquet-columns.ts: the fields' own names or `replay.fields`)
// says which column each field is read from; DuckDB hands each column's values over as text,
// and each distinct value is read by that same plan, as a row holding just it. Only columns of
// the types whose text is what the js reader's Parquet decoder gives are read so: strings,
// integers DuckDB writes as JavaScript does, maps of strings; any other file is read by the js reader.
import type { ColumnPlan, FieldColumn } from '../parquet-columns.js';
import { REQUEST_FIELDS, type RequestField } from '../coverage.js';
import type { LogSource } from './class-query.js';
import { exactJson, type ValueReader } from './value-classes.js';

/** Integer types whose every value JavaScript's String() writes as DuckDB does (not 64-bit unsigned: hyparquet may read those signed). */
const INTEGERS = /^(?:TINYINT|SMALLINT|INTEGER|BIGINT|UTINYINT|USMALLINT|UINTEGER)$/;
const MAP_KINDS = new Set(['map', 'json', 'text']);

/** The column expression (before any cast) at a field's keys: a struct's field by struct_extract. */
export function columnAt(keys: readonly string[]): string {
  const [first = '', ...rest] = keys;
  return rest.reduce((sql, key) => `struct_extract(${sql}, '${key.replaceAll("'", "''")}')`, `"${first.replaceAll('"', '""')}"`);
}

/**
 * The source and the reader of a Parquet file whose plan DuckDB can follow, given the DuckDB
 * type of each field's column; or why not.
 */
export function parquetSource(plan: ColumnPlan, typeOf: (column: FieldColumn) => string): { source: LogSource; reader: ValueReader } | string {
  if (plan.format !== 'ndjson') return `its columns are read by the ${plan.format} preset`;
  const columns = new Map<RequestField, string>();
  // A `replay.fields` preset reads its columns its own way (one column, several fields).
  if (plan.fields.some((column) => !(REQUEST_FIELDS as readonly string[]).includes(column.field))) return 'replay.fields starts from a preset';
  for (const column of plan.fields) {
    const field = column.field as RequestField;
    const type = typeOf(column);
    const at = columnAt(column.keys);
    const map = field === 'headers' || field === 'query' || field === 'custom';
    if (map && column.kind === 'map' && type === 'MAP(VARCHAR, VARCHAR)') columns.set(field, `CAST(to_json(${at}) AS VARCHAR)`);
    else if (map && MAP_KINDS.has(column.kind) && (type === 'VARCHAR' || type === 'JSON')) columns.set(field, `CAST(${at} AS VARCHAR)`);
    // An empty string is an absent field to the js reader's plan (parquet-columns.ts prepareRow).
    else if (!map && column.kind === 'text' && type === 'VARCHAR') columns.set(field, `NULLIF(${at}, '')`);
    else if (!map && column.kind === 'integer' && INTEGERS.test(type)) columns.set(field, `CAST(${at} AS VARCHAR)`);
    else return `its column ${column.keys.join('.')} (${type}) is read by the js reader`;
  }
  const byField = new Map(plan.fields.map((column) => [column.field as RequestField, column]));
  return { source: { kind: 'parquet', columns }, reader: planReader(plan, byField) };
}

/** Each value read as a row holding only it (and, for `query`, the path), by the plan's own reader. */
function planReader(plan: ColumnPlan, byField: ReadonlyMap<RequestField, FieldColumn>): ValueReader {
  const place = (row: Record<string, unknown>, field: RequestField, value: unknown) => {
    const column = byField.get(field);
    if (column === undefined) return;
    let parent = row;
    for (const key of column.keys.slice(0, -1)) parent = (parent[key] ??= {}) as Record<string, unknown>;
    parent[column.keys.at(-1) ?? ''] = value;
  };
  // A map column's value is the JSON DuckDB wrote of it: an object, as the js reader's decoder gives it.
  const valueOf = (field: RequestField, raw: string) => (byField.get(field)?.kind === 'map' ? exactJson(raw) : raw);
  return {
    record(field, raw, path) {
      const row: Record<string, unknown> = {};
      if (raw !== null) {
        const value = valueOf(field, raw);
        if (value === undefined) return undefined;
        place(row, field, value);
      }
      if (path !== null) place(row, 'path', path);
      return row;
    },
    row(texts) {
      const row: Record<string, unknown> = {};
      for (const [field, raw] of texts) {
        if (raw === null) continue;
        const value = valueOf(field, raw);
        if (value === undefined) return undefined;
        place(row, field, value);
      }
      return row;
    },
    request(row) {
      const prepared = plan.prepare(row);
      return 'skip' in prepared ? prepared : plan.read(prepared.record);
    },
  };
}
