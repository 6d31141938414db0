// `botrules replay` throughput and memory, in-process against the built engine: for each
// rule shape and log size, one child process reads and JSON.parses an NDJSON log (the
// floor: nothing can replay faster than it reads), then replays the same log through
// replayProject (read, parse, redact, decide under two compiled rule sets of 1,000 rules,
// tally), and reports both times, their ratio and the child's peak RSS. A second, untimed replay
// of the same log takes the live heap (heapUsed after a full collection) when a tenth of the
// log has been decided and at its end: flat memory means the same figure at both points and at
// both log sizes, whatever the collector lets the heap (and RSS) grow to between collections.
// Two log sizes show whether memory stays flat in the number of requests. Run through `npm run bench -- replay`;
// REPLAY_BENCH_SIZES=100000,1000000 sets the sizes, REPLAY_BENCH_SHAPES=generated,themed,distinct the
// rule shapes (generated: the emulator's rules, whose random extras make early catch-alls;
// themed: their themes alone, no catch-all; distinct: every rule its own values; last: most
// requests reach the last rule; untuned and tenants: written after the engines' work; partners:
// written after the js engine's text and pattern guards; regions: written after the duckdb
// engine's classes of values; fleets: written after the js engine's address-block index; checkouts: written after the duckdb engine's classing by looked-up texts; logins: written after its classing by contained texts; agents, hosts, payments and feeds: each written before a round's work (the eighth to the eleventh) and kept from it, first run at its end). Sizes go up to 10,000,000: above 1,000,000 the js engine runs
// whole on REPLAY_BENCH_JS_LARGE (default `last`; REPLAY_BENCH_JS_ABOVE sets the size); on the other
// shapes it replays the log's first REPLAY_BENCH_JS_ABOVE requests, and its fixed cost plus its time
// per request there times the whole log's requests is the baseline of the duckdb engine's time (the
// js engine's time per request does not depend on the log's length: compare the shapes run both ways). With the
// duckdb engine the same requests are also replayed from a Parquet file (written by DuckDB from
// the NDJSON log), against the Parquet ≥ 2× NDJSON target.
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { seededRandom } from '../dist/emulator/random.js';
import { REPLAY_SHAPES } from './replay-shapes.js';
import { requestLine, writeRequestLog, writeRequestParquet } from './replay-requests.js';

const RULES = 1_000;
const SIZES = (process.env.REPLAY_BENCH_SIZES ?? '100000,1000000').split(',').map(Number);
const SHAPES = (process.env.REPLAY_BENCH_SHAPES ?? 'generated,themed,distinct,last,untuned,tenants,partners,regions,fleets,checkouts,logins,agents,hosts,payments,feeds,mirrors').split(',');
const ENGINES = (process.env.REPLAY_BENCH_ENGINES ?? 'js,duckdb').split(',');
/** Above this many requests the js engine runs whole only on these shapes (a js run of 10,000,000 requests on `tenants` takes most of an hour), on the log's first `above` requests on the others. */
const JS_LARGE = { above: Number(process.env.REPLAY_BENCH_JS_ABOVE ?? 1_000_000), shapes: (process.env.REPLAY_BENCH_JS_LARGE ?? 'last').split(',') };
/** The issue's targets for the duckdb engine against the js engine of the same run. */
const TARGETS = { speedup: 3, speedupLast: 5, floorRatio: 1, peakRssMb: 1024, parquet: 2 };
const here = fileURLToPath(import.meta.url);

/** The floor: the same chunked line reading the replay uses, and JSON.parse of every line. */
async function readAndParse(file) {
  const stream = createReadStream(file);
  stream.setEncoding('utf8');
  let rest = '';
  let parsed = 0;
  for await (const chunk of stream) {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line !== '') { JSON.parse(line); parsed += 1; }
  }
  return parsed;
}

/** A project: 1,000 live rules in a snapshot, and rule files changing every 20th rule's actions. */
function project(dir, shape) {
  return import('../dist/live/snapshot.js').then(({ takeSnapshot }) => {
    const rules = REPLAY_SHAPES[shape]();
    const live = rules.map((rule, priority) => ({ ...rule, ruleId: `00000000-0000-4000-8000-${String(priority).padStart(12, '0')}`, priority }));
    const declared = live.map(({ priority: _p, ...rule }, i) => (i % 20 === 0 ? { ...rule, actions: ['hardBlock'] } : rule));
    mkdirSync(path.join(dir, 'rules'));
    writeFileSync(path.join(dir, 'rules', 'rules.yaml'), stringify({ rules: declared }));
    writeFileSync(path.join(dir, 'live.json'), JSON.stringify(takeSnapshot([{ app: 'default', rules: live }], new Date())));
  });
}

/** One row: the floor over the NDJSON `log`, the replay of `replayed` (the same log, or the same requests as Parquet). */
async function child(dir, log, shape, engine, replayed) {
  await project(dir, shape);
  const { replayProject: replayWith } = await import('../dist/engine/replay.js');
  const replayProject = (request, ctx) => replayWith({ ...request, engine }, ctx);
  const ctx = { cwd: dir, env: () => undefined, debug: () => {}, notice: () => {} };
  const replay = () => replayProject({ logs: [replayed], liveFile: 'live.json' }, ctx);
  writeFileSync(path.join(dir, 'one.ndjson'), `${requestLine(seededRandom(1), 1)}\n`);
  const fixedStart = performance.now();
  await replayProject({ logs: ['one.ndjson'], liveFile: 'live.json' }, ctx);
  const fixedMs = performance.now() - fixedStart;
  const floorStart = performance.now();
  const parsed = await readAndParse(log);
  const floorMs = performance.now() - floorStart;
  const replayStart = performance.now();
  const report = await replay();
  const replayMs = performance.now() - replayStart;
  if (report.evaluated !== parsed) throw new Error(`replayed ${report.evaluated} of ${parsed} requests`);
  const changed = report.transitions.reduce((sum, t) => sum + t.count, 0);
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const liveHeap = await liveHeapDuring(replayed, parsed, ctx, replayProject);
  process.stdout.write(JSON.stringify({ floorMs, replayMs, fixedMs, changed, peakRssMb, ...liveHeap }));
}

/**
 * heapUsed in MB after a full collection, during the replay (its compiled rules and tally
 * alive): when a tenth of the log has been decided, and when all of it has.
 */
async function liveHeapDuring(log, requests, ctx, replayProject) {
  const liveMb = () => {
    globalThis.gc();
    return process.memoryUsage().heapUsed / 1048576;
  };
  let tenthHeapMb;
  let endHeapMb;
  const onProgress = ({ lines }) => {
    if (tenthHeapMb === undefined && lines >= requests / 10) tenthHeapMb = liveMb();
    if (endHeapMb === undefined && lines >= requests) endHeapMb = liveMb();
  };
  await replayProject({ logs: [log], liveFile: 'live.json', onProgress }, ctx);
  return { tenthHeapMb, endHeapMb };
}

/** The js engine keeps within this many times the floor per request (fixed cost subtracted), on every shape. */
const REPLAY_TARGET = 10;

function runChild(dir, log, replayed, size, shape, engine, format) {
  const work = mkdtempSync(path.join(dir, `${shape}-${engine}-`));
  const result = spawnSync(process.execPath, ['--expose-gc', here, '--child', work, log, shape, engine, replayed], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (result.status !== 0) throw new Error(result.stderr);
  return { size, shape, engine, format, ...JSON.parse(result.stdout) };
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'botrules-replay-bench-'));
  try {
    const rows = [];
    for (const size of SIZES) {
      const log = path.join(dir, `log-${size}.ndjson`);
      await writeRequestLog(log, size);
      const parquet = path.join(dir, `log-${size}.parquet`);
      if (ENGINES.includes('duckdb')) await writeRequestParquet(log, parquet);
      let prefix;
      for (const shape of SHAPES) {
        for (const engine of ENGINES) {
          if (engine === 'js' && size > JS_LARGE.above && !JS_LARGE.shapes.includes(shape)) {
            prefix ??= await writeLogStart(log, path.join(dir, `log-${size}-start.ndjson`), JS_LARGE.above);
            rows.push({ ...runChild(dir, prefix, prefix, JS_LARGE.above, shape, engine, 'ndjson'), startOf: size });
            continue;
          }
          rows.push(runChild(dir, log, log, size, shape, engine, 'ndjson'));
          if (engine === 'duckdb') rows.push(runChild(dir, log, parquet, size, shape, engine, 'parquet'));
        }
      }
      rmSync(log);
      rmSync(parquet, { force: true });
      if (prefix !== undefined) rmSync(prefix);
    }
    process.stdout.write(`${RULES} rules per set, two sets (live and declared), NDJSON logs (and, for duckdb, the same requests as Parquet), ${os.cpus().length} cores, Node ${process.version}, load ${os.loadavg()[0].toFixed(1)}\n\n`);
    const starts = rows.filter((row) => row.startOf !== undefined).map((row) => `${row.startOf} ${row.shape}`);
    if (starts.length > 0) process.stdout.write(`The js engine replayed only the log's first ${JS_LARGE.above} requests on: ${starts.join(', ')} (above ${JS_LARGE.above} requests it replays the whole log only on ${JS_LARGE.shapes.join(', ')}: REPLAY_BENCH_JS_LARGE); its time for the whole log is taken as its fixed cost plus its time per request there times the log's requests (its "js ms").\n\n`);
    process.stdout.write('The floor is reading and JSON.parse of the NDJSON log (the same requests, for a Parquet row too).\n\n');
    process.stdout.write('The fixed cost (config, 1,000 rule files\' rules, snapshot, plan, compiling both sets) is measured on a one-line log; "per request" subtracts it.\n\n');
    process.stdout.write('Live heap: heapUsed after a full collection, in a second (untimed) replay of the log, when a tenth of it is decided and at its end.\n\n');
    process.stdout.write('| requests | rule shape | engine | log | read + JSON.parse (floor) ms | replay ms | replay / floor | js ms ÷ engine ms | per request: (replay − fixed) / floor | requests/s | fixed cost ms | changed | live heap MB at 1/10 → end | peak RSS MB |\n|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n');
    for (const r of rows) {
      const js = jsRowOf(rows, r);
      const requests = r.startOf === undefined ? r.size : `${r.size} (the first of ${r.startOf})`;
      process.stdout.write(`| ${requests} | ${r.shape} | ${r.engine} | ${r.format} | ${r.floorMs.toFixed(0)} | ${r.replayMs.toFixed(0)} | ${(r.replayMs / r.floorMs).toFixed(2)}× | ${js === undefined ? '–' : `${(jsMsFor(js, r) / r.replayMs).toFixed(2)}×`} | ${((r.replayMs - r.fixedMs) / r.floorMs).toFixed(2)}× | ${Math.round(r.size / (r.replayMs / 1000))} | ${r.fixedMs.toFixed(0)} | ${r.changed} | ${heapText(r.tenthHeapMb)} → ${heapText(r.endHeapMb)} | ${r.peakRssMb.toFixed(0)} |\n`);
    }
    const missed = missedTargets(rows);
    process.stdout.write(missed.length === 0 ? '\nEvery target of the duckdb engine is met.\n' : `\nTargets missed:\n${missed.map((line) => `- ${line}`).join('\n')}\n`);
    if (missed.length > 0) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The js row the row `r` is compared with: the same log, or its start when the js engine replayed only that. */
function jsRowOf(rows, r) {
  return rows.find((row) => row.engine === 'js' && row.shape === r.shape && (row.startOf ?? row.size) === (r.startOf ?? r.size));
}

/**
 * The js engine's time for `r`'s log: its own replay's, or, when it replayed only the log's start,
 * its fixed cost plus its time per request there times the requests of the whole log.
 */
function jsMsFor(js, r) {
  if (js.startOf === undefined) return js.replayMs;
  return js.fixedMs + ((js.replayMs - js.fixedMs) / js.size) * r.size;
}

/** The first `count` lines of `log`, as a file of their own. */
async function writeLogStart(log, file, count) {
  const lines = createInterface({ input: createReadStream(log), crlfDelay: Infinity });
  const out = createWriteStream(file);
  let written = 0;
  for await (const line of lines) {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
    written += 1;
    if (written === count) break;
  }
  out.end();
  await once(out, 'finish');
  return file;
}

/** The duckdb engine counts a batch's lines once DuckDB has decided it: its heap may not be sampled at a tenth. */
function heapText(mb) {
  return mb === undefined ? '–' : mb.toFixed(1);
}

/** The duckdb engine against the js engine of the same run and log (docs/replay.md, "Engines"). */
function missedTargets(rows) {
  const missed = [];
  for (const r of rows.filter((row) => row.engine === 'duckdb')) {
    const js = jsRowOf(rows, r);
    const label = `${r.size} requests, ${r.shape}${r.format === 'parquet' ? ', Parquet' : ''}`;
    const ndjson = rows.find((row) => row.engine === 'duckdb' && row.format === 'ndjson' && row.size === r.size && row.shape === r.shape);
    if (r.format === 'parquet') {
      const ratio = ndjson.replayMs / r.replayMs;
      if (ratio < TARGETS.parquet) missed.push(`${label}: duckdb from Parquet ${ratio.toFixed(2)}× its NDJSON requests/s, not ${TARGETS.parquet}×`);
      if (r.peakRssMb >= TARGETS.peakRssMb) missed.push(`${label}: duckdb peak RSS ${r.peakRssMb.toFixed(0)} MB, not under ${TARGETS.peakRssMb}`);
      continue;
    }
    if (js !== undefined) {
      const wanted = r.shape === 'last' ? TARGETS.speedupLast : TARGETS.speedup;
      const speedup = jsMsFor(js, r) / r.replayMs;
      if (speedup < wanted) missed.push(`${label}: duckdb ${speedup.toFixed(2)}× the js engine's requests/s, not ${wanted}×`);
    }
    if (r.replayMs / r.floorMs > TARGETS.floorRatio) missed.push(`${label}: duckdb ${(r.replayMs / r.floorMs).toFixed(2)}× the read-and-parse floor, not ${TARGETS.floorRatio}×`);
    if (r.peakRssMb >= TARGETS.peakRssMb) missed.push(`${label}: duckdb peak RSS ${r.peakRssMb.toFixed(0)} MB, not under ${TARGETS.peakRssMb}`);
  }
  for (const r of rows.filter((row) => row.engine === 'js')) {
    const perRequest = (r.replayMs - r.fixedMs) / r.floorMs;
    if (perRequest > REPLAY_TARGET) missed.push(`${r.startOf === undefined ? r.size : `the first ${r.size} of ${r.startOf}`} requests, ${r.shape}: js ${perRequest.toFixed(2)}× the read-and-parse floor per request, not within ${REPLAY_TARGET}×`);
  }
  return missed;
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4], process.argv[5], process.argv[6] ?? 'js', process.argv[7] ?? process.argv[4]);
else await main();
