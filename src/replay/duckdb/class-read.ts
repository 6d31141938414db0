// The DuckDB engine's native reading of one NDJSON log by classes of values (class-query.ts for
// the queries, value-classes.ts for the classes; docs/replay.md, "Engines"): DuckDB's distinct
// values per field, classed in JavaScript, handed back as tables, and the groups of records per
// tuple of classes: counted on every thread, their first records numbered apart, as far into the
// log as the caller asks. Throws what DuckDB throws: the caller then reads the file with the js reader.
import type { DuckDBConnection, DuckDBListVector, DuckDBMaterializedResult, DuckDBVector } from '@duckdb/node-api';
import type { NormalRule } from '../../semantics/model.js';
import type { RuleProgram } from '../../semantics/program.js';
import { MAP_FIELDS, TEXT_FIELDS, type RequestField } from '../coverage.js';
import { CLASS_FIELDS, distinctQuery, ipByRanges, ipv4Bounds, ipv4Text, type LogSource, type Numbering } from './class-query.js';
import { classTable, classTableSql, fieldLookup, GROUPS_TABLE, groupQuery, mergeQuery, rawColumns, type FieldLookup } from './group-query.js';
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
  /** Each group's first records: none until `number` found them. */
  groups: ClassGroup[];
  /** The odd records: how many, and the first MAX_ODD_RECORDS + 1 numbers (ascending; none until `number` found them). */
  odd: { count: number; rows: number[] };
  /** Whether the groups and odd records already hold their first records (a Parquet file's: its rows are numbered on every thread). */
  numbered: boolean;
  /** Whether DuckDB read the file once (a Parquet file's addresses classed by range, no text grouped as it is odd). */
  once: boolean;
  /**
   * Numbers the log's first `prefix` records (all of them without one) and puts each group's
   * first records and the odd rows found among them into `groups` and `odd`, in place.
   */
  number: (prefix?: number) => Promise<void>;
}

/**
 * Where the grouping query asks JavaScript for a value's class (class-query.ts CLASS_FUNCTION):
 * `answer` is set to this reading's classes before its query runs.
 */
export interface ClassFunction {
  answer: (field: RequestField, text: string) => { id: number; odd: boolean };
}

/**
 * A Parquet file's text columns other than the address are classed by the function, on their
 * dictionaries (group-query.ts); the address has a value per request, the maps no dictionary.
 */
function classedByFunction(source: LogSource): RequestField[] {
  return source.kind === 'parquet' ? TEXT_FIELDS.filter((field) => field !== 'ip' && source.columns.has(field)) : [];
}

/** A Parquet file read once (group-query.ts mergeQuery): the maps grouped by their texts. */
const FILE_VARIABLE = 'botrules_file';
/** How many texts of a field the class function keeps the answer of. */
const ANSWERS_KEPT = 65_536;
const GROUPED_BY_TEXT: ReadonlySet<RequestField> = new Set(MAP_FIELDS);

/**
 * Reads the file: a Parquet file once where it can (below), else its distinct values, then its
 * groups; `onProgress` told the share done (0..1).
 */
export async function readByClasses(connection: DuckDBConnection, program: RuleProgram<NormalRule>, file: string, source: LogSource, options: ClassOptions,
  classFunction: ClassFunction, onProgress?: (share: number) => void, reader?: ValueReader): Promise<ClassReading> {
  const classes = new ValueClasses(program, options, reader);
  const byRanges = ipByRanges(program);
  const isOdd = (field: RequestField, id: number) => classes.of(field).classes[id]?.odd === true || classes.of(field).classes[id]?.lacking === true;
  const byFunction = classedByFunction(source);
  // Each row group hands over its own dictionary, mostly the texts of the one before: each
  // text classed once (up to a bound, so that texts seldom repeated do not fill the memory).
  const answered = new Map<RequestField, Map<string, { id: number; odd: boolean }>>(CLASS_FIELDS.map((field) => [field, new Map()]));
  classFunction.answer = (field, text) => {
    const known = answered.get(field);
    const found = known?.get(text);
    if (found !== undefined) return found;
    const id = classes.value(field, text);
    const answer = { id, odd: isOdd(field, id) };
    if (known !== undefined && known.size < ANSWERS_KEPT) known.set(text, answer);
    return answer;
  };
  const ipv4 = byRanges ? ipv4Classes(program, classes) : undefined;
  const blocks = ipv4 === undefined || ipv4.bounds.length < BLOCKED_BOUNDS ? new Map<16 | 24, string>() : ipv4BlocksSql(ipv4.bounds, ipv4.classes);
  for (const create of blocks.values()) await connection.run(create);
  const ranges = ipv4 === undefined ? {} : { ipv4: { ...ipv4, blocks: [...blocks.keys()] } };
  const group = async (sql: string, params: string[], progress: ((share: number) => void) | undefined, from: number, span: number) => {
    // The class tables are small: DuckDB must build its hash tables on them, whatever it estimates of the log.
    await connection.run("SET disabled_optimizers = 'join_order,build_side_probe_side'");
    const grouped = await withProgress(connection, progress, from, span, () => connection.run(sql, params)).finally(() => connection.run("SET disabled_optimizers = ''"));
    return groupRows(grouped);
  };
  // A Parquet file is read once where its addresses are classed by range (bench/README.md,
  // "Parquet by dictionaries"): its groups, the maps by their texts, kept in a table; their
  // distinct texts classed; the groups merged. A text so grouped that proves odd has records no
  // query numbered: the file is then read as an NDJSON log is, its distinct values first.
  if (source.kind === 'parquet' && ipv4 !== undefined) {
    const lookups = new Map<RequestField, FieldLookup>(CLASS_FIELDS.map((field) => [field, byFunction.includes(field) || field === 'ip' ? { kind: 'function' } : GROUPED_BY_TEXT.has(field) ? { kind: 'raw' } : { kind: 'none' }]));
    // A statement that creates a table takes no parameters: the file's name is a variable.
    await connection.run(`SET VARIABLE ${FILE_VARIABLE} = ?`, [file]);
    const sql = `CREATE OR REPLACE TEMP TABLE ${GROUPS_TABLE} AS ${groupQuery({ source, lookups, fieldsRead: options.fieldsRead, file: `getvariable('${FILE_VARIABLE}')`, ...ranges })}`;
    await withProgress(connection, onProgress, 0, 1, () => connection.run(sql));
    try {
      if (await classGroupedTexts(connection, classes, isOdd)) return { classes, ...(await group(mergeQuery(lookups), [], undefined, 1, 0)), numbered: true, once: true, number: () => Promise.resolve() };
    } finally {
      await connection.run(`DROP TABLE IF EXISTS ${GROUPS_TABLE}`);
    }
  }
  const tables = new Map<RequestField, [string | null, string | null, number, boolean][]>(CLASS_FIELDS.map((field) => [field, []]));
  const distinctFields = CLASS_FIELDS.filter((field) => !byFunction.includes(field));
  const distinct = distinctQuery(source, byRanges, distinctFields);
  const values = await withProgress(connection, onProgress, 0, 0.5, () => connection.runAndReadAll(distinct.sql, [file]));
  for (const [g, v, q] of values.getRows() as [unknown, string | null, string | null][]) {
    const set = distinct.sets.find((one) => one.grouping === Number(g));
    if (set === undefined || (v === null && q === null)) continue;
    const { field } = set;
    const id = classes.value(field, v, set.withPath ? q : null);
    tables.get(field)?.push([v, q, id, isOdd(field, id)]);
  }
  const lookups = new Map<RequestField, FieldLookup>(CLASS_FIELDS.map((field) => [field, byFunction.includes(field) ? { kind: 'function' } : fieldLookup(field, tables.get(field) ?? [])]));
  for (const [field, lookup] of lookups) if (lookup.kind === 'table') await fill(connection, field, tables.get(field) ?? []);
  const query = (numbering: Numbering) => groupQuery({ source, lookups, fieldsRead: options.fieldsRead, numbering, ...ranges });
  // A Parquet file numbers its rows on every thread (read_parquet's file_row_number): one
  // numbered reading. Counting unnumbered first and numbering the first row groups after cost
  // as much or more (bench/README.md, "The duckdb engine, issue #37, round 6").
  if (source.kind === 'parquet') return { classes, ...(await group(query({ numbered: true }), [file], onProgress, 0.5, 0.5)), numbered: true, once: false, number: () => Promise.resolve() };
  // An NDJSON log is numbered on one thread only (row_number): counted on every thread, its
  // first records numbered apart, only as far as the caller needs (docs/replay.md, "Engines").
  const counted = await group(query({ numbered: false }), [file], onProgress, 0.5, 0.5);
  const number = async (prefix?: number) => firstsInto(counted, await group(query(prefix === undefined ? { numbered: true } : { numbered: true, prefix }), [file], undefined, 0.5, 0.5));
  return { classes, ...counted, numbered: false, once: false, number };
}

/**
 * GROUPS_TABLE's distinct texts of each field grouped by them, classed into the field's class
 * table; false, and no table filled, where one is odd.
 */
async function classGroupedTexts(connection: DuckDBConnection, classes: ValueClasses, isOdd: (field: RequestField, id: number) => boolean): Promise<boolean> {
  const tables = new Map<RequestField, [string | null, string | null, number, boolean][]>();
  for (const field of GROUPED_BY_TEXT) {
    const columns = rawColumns(field);
    const texts = await connection.runAndReadAll(`SELECT DISTINCT ${columns.join(', ')} FROM ${GROUPS_TABLE} WHERE ${columns.map((column) => `${column} IS NOT NULL`).join(' OR ')}`);
    const rows: [string | null, string | null, number, boolean][] = [];
    for (const [v = null, q = null] of texts.getRows() as [string | null, string | null][]) {
      const id = classes.value(field, v, q);
      if (isOdd(field, id)) return false;
      rows.push([v, q, id, false]);
    }
    tables.set(field, rows);
  }
  for (const [field, rows] of tables) await fill(connection, field, rows);
  return true;
}

/**
 * The grouping query's rows: (odd, k0…k10, count, first rows, odd rows), read a chunk's columns
 * at a time: a row array and a list value per group (getRows) cost as much as a third of the
 * groups' decisions where a log has many groups.
 */
export function groupRows(result: DuckDBMaterializedResult): Pick<ClassReading, 'groups' | 'odd'> {
  const groups: ClassGroup[] = [];
  const odd = { count: 0, rows: [] as number[] };
  const at = 1 + CLASS_FIELDS.length;
  for (let index = 0; index < result.chunkCount; index++) {
    const chunk = result.getChunk(index);
    const [isOdd, count, firsts, oddRows] = [0, at, at + 1, at + 2].map((column) => chunk.getColumnVector(column)) as [DuckDBVector, DuckDBVector, DuckDBVector, DuckDBVector];
    const keys = CLASS_FIELDS.map((_, key) => chunk.getColumnVector(1 + key));
    for (let row = 0; row < chunk.rowCount; row++) {
      if (isOdd.getItem(row) === true) {
        odd.count += Number(count.getItem(row));
        odd.rows = listAt(oddRows, row);
      } else groups.push({ classes: keys.map((key) => Number(key.getItem(row))), count: Number(count.getItem(row)), firsts: listAt(firsts, row) });
    }
  }
  return { groups, odd };
}

/** A list column's numbers at a row, ascending; none where it is NULL (an unnumbered reading's column is no list at all). */
function listAt(column: DuckDBVector, row: number): number[] {
  const items = 'getItemVector' in column ? (column as DuckDBListVector).getItemVector(row) : null;
  const numbers: number[] = [];
  if (items !== null) for (let item = 0; item < items.itemCount; item++) numbers.push(Number(items.getItem(item)));
  return numbers.sort((a, b) => a - b);
}

/** The first records a numbered reading found, into the counted groups (in place: the caller holds them). */
function firstsInto(counted: Pick<ClassReading, 'groups' | 'odd'>, numbered: Pick<ClassReading, 'groups' | 'odd'>): void {
  const byClasses = new Map(counted.groups.map((one) => [one.classes.join(','), one]));
  for (const found of numbered.groups) {
    const one = byClasses.get(found.classes.join(','));
    // Each reading of the same file must find the same groups.
    if (one === undefined || found.count > one.count) throw new Error('DuckDB did not read the log alike twice');
    one.firsts.splice(0, one.firsts.length, ...found.firsts);
  }
  if (numbered.odd.count > counted.odd.count) throw new Error('DuckDB did not read the log alike twice');
  counted.odd.rows = numbered.odd.rows;
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

/** A query's progress told as a share from `from` to `from + span`. */
async function withProgress<T>(connection: DuckDBConnection, onProgress: ((share: number) => void) | undefined, from: number, span: number, run: () => Promise<T>): Promise<T> {
  const timer = onProgress === undefined ? undefined : setInterval(() => {
    const { percentage } = connection.progress;
    if (percentage > 0) onProgress(from + (Math.min(percentage, 100) / 100) * span);
  }, 250);
  try {
    return await run();
  } finally {
    if (timer !== undefined) clearInterval(timer);
  }
}
