// Instructions (valgrind's callgrind: repeatable on a shared machine) of the Parquet one reading
// with the maps read only by the keys the rules read (issue #37; the forms are
// bench/replay-key-forms.js). The engine replays the bench's requests as Parquet once (replay.bench.js's
// project) and its one reading's SQL is kept; then each form runs alone in a process of its own
// under callgrind, on one DuckDB thread, with the class function (a JavaScript answer per text,
// class-query.ts CLASS_FUNCTION) replaced by a SQL stand-in of eight classes per text field, so that
// only DuckDB's work is counted. A process that opens DuckDB and makes the address blocks' table
// but groups nothing is counted too; "query" is each form's count less that one.
// Usage: REPLAY_KEY_REQUESTS=300000 REPLAY_BENCH_SHAPES=payments,mirrors node bench/replay-key-instructions.js
// (needs valgrind on PATH; REPLAY_AB_NDJSON: a log of the bench's requests already written).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashBits, keyForms, namesRead } from './replay-key-forms.js';
import { requestLogsIn, writeReplayProject } from './replay-requests.js';

const REQUESTS = Number(process.env.REPLAY_KEY_REQUESTS ?? 300_000);
const SHAPES = (process.env.REPLAY_BENCH_SHAPES ?? 'payments,mirrors').split(',');
const here = fileURLToPath(import.meta.url);
const ONE_READING = 'CREATE OR REPLACE TEMP TABLE botrules_groups AS ';
const BLOCKS = 'CREATE OR REPLACE TEMP TABLE botrules_ipv4_blocks';
/** The class function's stand-in: NULL for no text, else one of eight classes by the text's hash (code = class << 1, never odd). */
const STAND_IN = 'CREATE MACRO botrules_class(f, x) AS CASE WHEN x IS NULL THEN NULL ELSE CAST(hash(x) % 8 * 2 AS INTEGER) END';

/** Replays the shape's project on the Parquet file, keeping the one reading's SQL (the file named in it) and its forms. */
async function capture(shape, dir, file, out) {
  const { REPLAY_SHAPES } = await import('./replay-shapes.js');
  const { takeSnapshot } = await import('../dist/live/snapshot.js');
  const { DuckDBConnection } = await import('@duckdb/node-api');
  const original = { run: DuckDBConnection.prototype.run, runAndReadAll: DuckDBConnection.prototype.runAndReadAll };
  const names = namesRead(REPLAY_SHAPES[shape]());
  const kept = { blocks: [], forms: [] };
  DuckDBConnection.prototype.run = async function keeping(sql, values) {
    if (sql.startsWith(BLOCKS)) kept.blocks.push(sql);
    if (sql.startsWith(ONE_READING) && kept.forms.length === 0) {
      const one = sql.replace("getvariable('botrules_file')", `'${file.replaceAll("'", "''")}'`);
      kept.forms = [['as the engine runs it', one], ...keyForms(one, { names, bits: await hashBits(this, original.runAndReadAll, names) })];
    }
    return original.run.call(this, sql, values);
  };
  writeReplayProject(dir, REPLAY_SHAPES[shape](), file, takeSnapshot, 'log.parquet');
  const { replayProject } = await import('../dist/engine/replay.js');
  await replayProject({ logs: ['log.parquet'], liveFile: 'live.json', engine: 'duckdb' }, { cwd: dir, env: () => undefined, debug: () => {}, notice: () => {} });
  if (kept.forms.length === 0) throw new Error(`${shape}: the file was not read once`);
  writeFileSync(out, JSON.stringify(kept));
}

/** One form alone (index -1: nothing grouped), on one DuckDB thread; prints the groups' count. */
async function runForm(kept, index) {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const { blocks, forms } = JSON.parse(readFileSync(kept, 'utf8'));
  const instance = await DuckDBInstance.create(':memory:', { memory_limit: '768MB', threads: '1', preserve_insertion_order: 'false' });
  const connection = await instance.connect();
  await connection.run(STAND_IN);
  for (const sql of blocks) await connection.run(sql);
  await connection.run(index < 0 ? `${ONE_READING}SELECT 1 AS n` : forms[index][1]);
  process.stdout.write(`${(await connection.runAndReadAll('SELECT count(*) FROM botrules_groups')).getRows()[0]?.[0]}\n`);
}

/** Instructions of a form's process and the groups it made. */
function counted(kept, index) {
  const out = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, here, '--form', kept, String(index)], { encoding: 'utf8' });
  const collected = /Collected : (\d+)/.exec(out.stderr);
  if (out.status !== 0 || collected === null) throw new Error(out.stderr);
  return { instructions: Number(collected[1]), groups: out.stdout.trim() };
}

if (process.argv[2] === '--capture') await capture(...process.argv.slice(3));
else if (process.argv[2] === '--form') await runForm(process.argv[3], Number(process.argv[4]));
else {
  const work = mkdtempSync(path.join(os.tmpdir(), 'botrules-replay-keys-'));
  try {
    const { parquet } = await requestLogsIn(work, REQUESTS);
    process.stdout.write(`${REQUESTS} requests, Node ${process.version}, one DuckDB thread, load ${os.loadavg()[0].toFixed(1)}\n\n`);
    process.stdout.write('| shape | form | instructions (M) | query (M) | query vs the engine\'s | groups |\n|---|---|---:|---:|---:|---:|\n');
    for (const shape of SHAPES) {
      const kept = path.join(work, `${shape}.json`);
      const out = spawnSync(process.execPath, [here, '--capture', shape, mkdtempSync(path.join(work, `${shape}-`)), parquet, kept], { encoding: 'utf8' });
      if (out.status !== 0) throw new Error(out.stderr);
      const base = counted(kept, -1).instructions;
      const { forms } = JSON.parse(readFileSync(kept, 'utf8'));
      let engine;
      forms.forEach(([label], index) => {
        const { instructions, groups } = counted(kept, index);
        engine ??= instructions - base;
        const query = instructions - base;
        process.stdout.write(`| ${shape} | ${label} | ${Math.round(instructions / 1e6)} | ${Math.round(query / 1e6)} | ${((100 * (query - engine)) / engine).toFixed(1)} % | ${groups} |\n`);
      });
      process.stdout.write(`| ${shape} | nothing grouped (DuckDB opened, the blocks' table made) | ${Math.round(base / 1e6)} | | | |\n`);
    }
    process.stdout.write(`\nload at the end ${os.loadavg()[0].toFixed(1)}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
