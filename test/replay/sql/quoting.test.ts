// Rule names, values and header names come from rule files, and the table name from the command
// line: in every dialect each is one literal (or one identifier) of the emitted query, whatever
// quotes, backslashes, line breaks, control characters or comment markers it holds. DuckDB runs
// the query and gives every name back; Trino's and BigQuery's queries are read by node-sql-parser
// and every literal unescaped by the dialect's rules; ClickHouse, for which node-sql-parser has no
// grammar, is read with its documented lexical rules (strings, quoted identifiers, comments).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import nodeSqlParser from 'node-sql-parser';
import type { TestRequest } from '../../../src/evaluate/request.js';
import type { NormalRule } from '../../../src/semantics/model.js';
import { compileProgram } from '../../../src/semantics/program.js';
import { DIALECT, type DialectName } from '../../../src/replay/sql/dialects.js';
import { replayQuery } from '../../../src/replay/sql/emit.js';
import { normal } from '../../helpers/rules.js';
import { requestRows, TABLE_COLUMNS } from './requests-table.js';

const HOSTILE = [
  "it's", 'say "hi"', 'back\\slash\\', 'two\nlines\r\n', '-- comment', '/* open', 'close */', "'; DROP TABLE requests; --",
  '`tick`', 'tab\tand\u001b escape', 'line\u2028separator', "\\'", '\\', "$$ dollar $tag$", '{{brace}}', 'ü中😀',
];

const RULES: NormalRule[] = HOSTILE.map((text, i) => normal({
  name: text, description: '', status: 'active', actions: [i % 2 === 0 ? 'hardBlock' : 'blockWithChallenge'],
  conditions: { operator: '$or', children: [{ operator: '$and', children: [
    { conditionType: 'header', fieldOption: `x-${text}`, operator: '$eq', value: text },
    { conditionType: 'path', operator: '$in', value: [text, `/${i}`] },
  ] }] },
}));
/** Request i carries exactly what rule i asks for, so rule i decides it. */
const REQUESTS: TestRequest[] = HOSTILE.map((text, i) => ({ path: `/${i}`, headers: { [`x-${text}`.toLowerCase()]: text } }));
const TABLE = 'we"ird`.t\'able';
/** node-sql-parser reads no doubled or escaped quote and no backslash inside a quoted identifier (BigQuery and Trino do): a table name without. */
const PARSED_TABLE = "lo'gs -- /*.requests";

function emitted(dialect: DialectName, table = 'requests'): string {
  return replayQuery(compileProgram([RULES, RULES]), DIALECT[dialect], table).sql;
}

test('DuckDB runs the query and gives back every name', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'botrules-quoting-'));
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await instance.connect();
  try {
    writeFileSync(path.join(dir, 'requests.ndjson'), requestRows(REQUESTS));
    const [schema, table] = TABLE.split('.') as [string, string];
    await connection.run(`CREATE SCHEMA "${schema.replaceAll('"', '""')}"`);
    await connection.run(`CREATE TABLE "${schema.replaceAll('"', '""')}"."${table}" AS SELECT * FROM read_json('${path.join(dir, 'requests.ndjson')}', format = 'newline_delimited', columns = ${TABLE_COLUMNS})`);
    const rows = (await connection.runAndReadAll(emitted('duckdb', TABLE))).getRows();
    expect(rows.map((row) => row.slice(0, 5)).sort()).toEqual(HOSTILE.map((text, i) => {
      const outcome = i % 2 === 0 ? 'block' : 'challenge';
      return [text, outcome, text, outcome, 1n];
    }).sort());
  } finally {
    connection.closeSync();
    instance.closeSync();
    rmSync(dir, { recursive: true, force: true });
  }
});

const parser = new nodeSqlParser.Parser();

/** Every string literal of an AST, as the parser gives it (its text between the quotes). */
function literals(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((child) => literals(child, found));
  else if (node !== null && typeof node === 'object') {
    const { type, value } = node as { type?: unknown; value?: unknown };
    if ((type === 'single_quote_string' || type === 'string') && typeof value === 'string') found.push(value);
    Object.values(node).forEach((child) => literals(child, found));
  }
  return found;
}

/** Backslash escapes as BigQuery and ClickHouse read them. */
function unescapeBackslashes(text: string): string {
  return text.replace(/\\(x[0-9a-fA-F]{2}|.)/gs, (_, escape: string) => {
    if (escape.startsWith('x') && escape.length === 3) return String.fromCharCode(parseInt(escape.slice(1), 16));
    return { n: '\n', r: '\r', t: '\t', '0': '\0' }[escape] ?? escape;
  });
}

// node-sql-parser's Trino and Athena grammars read a backslash as an escape, which Trino's
// (standard SQL) strings do not have: values with one are left to the lexical test below (and
// DuckDB, whose strings are read the same way, runs them).
const READ_BY_PARSER = { trino: HOSTILE.filter((text) => !text.includes('\\')), bigquery: HOSTILE };

it.each([
  ['trino', 'trino', (text: string) => text.replaceAll("''", "'")],
  ['trino', 'athena', (text: string) => text.replaceAll("''", "'")],
  ['bigquery', 'bigquery', unescapeBackslashes],
] as const)('node-sql-parser reads the %s query as one statement (%s grammar) holding every name and value as one literal', (dialect, database, unescape) => {
  const rules = RULES.filter((rule) => READ_BY_PARSER[dialect].includes(rule.name));
  const sql = replayQuery(compileProgram([rules, rules]), DIALECT[dialect], PARSED_TABLE).sql;
  const ast = parser.astify(sql, { database });
  expect(Array.isArray(ast) ? ast.length : 1).toBe(1);
  const texts = new Set(literals(ast).map(unescape));
  for (const text of READ_BY_PARSER[dialect]) expect(texts).toContain(text);
  expect(parser.tableList(sql, { database }).join(' ')).toContain("lo'gs -- /*");
});

/**
 * The lexical structure of ClickHouse (its documentation, "Syntax"): strings in single quotes
 * with backslash escapes (or a doubled quote), identifiers in double quotes or backticks, `--`
 * and `#` line comments, block comments; and of Trino (standard SQL): quotes doubled, no
 * backslash escapes, identifiers in double quotes. The query's code outside those, its strings
 * and its identifiers.
 */
const LEXICAL = {
  clickhouse: { token: /'((?:[^'\\]|\\.|'')*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`|--[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\/|([^'"`#/-]+|[/-])/y, unescape: (text: string) => unescapeBackslashes(text.replaceAll("''", "\\'")) },
  trino: { token: /'((?:[^']|'')*)'|"((?:[^"]|"")*)"|()(?!)|--[^\n]*|\/\*[\s\S]*?\*\/|([^'"/-]+|[/-])/y, unescape: (text: string) => text.replaceAll("''", "'").replaceAll('""', '"') },
};

function lexicalTokens(sql: string, dialect: keyof typeof LEXICAL): { code: string; strings: string[]; identifiers: string[] } {
  const { token, unescape } = LEXICAL[dialect];
  const tokens = { code: '', strings: [] as string[], identifiers: [] as string[] };
  for (let at = 0; at < sql.length;) {
    token.lastIndex = at;
    const match = token.exec(sql);
    if (match === null) throw new Error(`${dialect} would not read the query from ${JSON.stringify(sql.slice(at, at + 40))}`);
    at = token.lastIndex;
    const [, string, quoted, backticked, code] = match;
    if (string !== undefined) tokens.strings.push(unescape(string));
    else if (quoted !== undefined || backticked !== undefined) tokens.identifiers.push(unescape(quoted ?? backticked ?? ''));
    else if (code !== undefined) tokens.code += code;
  }
  return tokens;
}

it.each(['clickhouse', 'trino'] as const)('the %s query reads as one statement holding every name and value as one string literal', (dialect) => {
  const { code, strings, identifiers } = lexicalTokens(emitted(dialect, TABLE), dialect);
  // One statement, ended once; parentheses balance outside strings and comments.
  expect(code.trimEnd().endsWith(';')).toBe(true);
  expect(code.trimEnd().slice(0, -1)).not.toContain(';');
  expect([...code].filter((char) => char === '(').length).toBe([...code].filter((char) => char === ')').length);
  for (const text of HOSTILE) expect(strings).toContain(text);
  expect(identifiers).toEqual(expect.arrayContaining(['we"ird`', "t'able"]));
});
