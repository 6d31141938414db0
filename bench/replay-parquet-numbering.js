// What numbering a Parquet file's rows costs the duckdb engine's grouping query (issue #37): the
// engine replays the bench's requests as Parquet (replay.bench.js's project and file) and, when
// its grouping query comes, the same query is run first in each form, alternated, on the same
// connection: numbered by read_parquet's `file_row_number` with each group's first rows gathered
// by min(row, 3) (as the engine runs it), unnumbered (count only), and numbered over the first
// 65,536 rows only (`file_row_number < 65536`: the row groups holding them). Each with its wall
// and process CPU ms (DuckDB's threads included) and the CPU ticks of each thread that worked
// (/proc: whether both threads kept busy). Linux only.
// Usage: REPLAY_NUMBERING_REQUESTS=1000000 REPLAY_BENCH_SHAPES=agents node bench/replay-parquet-numbering.js
// (REPLAY_AB_NDJSON: a log of the bench's requests already written, as bench/replay-ab.js takes it).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { requestLogsIn, writeReplayProject } from './replay-requests.js';

const REQUESTS = Number(process.env.REPLAY_NUMBERING_REQUESTS ?? 1_000_000);
const SHAPES = (process.env.REPLAY_BENCH_SHAPES ?? 'agents').split(',');
const NUMBERED = 'CAST(file_row_number AS BIGINT) + 1 AS botrules_row, ';
const FIRSTS = /min\(botrules_row, 3\) AS firsts, min\(botrules_row, \d+\) FILTER \(WHERE botrules_odd\) AS odd_rows/;
const here = fileURLToPath(import.meta.url);

/** CPU ticks per thread of this process. */
function ticks() {
  const byThread = new Map();
  for (const id of readdirSync('/proc/self/task')) {
    try {
      const fields = readFileSync(`/proc/self/task/${id}/stat`, 'utf8').split(') ')[1].split(' ');
      byThread.set(id, Number(fields[11]) + Number(fields[12]));
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return byThread;
}

/** The grouping query in each form, from the numbered one the engine runs on Parquet. */
function forms(sql) {
  if (!sql.includes(NUMBERED) || !FIRSTS.test(sql)) throw new Error('this build does not number its Parquet grouping query with file_row_number');
  const unnumbered = sql.replace(NUMBERED, '').replace('SELECT t.botrules_row,', 'SELECT CAST(NULL AS BIGINT) AS botrules_row,').replace(FIRSTS, 'NULL AS firsts, NULL AS odd_rows');
  const prefix = sql.replace('FROM read_parquet(?, file_row_number = true))', 'FROM read_parquet(?, file_row_number = true) WHERE file_row_number < 65536)');
  return { 'numbered (file_row_number, min(row, 3))': sql, unnumbered, 'numbered, first 65,536 rows only': prefix };
}

async function child(shape, dir, file) {
  const { REPLAY_SHAPES } = await import('./replay-shapes.js');
  const { takeSnapshot } = await import('../dist/live/snapshot.js');
  const { DuckDBConnection } = await import('@duckdb/node-api');
  const run = DuckDBConnection.prototype.runAndReadAll;
  const rows = [];
  DuckDBConnection.prototype.runAndReadAll = async function timed(sql, values) {
    if (rows.length === 0 && sql.startsWith('SELECT botrules_odd')) {
      for (const rep of [1, 2]) {
        for (const [form, query] of Object.entries(forms(sql))) {
          const [before, cpu, wall] = [ticks(), process.cpuUsage(), performance.now()];
          const result = await run.call(this, query, values);
          const [wallMs, cpuMs, after] = [performance.now() - wall, process.cpuUsage(cpu), ticks()];
          const busy = [...after].map(([id, n]) => n - (before.get(id) ?? 0)).filter((n) => n > 2).sort((a, b) => b - a);
          rows.push(`| ${shape} | ${rep} | ${form} | ${Math.round(wallMs)} | ${Math.round((cpuMs.user + cpuMs.system) / 1000)} | ${busy.join(' / ')} | ${result.getRows().length} |`);
        }
      }
    }
    return run.call(this, sql, values);
  };
  writeReplayProject(dir, REPLAY_SHAPES[shape](), file, takeSnapshot, 'log.parquet');
  const { replayProject } = await import('../dist/engine/replay.js');
  await replayProject({ logs: ['log.parquet'], liveFile: 'live.json', engine: 'duckdb' }, { cwd: dir, env: () => undefined, debug: () => {}, notice: () => {} });
  // No row is no figure: the replay never ran the grouping query this benchmark rewrites.
  if (rows.length === 0) throw new Error(`the ${shape} replay ran no grouping query of the form this benchmark rewrites (SELECT botrules_odd … numbered with file_row_number): this build reads the Parquet file another way`);
  process.stdout.write(`${rows.join('\n')}\n`);
}

if (process.argv[2] === '--child') await child(...process.argv.slice(3));
else {
  const work = mkdtempSync(path.join(os.tmpdir(), 'botrules-replay-numbering-'));
  try {
    const { parquet: file } = await requestLogsIn(work, REQUESTS);
    process.stdout.write(`${REQUESTS} requests as Parquet, ${os.cpus().length} cores, Node ${process.version}, load ${os.loadavg()[0].toFixed(1)}\n\n`);
    process.stdout.write('| shape | rep | grouping query | wall ms | CPU ms | CPU ticks per busy thread | groups |\n|---|---:|---|---:|---:|---|---:|\n');
    for (const shape of SHAPES) {
      const out = spawnSync(process.execPath, [here, '--child', shape, mkdtempSync(path.join(work, `${shape}-`)), file], { encoding: 'utf8' });
      if (out.status !== 0) throw new Error(out.stderr);
      process.stdout.write(out.stdout);
    }
    process.stdout.write(`\nload at the end ${os.loadavg()[0].toFixed(1)}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
