// Script inventory export against the emulator (30 ms latency, take capped at 50):
//  - wall time of `scripts report` for 100,000 records with --concurrency 4 against the
//    sequential pager (--concurrency 1), measured in the same run, as a ratio;
//  - peak RSS of the CLI process for the streamed ndjson format at 10,000 and 100,000 records
//    and half-way between (it should stay flat), with the json snapshot (built in memory) for
//    comparison.
// The emulator runs in this process; the CLI is a child process, so its RSS is its own. Peak
// RSS is the child's process.resourceUsage().maxRSS (getrusage ru_maxrss: the high-water mark
// of resident memory, Node's own baseline included), written by a preload module at exit.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { startEmulator } from '../dist/emulator/index.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cli = join(root, 'bin', 'botrules.js');
const LATENCY_MS = 30;
const MAX_TAKE = 50;
const RSS_TARGET_MB = 150;
// The sizes; smaller ones (BENCH_SCRIPTS_SMALL/LARGE) give a quick check of the harness.
// The middle size shows whether memory is flat past the first seconds of an export.
const SMALL = Number(process.env.BENCH_SCRIPTS_SMALL ?? 10_000);
const LARGE = Number(process.env.BENCH_SCRIPTS_LARGE ?? 100_000);
const MIDDLE = Math.round((SMALL + LARGE) / 2);
const size = (n) => (n % 1000 === 0 ? `${n / 1000}k` : String(n));

const work = await mkdtemp(join(tmpdir(), 'botrules-bench-scripts-'));
const preload = join(work, 'max-rss.mjs');
await writeFile(
  preload,
  "import { writeFileSync } from 'node:fs';\n" +
    "process.on('exit', () => writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));\n",
);

/** Runs `botrules scripts report` in a child process; resolves to wall time, peak RSS and output size. */
function report(emulator, { format, concurrency, label }) {
  const out = join(work, `${label}.${format}`);
  const rssFile = join(work, `${label}.rss`);
  const args = ['--import', pathToFileURL(preload).href, cli, 'scripts', 'report', '--app-id', 'app-demo', '--tld', 'shop.example.com',
    '--from', '60d', '--format', format, '--page-size', String(MAX_TAKE), '--concurrency', String(concurrency), '--out', out];
  const env = {
    ...process.env,
    BOTRULES_GATEWAY_URL: emulator.gatewayUrl,
    BOTRULES_API_TOKEN: emulator.tokens.api,
    NODE_EXTRA_CA_CERTS: emulator.caPath,
    BENCH_RSS_FILE: rssFile,
  };
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { env, cwd: work, maxBuffer: 1 << 20 }, async (error, _stdout, stderr) => {
      if (error) return reject(new Error(`${label} failed: ${stderr}`));
      const wallMs = performance.now() - started;
      const maxRssKb = Number(await readFile(rssFile, 'utf8'));
      const bytes = (await stat(out)).size;
      const records = Number(/Wrote (\d+) scripts/.exec(stderr)?.[1] ?? NaN);
      resolve({ label, format, concurrency, wallMs, rssMb: maxRssKb / 1024, bytes, records, written: await recordsWritten(out, format) });
    });
  });
}

/** How many script records the file holds, counted from the file itself (not from what the CLI says). */
async function recordsWritten(file, format) {
  const text = await readFile(file, 'utf8');
  if (format === 'ndjson') return text.split('\n').filter((line) => line.trim() !== '').length;
  return JSON.parse(text).records.length;
}

async function withEmulator(count, run) {
  const emulator = await startEmulator({
    statePath: join(work, `state-${count}.json`),
    generateScripts: count,
    maxTake: MAX_TAKE,
    latencyMs: LATENCY_MS,
    randomSeed: 1,
    apiToken: 'bench-api-token',
  });
  try {
    return await run(emulator);
  } finally {
    await emulator.stop();
  }
}

try {
  const small = await withEmulator(SMALL, (emulator) => report(emulator, { format: 'ndjson', concurrency: 4, label: `ndjson-${size(SMALL)}-c4` }));
  const middle = await withEmulator(MIDDLE, (emulator) => report(emulator, { format: 'ndjson', concurrency: 4, label: `ndjson-${size(MIDDLE)}-c4` }));
  const [concurrent, sequential, snapshot] = await withEmulator(LARGE, async (emulator) => [
    await report(emulator, { format: 'ndjson', concurrency: 4, label: `ndjson-${size(LARGE)}-c4` }),
    await report(emulator, { format: 'ndjson', concurrency: 1, label: `ndjson-${size(LARGE)}-c1` }),
    await report(emulator, { format: 'json', concurrency: 4, label: `json-${size(LARGE)}-c4` }),
  ]);

  const rows = [small, middle, concurrent, sequential, snapshot];
  // A fast report that lost or repeated records would be no figure at all: every run must write
  // every generated record once, and say so.
  const expected = new Map([[small, SMALL], [middle, MIDDLE], [concurrent, LARGE], [sequential, LARGE], [snapshot, LARGE]]);
  const wrong = rows.filter((r) => r.records !== expected.get(r) || r.written !== expected.get(r));
  for (const r of wrong) console.error(`${r.label}: wrote ${r.written} records and said ${r.records}, not the ${expected.get(r)} generated`);
  if (wrong.length > 0) process.exitCode = 1;
  const line = (cells) => `| ${cells.join(' | ')} |`;
  console.log(`Emulator: ${LATENCY_MS} ms latency, take capped at ${MAX_TAKE}, page size ${MAX_TAKE}. One run each.\n`);
  console.log(line(['run', 'records written', 'format', 'concurrency', 'wall time', 'peak RSS', 'output']));
  console.log(line(['---', '---:', '---', '---:', '---:', '---:', '---:']));
  for (const r of rows) {
    console.log(line([r.label, r.written, r.format, r.concurrency, `${(r.wallMs / 1000).toFixed(1)} s`, `${r.rssMb.toFixed(0)} MB`, `${(r.bytes / 1048576).toFixed(1)} MiB`]));
  }
  console.log('');
  console.log(`- speed-up of concurrency 4 over the sequential pager (${size(LARGE)}): **${(sequential.wallMs / concurrent.wallMs).toFixed(2)}x**`);
  console.log(`- ndjson peak RSS ${size(SMALL)} → ${size(MIDDLE)} → ${size(LARGE)}: ` +
    `${small.rssMb.toFixed(0)} MB → ${middle.rssMb.toFixed(0)} MB → ${concurrent.rssMb.toFixed(0)} MB ` +
    `(${concurrent.rssMb < RSS_TARGET_MB ? 'under' : 'OVER'} the ${RSS_TARGET_MB} MB target)`);
  if (concurrent.rssMb >= RSS_TARGET_MB) process.exitCode = 1;
} finally {
  await rm(work, { recursive: true, force: true });
}
