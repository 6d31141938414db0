// What DuckDB's read_json costs per column (the duckdb engine reads an NDJSON log with it twice:
// docs/replay.md, "Engines"): CPU ms of this process (process.cpuUsage, DuckDB's threads
// included) and wall ms per query over the replay benchmark's NDJSON log of REPLAY_STEPS_REQUESTS
// requests (default 1,000,000), with the engine's settings and REPLAY_STEPS_THREADS threads
// (default 2): only counting the lines; one column; the eight text columns; all eleven with the
// maps as JSON (the engine's) or as VARCHAR; all eleven numbered by row_number() OVER () as the
// group query numbers them. Each query reads every column it names (a maximum of its length).
// Usage: node bench/replay-read-json.js
import { createWriteStream, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { requestLine } from './replay-requests.js';

const REQUESTS = Number(process.env.REPLAY_STEPS_REQUESTS ?? 1_000_000);
const REPS = Number(process.env.REPLAY_STEPS_REPS ?? 3);
const THREADS = process.env.REPLAY_STEPS_THREADS ?? '2';
const TEXT = ['path', 'method', 'userAgent', 'ip', 'asn', 'country', 'domain', 'deviceType'];
const MAPS = ['headers', 'query', 'custom'];
const cpu = () => { const used = process.cpuUsage(); return (used.user + used.system) / 1000; };

async function writeLog(file) {
  const { seededRandom } = await import('../dist/emulator/random.js');
  const out = createWriteStream(file);
  const next = seededRandom(REQUESTS);
  for (let i = 0; i < REQUESTS; i += 1) if (!out.write(`${requestLine(next, i)}\n`)) await new Promise((done) => out.once('drain', done));
  await new Promise((done) => out.end(done));
}

const read = (mapType) => `read_json(?, format = 'newline_delimited', columns = {${[...TEXT.map((field) => `${field}: 'VARCHAR'`), ...MAPS.map((field) => `${field}: '${mapType}'`)].join(', ')}}, ` +
  "maximum_object_size = 262144, compression = 'uncompressed')";
const lengths = (fields) => fields.map((field) => `max(length(CAST("${field}" AS VARCHAR)))`).join(', ');
const QUERIES = {
  'lines counted': `SELECT count(*) FROM ${read('JSON')}`,
  'one column (path)': `SELECT ${lengths(['path'])} FROM ${read('JSON')}`,
  'eight text columns': `SELECT ${lengths(TEXT)} FROM ${read('JSON')}`,
  'eleven, maps as JSON': `SELECT ${lengths([...TEXT, ...MAPS])} FROM ${read('JSON')}`,
  'eleven, maps as VARCHAR': `SELECT ${lengths([...TEXT, ...MAPS])} FROM ${read('VARCHAR')}`,
  'eleven, numbered': `SELECT max(botrules_row), ${lengths([...TEXT, ...MAPS])} FROM (SELECT row_number() OVER () AS botrules_row, * FROM ${read('JSON')})`,
};

const log = path.join(os.tmpdir(), `botrules-replay-steps-${REQUESTS}.ndjson`);
if (!existsSync(log)) await writeLog(log);
const instance = await DuckDBInstance.create(':memory:', { memory_limit: '768MB', threads: THREADS, preserve_insertion_order: 'false' });
const connection = await instance.connect();
const times = new Map(Object.keys(QUERIES).map((name) => [name, []]));
for (let rep = 0; rep < REPS; rep += 1) {
  for (const [name, sql] of Object.entries(QUERIES)) {
    const [startCpu, startWall] = [cpu(), performance.now()];
    await connection.runAndReadAll(sql, [log]);
    times.get(name).push(`${(cpu() - startCpu).toFixed(0)} / ${(performance.now() - startWall).toFixed(0)}`);
  }
}
connection.closeSync();
instance.closeSync();
process.stdout.write(`${REQUESTS} requests, ${os.cpus().length} cores, Node ${process.version}, DuckDB threads ${THREADS}, load ${os.loadavg()[0].toFixed(1)}\n\n`);
process.stdout.write(`| query | ${Array.from({ length: REPS }, (_, rep) => `run ${rep + 1}: CPU / wall ms`).join(' | ')} |\n|---|${'---:|'.repeat(REPS)}\n`);
for (const [name, runs] of times) process.stdout.write(`| ${name} | ${runs.join(' | ')} |\n`);
