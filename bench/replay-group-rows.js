// The JavaScript both formats pay after the duckdb engine's grouping (issue #37): reading the
// grouping query's rows into groups (replay/duckdb/class-read.ts groupRows), on a result shaped as
// the merged groups of the bench's `payments` at 10,000,000 requests (148,363 groups of 11 class
// numbers, a count and up to 3 first records each). Process CPU ms of groupRows alone, median of
// REPLAY_GROUP_ROWS_REPS runs (DuckDB's query outside the timing), and a digest of what it read.
// Usage: node bench/replay-group-rows.js [groups]
import os from 'node:os';
import { CLASS_FIELDS } from '../dist/replay/duckdb/class-query.js';
import { groupRows } from '../dist/replay/duckdb/class-read.js';
import { loadDuckDb } from '../dist/replay/duckdb/load.js';

const GROUPS = Number(process.argv[2] ?? 148_363);
const REPS = Number(process.env.REPLAY_GROUP_ROWS_REPS ?? 7);
const keys = CLASS_FIELDS.map((_, at) => `CAST((i * ${at + 3}) % ${at * 13 + 7} AS INTEGER) AS k${at}`).join(', ');
// Most groups have 3 first records, some fewer (a group of one or two records).
const SQL = `SELECT i = 7 AS botrules_odd, ${keys}, CAST(i % 97 + 1 AS BIGINT) AS n, ` +
  `CASE WHEN i % 10 = 0 THEN [CAST(i * 5 AS BIGINT)] ELSE [CAST(i * 5 + 2 AS BIGINT), i * 5, i * 5 + 1] END AS firsts, ` +
  `CASE WHEN i = 7 THEN [CAST(9 AS BIGINT), 4] END AS odd_rows FROM range(${GROUPS}) AS t(i)`;

const api = await loadDuckDb();
const instance = await api.DuckDBInstance.create(':memory:', { threads: '1' });
const connection = await instance.connect();
const cpu = [];
let digest = 0;
for (let rep = 0; rep < REPS; rep += 1) {
  const result = await connection.run(SQL);
  const start = process.cpuUsage();
  const read = groupRows(result);
  const used = process.cpuUsage(start);
  cpu.push((used.user + used.system) / 1000);
  digest = read.groups.reduce((sum, group) => sum + group.count + group.classes[3] + (group.firsts[0] ?? 0) + group.firsts.length, read.odd.count + read.odd.rows.length);
}
connection.closeSync();
instance.closeSync();
const median = [...cpu].sort((a, b) => a - b)[Math.floor(cpu.length / 2)];
console.log(`groupRows on ${GROUPS} groups: ${Math.round(median)} ms CPU (median of ${REPS}; runs ${cpu.map(Math.round).join(', ')}), digest ${digest}, load ${os.loadavg()[0].toFixed(1)}`);
