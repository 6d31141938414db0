// The DuckDB engine's native reading of one NDJSON log by classes of values (class-query.ts for
// the queries, value-classes.ts for the classes; docs/replay.md, "Engines"): DuckDB's distinct
// values per field, classed in JavaScript, handed back as tables, and the groups of records per
// tuple of classes. Throws what DuckDB throws: the caller then reads the file with the js reader.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { NormalRule } from '../../semantics/model.js';
import type { RuleProgram } from '../../semantics/program.js';
import type { RequestField } from '../coverage.js';
import { CLASS_FIELDS, classTable, classTableSql, distinctQuery, fieldLookup, groupQuery, ipByRanges, ipv4Bounds, ipv4Text, type LogSource } from './class-query.js';
import { BLOCKED_BOUNDS, ipv4BlocksSql } from './ipv4-blocks.js';
import { ValueClasses, type ClassOptions, type ValueReader } from './value-classes.js';

/** Records of one tuple of classes (by CLASS_FIELDS): how many, and the first ones' numbers (ascending). */
export interface ClassGroup {
  classes: number[];
  count: number;
  firsts: number[];
}

export interface ClassReading {
  classes: ValueClasses;
  groups: ClassGroup[];
  /** The odd records: how many, and the first MAX_ODD_RECORDS + 1 numbers (ascending). */
  odd: { count: number; rows: number[] };
}

/** Reads the file twice (distinct values, then groups), `onProgress` told the share done (0..1). */
export async function readByClasses(connection: DuckDBConnection, program: RuleProgram<NormalRule>, file: string, source: LogSource, options: ClassOptions,
  onProgress?: (share: number) => void, reader?: ValueReader): Promise<ClassReading> {
  const classes = new ValueClasses(program, options, reader);
  const byRanges = ipByRanges(program);
  const distinct = distinctQuery(source, byRanges);
  const values = await withProgress(connection, onProgress, 0, () => connection.runAndReadAll(distinct.sql, [file]));
  const tables = new Map<RequestField, [string | null, string | null, number, boolean][]>(CLASS_FIELDS.map((field) => [field, []]));
  for (const [g, v, q] of values.getRows() as [unknown, string | null, string | null][]) {
    const set = distinct.sets.find((one) => one.grouping === Number(g));
    if (set === undefined || (v === null && q === null)) continue;
    const { field } = set;
    const id = classes.value(field, v, set.withPath ? q : null);
    tables.get(field)?.push([v, q, id, classes.of(field).classes[id]?.odd === true || classes.of(field).classes[id]?.lacking === true]);
  }
  const lookups = new Map(CLASS_FIELDS.map((field) => [field, fieldLookup(field, tables.get(field) ?? [])]));
  for (const [field, lookup] of lookups) if (lookup.kind === 'table') await fill(connection, field, tables.get(field) ?? []);
  const ipv4 = byRanges ? ipv4Classes(program, classes) : undefined;
  const blocks = ipv4 === undefined || ipv4.bounds.length < BLOCKED_BOUNDS ? new Map<16 | 24, string>() : ipv4BlocksSql(ipv4.bounds, ipv4.classes);
  for (const create of blocks.values()) await connection.run(create);
  const sql = groupQuery({ source, lookups, fieldsRead: options.fieldsRead, ...(ipv4 === undefined ? {} : { ipv4: { ...ipv4, blocks: [...blocks.keys()] } }) });
  // The class tables are small: DuckDB must build its hash tables on them, whatever it estimates of the log.
  await connection.run("SET disabled_optimizers = 'join_order,build_side_probe_side'");
  const grouped = await withProgress(connection, onProgress, 0.5, () => connection.runAndReadAll(sql, [file])).finally(() => connection.run("SET disabled_optimizers = ''"));
  const groups: ClassGroup[] = [];
  const odd = { count: 0, rows: [] as number[] };
  const list = (value: unknown) => ((value as { items: unknown[] } | null)?.items ?? []).map(Number).sort((a, b) => a - b);
  const at = 1 + CLASS_FIELDS.length;
  for (const row of grouped.getRows()) {
    if (row[0] === true) {
      odd.count += Number(row[at]);
      odd.rows = list(row[at + 2]);
    } else groups.push({ classes: row.slice(1, at).map(Number), count: Number(row[at]), firsts: list(row[at + 1]) });
  }
  return { classes, groups, odd };
}

/** The class of each part of the IPv4 space between the rules' range bounds, from its first address. */
function ipv4Classes(program: RuleProgram<NormalRule>, classes: ValueClasses): { bounds: bigint[]; classes: number[] } {
  const bounds = ipv4Bounds(program);
  return { bounds, classes: [0n, ...bounds].map((start) => classes.plain('ip', ipv4Text(start))) };
}

async function fill(connection: DuckDBConnection, field: RequestField, rows: readonly [string | null, string | null, number, boolean][]): Promise<void> {
  await connection.run(classTableSql(field));
  if (rows.length === 0) return;
  const appender = await connection.createAppender(classTable(field));
  for (const [v, q, id, odd] of rows) {
    if (v === null) appender.appendNull();
    else appender.appendVarchar(v);
    if (field === 'query') {
      if (q === null) appender.appendNull();
      else appender.appendVarchar(q);
    }
    appender.appendInteger(id);
    appender.appendBoolean(odd);
    appender.endRow();
  }
  appender.closeSync();
}

/** A query's progress told as a share from `from` to `from + 0.5`. */
async function withProgress<T>(connection: DuckDBConnection, onProgress: ((share: number) => void) | undefined, from: number, run: () => Promise<T>): Promise<T> {
  const timer = onProgress === undefined ? undefined : setInterval(() => {
    const { percentage } = connection.progress;
    if (percentage > 0) onProgress(from + Math.min(percentage, 100) / 200);
  }, 250);
  try {
    return await run();
  } finally {
    if (timer !== undefined) clearInterval(timer);
  }
}
