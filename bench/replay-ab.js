// Two builds of the duckdb engine on the same NDJSON log, alternated: each replay (one child
// process per build, shape and repetition) with its wall and process CPU ms (DuckDB's threads
// included), how often the reading numbered the whole log again (ClassReading.whole, where the
// build has it) and a digest of the report without its engine and timing, which must be the
// same for every build. The project is the replay benchmark's (1,000 rules, every 20th changed),
// the log its requests (REPLAY_AB_REQUESTS, default 1,000,000), the shapes REPLAY_BENCH_SHAPES;
// REPLAY_AB_FORMAT=parquet replays the same requests as a Parquet file (as replay.bench.js writes
// it); REPLAY_AB_NDJSON names a log of those requests already written.
// Usage: node bench/replay-ab.js <build root>… (a checkout with dist/ and bench/ built, e.g. a worktree)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { writeReplayProject, writeRequestParquet } from './replay-requests.js';

const REQUESTS = Number(process.env.REPLAY_AB_REQUESTS ?? 1_000_000);
const SHAPES = (process.env.REPLAY_BENCH_SHAPES ?? 'distinct,checkouts,last').split(',');
const PARQUET = process.env.REPLAY_AB_FORMAT === 'parquet';
const LOG_NAME = PARQUET ? 'log.parquet' : 'log.ndjson';
const here = fileURLToPath(import.meta.url);

async function child(root, shape, dir, log) {
  const { REPLAY_SHAPES } = await import(`${root}/bench/replay-shapes.js`);
  const { takeSnapshot } = await import(`${root}/dist/live/snapshot.js`);
  const { DuckDbDecider } = await import(`${root}/dist/replay/duckdb/decider.js`);
  let wholes = 0;
  const readClasses = DuckDbDecider.prototype.readClasses;
  DuckDbDecider.prototype.readClasses = async function counted(...args) {
    const reading = await readClasses.apply(this, args);
    const { whole } = reading;
    if (whole !== undefined) reading.whole = () => { wholes += 1; return whole(); };
    return reading;
  };
  const rules = REPLAY_SHAPES[shape]();
  writeReplayProject(dir, rules, log, takeSnapshot, LOG_NAME);
  const { replayProject } = await import(`${root}/dist/engine/replay.js`);
  let numbered = '–';
  const ctx = { cwd: dir, env: () => undefined, debug: (line) => { numbered = /its first (\d+) records numbered/.exec(line)?.[1] ?? numbered; }, notice: () => {} };
  const [cpu, wall] = [process.cpuUsage(), performance.now()];
  const report = await replayProject({ logs: [LOG_NAME], liveFile: 'live.json', engine: 'duckdb', verbose: true }, ctx);
  const [cpuMs, wallMs] = [process.cpuUsage(cpu), performance.now() - wall];
  const { engine: _engine, ...rest } = report;
  const sig = createHash('sha1').update(JSON.stringify(rest)).digest('hex').slice(0, 8);
  process.stdout.write(JSON.stringify({ wall: Math.round(wallMs), cpu: Math.round((cpuMs.user + cpuMs.system) / 1000), wholes, numbered, sig, evaluated: report.evaluated }));
}

async function writeLog(root, file) {
  const { seededRandom } = await import(`${root}/dist/emulator/random.js`);
  const { requestLine } = await import(`${root}/bench/replay-requests.js`);
  const out = createWriteStream(file);
  const next = seededRandom(REQUESTS);
  for (let i = 0; i < REQUESTS; i += 1) if (!out.write(`${requestLine(next, i)}\n`)) await new Promise((done) => out.once('drain', done));
  await new Promise((done) => out.end(done));
}

if (process.argv[2] === '--child') await child(...process.argv.slice(3));
else {
  const roots = process.argv.slice(2).map((root) => path.resolve(root));
  const ndjson = process.env.REPLAY_AB_NDJSON ?? path.join(os.tmpdir(), `botrules-replay-steps-${REQUESTS}.ndjson`);
  if (!existsSync(ndjson)) await writeLog(roots[0], ndjson);
  const log = PARQUET ? path.join(mkdtempSync(path.join(os.tmpdir(), 'botrules-replay-ab-log-')), 'log.parquet') : ndjson;
  if (PARQUET) await writeRequestParquet(ndjson, log);
  const work = mkdtempSync(path.join(os.tmpdir(), 'botrules-replay-ab-'));
  process.stdout.write(`${REQUESTS} requests${PARQUET ? ' (Parquet)' : ''}, ${os.cpus().length} cores, Node ${process.version}, load ${os.loadavg()[0].toFixed(1)}\n\n| shape | rep | build | wall ms | CPU ms | whole log numbered again | records numbered | report sig |\n|---|---:|---|---:|---:|---:|---:|---|\n`);
  for (const shape of SHAPES) {
    for (const rep of [1, 2]) {
      for (const [at, root] of roots.entries()) {
        const dir = mkdtempSync(path.join(work, `${shape}-`));
        const out = spawnSync(process.execPath, [here, '--child', root, shape, dir, log], { encoding: 'utf8' });
        if (out.status !== 0) throw new Error(out.stderr);
        const { wall, cpu, wholes, numbered, sig } = JSON.parse(out.stdout);
        process.stdout.write(`| ${shape} | ${rep} | ${at === 0 ? 'before' : at === 1 ? 'after' : `build ${at + 1}`} | ${wall} | ${cpu} | ${wholes} | ${numbered} | ${sig} |\n`);
      }
    }
  }
  process.stdout.write(`\nload at the end ${os.loadavg()[0].toFixed(1)}\n`);
}
