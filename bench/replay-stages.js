// Where a duckdb replay's time goes (issue #37): one replay of the bench's project (1,000 rules
// of a shape, every 20th changed) over a log of its requests (NDJSON, or Parquet by the name's
// ending), the wall and process CPU ms (DuckDB's threads included) of each DuckDB query and of the
// JavaScript between them, as table rows. With `explain` each reading by classes is run once more
// as EXPLAIN ANALYZE first, its operators' times written to OUT/explain-SHAPE-N.txt. The row of
// groups counts the first grouping query's rows: the groups decided one by one in JavaScript after it
// (a Parquet file's: the row "JS before rows shown").
// Usage: node bench/replay-stages.js <build root, absolute> SHAPE LOG [explain OUT]
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
const [root, shape, log, mode, out = os.tmpdir()] = process.argv.slice(2);
const name = log.endsWith('.parquet') ? 'log.parquet' : 'log.ndjson';
const { REPLAY_SHAPES } = await import(`${root}/bench/replay-shapes.js`);
const { takeSnapshot } = await import(`${root}/dist/live/snapshot.js`);
const { writeReplayProject } = await import(`${root}/bench/replay-requests.js`);
const { DuckDBConnection } = await import('@duckdb/node-api');
const marks = [];
let last = { t: performance.now(), c: process.cpuUsage() };
const mark = (label) => {
  const now = { t: performance.now(), c: process.cpuUsage() };
  const c = process.cpuUsage(last.c);
  marks.push([label, Math.round(now.t - last.t), Math.round((c.user + c.system) / 1000)]);
  last = now;
};
const kind = (sql) => sql.startsWith('SELECT grouping_id') ? 'distinct query' : sql.startsWith('SELECT botrules_odd') ? 'grouping query'
  : sql.startsWith('SELECT CAST(file_row_number') ? 'rows shown'
  : sql.startsWith('CREATE OR REPLACE TEMP TABLE botrules_groups') ? 'one reading' : sql.startsWith('CREATE') ? 'class tables' : sql.startsWith('SET') ? 'set' : sql.slice(0, 40);
let q = 0;
let groups;
// Both ways a query runs (the grouping query runs without a reader; runAndReadAll runs through run): timed once, at the outer call.
let depth = 0;
const readAll = DuckDBConnection.prototype.runAndReadAll;
for (const method of ['runAndReadAll', 'run']) {
  const orig = DuckDBConnection.prototype[method];
  DuckDBConnection.prototype[method] = async function (sql, params) {
    if (depth > 0) return orig.call(this, sql, params);
    depth += 1;
    try {
      const k = kind(sql);
      mark(`JS before ${k}`);
      if (mode === 'explain' && (k === 'distinct query' || k === 'grouping query' || k === 'one reading')) {
        const explained = k === 'one reading' ? sql.slice(sql.indexOf(' AS ') + 4) : sql;
        let r; try { r = await readAll.call(this, 'EXPLAIN ANALYZE ' + explained, params); } catch (e) { console.log('EXPLAIN failed', String(e).slice(0, 300)); throw e; }
        writeFileSync(path.join(out, `explain-${shape}-${q++}.txt`), r.getRows().map((x) => x[1]).join('\n'));
        mark(`EXPLAIN ANALYZE ${k}`);
      }
      const result = await orig.call(this, sql, params);
      mark(`DuckDB ${k}`);
      // The groups JavaScript decides one by one after the reading (engine/replay-duckdb-native.ts
      // nativeGroup): the first grouping query's; an NDJSON log's later ones only number its start.
      if (k === 'grouping query' && groups === undefined) groups = result?.rowCount;
      return result;
    } finally {
      depth -= 1;
    }
  };
}
const dir = mkdtempSync(path.join(os.tmpdir(), `botrules-replay-stages-${shape}-`));
writeReplayProject(dir, REPLAY_SHAPES[shape](), log, takeSnapshot, name);
const { replayProject } = await import(`${root}/dist/engine/replay.js`);
const ctx = { cwd: dir, env: () => undefined, debug: () => {}, notice: () => {} };
mark('setup');
const t0 = performance.now(); const c0 = process.cpuUsage();
await replayProject({ logs: [name], liveFile: 'live.json', engine: 'duckdb', verbose: true }, ctx);
mark('JS after last query');
const c = process.cpuUsage(c0);
// merge consecutive identical labels
const merged = [];
for (const m of marks) { const p = merged.at(-1); if (p && p[0] === m[0]) { p[1] += m[1]; p[2] += m[2]; } else merged.push([...m]); }
console.log(`| ${shape} | total | ${Math.round(performance.now() - t0)} | ${Math.round((c.user + c.system) / 1000)} |`);
console.log(`| ${shape} | groups decided in JavaScript | ${groups} | |`);
for (const [l, w, cpu] of merged) if (w > 20 || cpu > 20) console.log(`| ${shape} | ${l} | ${w} | ${cpu} |`);
