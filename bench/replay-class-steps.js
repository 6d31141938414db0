// The duckdb engine's native reading, step by step, in CPU ms of this process (process.cpuUsage,
// DuckDB's threads included): the distinct-values query, the JavaScript between the queries
// (classing the values, filling the class tables) and the group query, for one or more builds
// (their dist directories, alternated), on the replay benchmark's NDJSON log of
// REPLAY_STEPS_REQUESTS requests (default 1,000,000) and the shapes of REPLAY_BENCH_SHAPES.
// REPLAY_STEPS_THREADS sets DuckDB's threads (1: steadier CPU figures on a shared machine);
// REPLAY_STEPS_EXPLAIN=1 also runs each query under EXPLAIN ANALYZE first and prints its operators' times
// (that run's CPU then falls in the column before the query's).
// "groups sig" digests the groups (counts and first records, not the class numbers, which follow
// the order DuckDB returns the values in): it must be the same for every build.
// Usage: node bench/replay-class-steps.js <dist directory>… (e.g. dist, or a copy of another build's)
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPLAY_SHAPES } from './replay-shapes.js';
import { requestLine } from './replay-requests.js';

const REQUESTS = Number(process.env.REPLAY_STEPS_REQUESTS ?? 1_000_000);
const SHAPES = (process.env.REPLAY_BENCH_SHAPES ?? 'distinct,regions,generated,last').split(',');
const REPS = Number(process.env.REPLAY_STEPS_REPS ?? 2);
const builds = process.argv.slice(2).map((dir) => path.resolve(dir));
const cpu = () => { const used = process.cpuUsage(); return (used.user + used.system) / 1000; };

async function writeLog(file, builds) {
  const { seededRandom } = await import(`${builds[0]}/emulator/random.js`);
  const out = createWriteStream(file);
  const next = seededRandom(REQUESTS);
  for (let i = 0; i < REQUESTS; i += 1) if (!out.write(`${requestLine(next, i)}\n`)) await new Promise((done) => out.once('drain', done));
  await new Promise((done) => out.end(done));
}

/** EXPLAIN ANALYZE's tree as one line: its total, then each operator's name and seconds, top down (a join's sides in turn). */
function operators(tree) {
  const total = /Total Time: ([0-9.]+s)/.exec(tree)?.[1] ?? '?';
  const found = [];
  // Boxes side by side: a box's name and its time are in the same column of the text (29 wide).
  const names = new Map();
  for (const line of tree.split('\n')) {
    for (const match of line.matchAll(/[^│┌┐└┘─┬┴├┤]+/g)) {
      const cell = match[0].trim();
      const column = Math.floor((match.index + match[0].length / 2) / 29);
      if (/^[A-Z][A-Z_]{3,}$/.test(cell)) names.set(column, cell);
      else if (names.has(column) && /^\(?[0-9.]+s\)?$/.test(cell)) {
        found.push(`${names.get(column)} ${cell}`);
        names.delete(column);
      }
    }
  }
  return `total ${total}: ${found.join(', ')}`;
}

async function steps(dist, shape, log) {
  const { compileProgram } = await import(`${dist}/semantics/program.js`);
  const { DuckDbDecider } = await import(`${dist}/replay/duckdb/decider.js`);
  const rules = REPLAY_SHAPES[shape]().map((rule) => ({ status: 'active', actions: ['block'], description: '', ...rule }));
  const decider = await DuckDbDecider.open(compileProgram([rules, rules]));
  // The decider's connection, its queries timed as they run.
  const connection = decider.connection;
  if (process.env.REPLAY_STEPS_THREADS !== undefined) await connection.run(`SET threads = ${Number(process.env.REPLAY_STEPS_THREADS)}`);
  const run = connection.runAndReadAll.bind(connection);
  const times = [];
  const explained = [];
  let last = cpu();
  connection.runAndReadAll = async (sql, values) => {
    if (process.env.REPLAY_STEPS_EXPLAIN !== undefined) explained.push(operators(String((await run(`EXPLAIN ANALYZE ${sql}`, values)).getRows()[0][1])));
    const start = cpu();
    times.push(start - last);
    const result = await run(sql, values);
    last = cpu();
    times.push(last - start);
    return result;
  };
  const first = cpu();
  const reading = await decider.readClasses(log, { kind: 'ndjson', gzip: false }, { fieldsRead: new Set(), isSecret: () => false });
  const total = cpu() - first;
  decider.close();
  const groups = reading.groups.map((group) => [group.firsts, group.count]).sort((a, b) => a[0][0] - b[0][0]);
  const sig = createHash('sha1').update(JSON.stringify([groups, reading.odd.count])).digest('hex').slice(0, 10);
  for (const [at, plan] of explained.entries()) process.stdout.write(`${path.basename(path.dirname(dist))}/${path.basename(dist)} ${shape} ${at === 0 ? 'distinct-values' : 'group'} query: ${plan}\n`);
  return `| ${shape} | ${times.slice(1, 4).map((ms) => ms.toFixed(0)).join(' | ')} | ${total.toFixed(0)} | ${reading.groups.length} | ${sig} |`;
}

const log = path.join(os.tmpdir(), `botrules-replay-steps-${REQUESTS}.ndjson`);
if (!existsSync(log)) await writeLog(log, builds);
process.stdout.write(`${REQUESTS} requests, ${os.cpus().length} cores, Node ${process.version}, DuckDB threads ${process.env.REPLAY_STEPS_THREADS ?? 'the engine\'s'}, load ${os.loadavg()[0].toFixed(1)}\n\n`);
process.stdout.write('| build | shape | distinct-values query CPU ms | classing, tables CPU ms | group query CPU ms | whole reading CPU ms | groups | groups sig |\n|---|---|---:|---:|---:|---:|---:|---|\n');
for (const shape of SHAPES) {
  for (let rep = 0; rep < REPS; rep += 1) {
    for (const [at, dist] of builds.entries()) process.stdout.write(`| ${at === 0 ? 'before' : at === 1 ? 'after' : `build ${at + 1}`} ${await steps(dist, shape, log)}\n`);
  }
}
