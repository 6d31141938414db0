// The DuckDB back end of a compiled program (semantics/program.ts): requests written as NDJSON
// lines (one file per batch) are read by DuckDB's native JSON reader and decided by the program's
// SQL (replay/sql/emit.ts), grouped by the decision of every set with a count and the first
// rows of each group. What SQL cannot decide exactly (a `$re` outside RE2's exact subset) is
// decided by the reference evaluator's own pattern test, registered
// with DuckDB as scalar functions: the answers are the evaluator's, never an approximation.
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { compilePattern } from '../../evaluate/pattern.js';
import type { Verdict } from '../../evaluate/leaf.js';
import type { NormalRule } from '../../semantics/model.js';
import type { RuleProgram } from '../../semantics/program.js';
import { DIALECT, type Dialect } from '../sql/dialects.js';
import { decisionColumns, leafSelect } from '../sql/emit.js';
import type { Fallbacks } from '../sql/leaves.js';
import { loadDuckDb, type DuckDbApi } from './load.js';
import { readByClasses, type ClassFunction, type ClassReading } from './class-read.js';
import { requiredLiteral } from './required-literal.js';
import type { ClassOptions, ValueReader } from './value-classes.js';
import { CLASS_FIELDS, CLASS_FUNCTION, rowsQuery, type LogSource } from './class-query.js';
import type { RequestField } from '../coverage.js';

/** Requests of a batch that every set decided alike: their decisions, how many, the first rows (ascending). */
export interface DecidedGroup {
  codes: number[];
  count: number;
  firsts: number[];
}

/** The columns of a batch file: the row's number in its batch and the request fields. */
const COLUMNS = "{r: 'INTEGER', path: 'VARCHAR', method: 'VARCHAR', userAgent: 'VARCHAR', ip: 'VARCHAR', asn: 'VARCHAR', country: 'VARCHAR', domain: 'VARCHAR', deviceType: 'VARCHAR', headers: 'MAP(VARCHAR, VARCHAR)', query: 'MAP(VARCHAR, VARCHAR)', custom: 'MAP(VARCHAR, VARCHAR)'}";

/** DuckDB's dialect, RE2 run only on the texts that hold what every match holds: `contains` costs a fraction of it. */
const GUARDED: Dialect = {
  ...DIALECT.duckdb,
  regex: (value, pattern) => {
    const literal = requiredLiteral(pattern);
    const test = DIALECT.duckdb.regex(value, pattern);
    return literal === undefined ? test : `(CASE WHEN contains(${value}, ${DIALECT.duckdb.text(literal)}) THEN ${test} ELSE FALSE END)`;
  },
};

export class DuckDbDecider {
  private select: string | undefined;

  private constructor(private readonly instance: DuckDBInstance, private readonly connection: DuckDBConnection, private readonly fallbacks: Fallbacks,
    private readonly classFunction: ClassFunction, readonly program: RuleProgram<NormalRule>) {}

  static async open(program: RuleProgram<NormalRule>): Promise<DuckDbDecider> {
    const api = await loadDuckDb();
    // Memory stays bounded whatever the log's length: one batch at a time, no persistent tables.
    const instance = await api.DuckDBInstance.create(':memory:', { memory_limit: '768MB', threads: '2', preserve_insertion_order: 'false' });
    const connection = await instance.connect();
    return new DuckDbDecider(instance, connection, registerFallbacks(api, connection), registerClassFunction(api, connection), program);
  }

  /** The program as one query over a batch file: written when a file is first fed in batches (reading by classes needs none). */
  private batchQuery(): string {
    if (this.select !== undefined) return this.select;
    const { leaves, columns } = decisionColumns(this.program, GUARDED, this.fallbacks);
    const codes = columns.map((column, set) => `${column} AS d${set}`).join(', ');
    const names = columns.map((_, set) => `d${set}`).join(', ');
    const rows = leafSelect(leaves, `read_json(?, format = 'newline_delimited', columns = ${COLUMNS})`, DIALECT.duckdb, 'r');
    this.select = `SELECT ${names}, CAST(count(*) AS INTEGER) AS n, min(r, 3) AS firsts FROM (SELECT r, ${codes} FROM (${rows})) GROUP BY ALL`;
    return this.select;
  }

  /** A log DuckDB reads itself, by classes of values (class-read.ts). */
  readClasses(file: string, source: LogSource, options: ClassOptions, onProgress?: (share: number) => void, reader?: ValueReader): Promise<ClassReading> {
    return readByClasses(this.connection, this.program, file, source, options, this.classFunction, onProgress, reader);
  }

  /** A Parquet file's rows at these numbers, each field's text as the class query reads it (rowsQuery). */
  async rowsAt(file: string, columns: ReadonlyMap<RequestField, string>, rows: readonly number[]): Promise<Map<number, Map<RequestField, string | null>>> {
    const found = new Map<number, Map<RequestField, string | null>>();
    if (rows.length === 0) return found;
    const reader = await this.connection.runAndReadAll(rowsQuery(columns, rows), [file]);
    for (const [row, ...texts] of reader.getRows()) {
      found.set(Number(row), new Map(CLASS_FIELDS.map((field, at) => [field, (texts[at] ?? null) as string | null])));
    }
    return found;
  }

  /** The groups of one batch file written by batchLine(). */
  async decide(file: string): Promise<DecidedGroup[]> {
    const reader = await this.connection.runAndReadAll(this.batchQuery(), [file]);
    const sets = this.program.sets.length;
    return reader.getRows().map((row) => ({
      codes: row.slice(0, sets).map(Number),
      count: Number(row[sets]),
      firsts: ((row[sets + 1] as { items: unknown[] }).items).map(Number).sort((a, b) => a - b),
    }));
  }

  /** The DuckDB type of each expression over a Parquet file's first row (none for a file without rows). */
  async parquetTypes(file: string, expressions: readonly string[]): Promise<string[] | undefined> {
    const reader = await this.connection.runAndReadAll(`SELECT ${expressions.map((sql) => `typeof(${sql})`).join(', ')} FROM read_parquet(?) LIMIT 1`, [file]);
    return reader.getRows()[0]?.map(String);
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}

/**
 * The class function of the grouping query (class-query.ts CLASS_FUNCTION), answered by the
 * reading that runs it. A Parquet column's dictionary is handed over as it is:
 * a call per distinct text of a row group, whatever the rows (bench/README.md, "Parquet by dictionaries").
 */
function registerClassFunction(api: DuckDbApi, connection: DuckDBConnection): ClassFunction {
  const classFunction: ClassFunction = { answer: () => { throw new Error('no reading by classes is running'); } };
  const code = (field: RequestField, text: string | null) => {
    if (text === null) return null;
    const { id, odd } = classFunction.answer(field, text);
    return id * 2 + (odd ? 1 : 0);
  };
  connection.registerScalarFunction(api.DuckDBScalarFunction.create({
    name: CLASS_FUNCTION,
    returnType: api.INTEGER,
    parameterTypes: [api.INTEGER, api.VARCHAR],
    mainFunction: (_info, input, output) => {
      const fields = input.getColumnVector(0);
      const texts = input.getColumnVector(1);
      for (let row = 0; row < input.rowCount; row++) {
        output.setItem(row, code(CLASS_FIELDS[fields.getItem(row) as number] as RequestField, texts.getItem(row) as string | null));
      }
      output.flush();
    },
  }));
  return classFunction;
}

/** JavaScript's answers where SQL has none: `$re` patterns by number. */
function registerFallbacks(api: DuckDbApi, connection: DuckDBConnection): Fallbacks {
  const patterns: string[] = [];
  const asBoolean = (verdict: Verdict): boolean | null => (verdict === 'undecided' ? null : verdict);
  const register = (name: string, answer: (id: number, value: string) => Verdict) => {
    connection.registerScalarFunction(api.DuckDBScalarFunction.create({
      name,
      returnType: api.BOOLEAN,
      parameterTypes: [api.INTEGER, api.VARCHAR],
      mainFunction: (_info, input, output) => {
        const ids = input.getColumnVector(0);
        const values = input.getColumnVector(1);
        for (let row = 0; row < input.rowCount; row++) {
          const value = values.getItem(row) as string | null;
          output.setItem(row, value === null ? null : asBoolean(answer(ids.getItem(row) as number, value)));
        }
        output.flush();
      },
    }));
  };
  register('botrules_pattern', (id, value) => compilePattern(patterns[id] as string, false).test(value));
  return {
    pattern(source, value) {
      let id = patterns.indexOf(source);
      if (id === -1) id = patterns.push(source) - 1;
      return `botrules_pattern(${id}, ${value})`;
    },
    // batchLine() keeps requests with characters beyond U+FFFF out of DuckDB.
    rowsWithinBmp: true,
  };
}
