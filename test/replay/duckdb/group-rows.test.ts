// The grouping query's rows as the DuckDB engine reads them (src/replay/duckdb/class-read.ts
// groupRows): a chunk's columns at a time. On a result of several chunks (more than DuckDB's 2,048
// rows a chunk), with unsorted and empty lists of first records, NULL lists and an odd row among
// them, and an unnumbered reading's columns (NULL, no list at all), the groups and odd records are
// those read row by row from the same query (getRows), in the same order.
import { loadDuckDb } from '../../../src/replay/duckdb/load.js';
import { CLASS_FIELDS } from '../../../src/replay/duckdb/class-query.js';
import { groupRows } from '../../../src/replay/duckdb/class-read.js';

const ROWS = 5000;
const ODD_AT = 3100;
const keys = CLASS_FIELDS.map((_, at) => `CASE WHEN i = ${ODD_AT} THEN NULL ELSE CAST((i * ${at + 3}) % ${at + 7} AS INTEGER) END AS k${at}`).join(', ');
/** Rows as the grouping query gives them: the odd row's list of odd records long and unsorted, some groups' first records unsorted, empty or NULL. */
const NUMBERED = `SELECT i = ${ODD_AT} AS botrules_odd, ${keys}, CAST(i + 1 AS BIGINT) AS n, ` +
  `CASE WHEN i % 5 = 0 THEN NULL WHEN i % 5 = 1 THEN CAST([] AS BIGINT[]) ELSE [CAST(i * 3 + 2 AS BIGINT), i * 3, i * 3 + 1] END AS firsts, ` +
  `CASE WHEN i = ${ODD_AT} THEN [CAST(9 AS BIGINT), 4, 7, 1] END AS odd_rows FROM range(${ROWS}) AS t(i)`;
const UNNUMBERED = `SELECT i = ${ODD_AT} AS botrules_odd, ${keys}, CAST(i + 1 AS BIGINT) AS n, NULL AS firsts, NULL AS odd_rows FROM range(${ROWS}) AS t(i)`;

/** The rows read one by one, as the engine read them before (getRows). */
function byRows(rows: readonly unknown[][]): ReturnType<typeof groupRows> {
  const groups: ReturnType<typeof groupRows>['groups'] = [];
  const odd = { count: 0, rows: [] as number[] };
  const list = (value: unknown) => ((value as { items: unknown[] } | null)?.items ?? []).map(Number).sort((a, b) => a - b);
  const at = 1 + CLASS_FIELDS.length;
  for (const row of rows) {
    if (row[0] === true) {
      odd.count += Number(row[at]);
      odd.rows = list(row[at + 2]);
    } else groups.push({ classes: row.slice(1, at).map(Number), count: Number(row[at]), firsts: list(row[at + 1]) });
  }
  return { groups, odd };
}

it.each([['numbered', NUMBERED], ['unnumbered', UNNUMBERED]])('reads the %s grouping rows of several chunks as row by row', async (_name, sql) => {
  const api = await loadDuckDb();
  const instance = await api.DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await instance.connect();
  try {
    const expected = byRows((await connection.runAndReadAll(`${sql} ORDER BY i`)).getRows());
    const result = await connection.run(`${sql} ORDER BY i`);
    expect(result.chunkCount).toBeGreaterThan(1);
    const read = groupRows(result);
    expect(read.groups).toHaveLength(ROWS - 1);
    expect(read.odd.count).toBe(ODD_AT + 1);
    if (sql === NUMBERED) {
      expect(read.odd.rows).toEqual([1, 4, 7, 9]);
      expect(read.groups[2]?.firsts).toEqual([6, 7, 8]);
    }
    expect(read).toEqual(expected);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
});
