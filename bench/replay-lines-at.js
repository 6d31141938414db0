// The duckdb engine's reading again of the lines its report shows (readLog with `only`,
// dist/replay/read.js): CPU ms of this process (process.cpuUsage) to reach lines at growing
// ordinals of the replay benchmark's NDJSON log of REPLAY_STEPS_REQUESTS requests (default
// 1,000,000), for one or more builds (their dist directories, alternated), beside the floor
// (reading and JSON.parse of every line). Where the report shows a record near the log's end
// (`distinct`, `fleets`, `checkouts`), the whole log is scanned. The same log gzipped (level 1):
// the engine's reading through it first for the bomb guard (nativeSource), and the last line again.
// Usage: node bench/replay-lines-at.js <dist directory>… (e.g. dist, or a copy of another build's)
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { requestLine } from './replay-requests.js';

const REQUESTS = Number(process.env.REPLAY_STEPS_REQUESTS ?? 1_000_000);
const REPS = Number(process.env.REPLAY_STEPS_REPS ?? 3);
const builds = process.argv.slice(2).map((dir) => path.resolve(dir));
const cpu = () => { const used = process.cpuUsage(); return (used.user + used.system) / 1000; };

async function writeLog(file) {
  const { seededRandom } = await import(`${builds[0]}/emulator/random.js`);
  const out = createWriteStream(file);
  const next = seededRandom(REQUESTS);
  for (let i = 0; i < REQUESTS; i += 1) if (!out.write(`${requestLine(next, i)}\n`)) await new Promise((done) => out.once('drain', done));
  await new Promise((done) => out.end(done));
}

async function floor(log) {
  const start = cpu();
  const stream = createReadStream(log);
  stream.setEncoding('utf8');
  let rest = '';
  for await (const chunk of stream) {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    for (const line of lines) JSON.parse(line);
  }
  return cpu() - start;
}

async function linesAt(dist, log, ordinals) {
  const { readLog } = await import(`${dist}/replay/read.js`);
  const start = cpu();
  let found = 0;
  for await (const batch of readLog(log, { cwd: '/', only: new Set(ordinals) })) found += batch.length;
  if (found !== ordinals.length) throw new Error(`${dist}: ${found} lines of ${ordinals.length}`);
  return cpu() - start;
}

/** The engine's first look at a gzip log: read through once by the bomb guard. */
async function guardPass(dist, gzipped) {
  const { nativeSource } = await import(`${dist}/engine/replay-duckdb-files.js`);
  const start = cpu();
  const source = await nativeSource(gzipped, gzipped, { cwd: '/' }, undefined);
  if (typeof source === 'string') throw new Error(`${dist}: ${source}`);
  return cpu() - start;
}

const log = path.join(os.tmpdir(), `botrules-replay-steps-${REQUESTS}.ndjson`);
if (!existsSync(log)) await writeLog(log);
const gzipped = `${log}.gz`;
if (!existsSync(gzipped)) await pipeline(createReadStream(log), createGzip({ level: 1 }), createWriteStream(gzipped));
const lasts = [1_000, Math.round(REQUESTS / 5), Math.round(REQUESTS / 2), REQUESTS];
process.stdout.write(`${REQUESTS} requests, ${os.cpus().length} cores, Node ${process.version}, load ${os.loadavg()[0].toFixed(1)}\n\n`);
process.stdout.write(`| build | floor CPU ms | ${lasts.map((last) => `lines 1–3 and ${last.toLocaleString('en-US')} CPU ms`).join(' | ')} | gzip: guard's reading CPU ms | gzip: lines 1–3 and ${REQUESTS.toLocaleString('en-US')} CPU ms |\n` +
  `|---|---:|${lasts.map(() => '---:').join('|')}|---:|---:|\n`);
for (let rep = 0; rep < REPS; rep += 1) {
  for (const [at, dist] of builds.entries()) {
    const times = [];
    for (const last of lasts) times.push(await linesAt(dist, log, [1, 2, 3, last]));
    times.push(await guardPass(dist, gzipped), await linesAt(dist, gzipped, [1, 2, 3, REQUESTS]));
    process.stdout.write(`| ${at === 0 ? 'before' : at === 1 ? 'after' : `build ${at + 1}`} | ${(await floor(log)).toFixed(0)} | ${times.map((ms) => ms.toFixed(0)).join(' | ')} |\n`);
  }
}
