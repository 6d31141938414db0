// The set of record identities `scripts report` keeps while paging (src/inventory/key-set.ts, an
// off-heap KeySet) against a plain Set<string>, in one run: the same unbundled CLI (dist/), the
// same emulator, the ndjson format (streamed, so the set is what grows), arms interleaved.
// The Set arm is the KeySet's prototype rebuilt on a Set<string> by a preload module, which
// imports the very module the CLI imports (dist/ is not bundled), so nothing else differs.
// Peak RSS is the child's process.resourceUsage().maxRSS, written at exit.
// BENCH_KEYSET_RECORDS (default 100,000: the largest size bench/scripts.bench.js measures) and
// BENCH_KEYSET_ROUNDS (default 2) size the run.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { startEmulator } from '../dist/emulator/index.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const RECORDS = Number(process.env.BENCH_KEYSET_RECORDS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_KEYSET_ROUNDS ?? 2);
const MAX_TAKE = 50;

const work = await mkdtemp(join(tmpdir(), 'botrules-bench-keyset-'));
const runner = join(work, 'cli.mjs');
const maxRss = join(work, 'max-rss.mjs');
const asSet = join(work, 'as-set.mjs');
await writeFile(runner, `import { runFromProcess } from ${JSON.stringify(pathToFileURL(join(root, 'dist', 'cli', 'main.js')).href)};\nawait runFromProcess();\n`);
await writeFile(maxRss, "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));\n");
await writeFile(
  asSet,
  `import { KeySet } from ${JSON.stringify(pathToFileURL(join(root, 'dist', 'inventory', 'key-set.js')).href)};\n` +
    'const sets = new WeakMap();\n' +
    'const of = (self) => { let set = sets.get(self); if (!set) { set = new Set(); sets.set(self, set); } return set; };\n' +
    'KeySet.prototype.add = function add(key) { const set = of(this); if (set.has(key)) return false; set.add(key); return true; };\n' +
    "Object.defineProperty(KeySet.prototype, 'size', { get() { return of(this).size; } });\n",
);

function report(emulator, arm, round) {
  const rssFile = join(work, `${arm}-${round}.rss`);
  const preloads = arm === 'Set' ? [maxRss, asSet] : [maxRss];
  const args = [...preloads.flatMap((file) => ['--import', pathToFileURL(file).href]), runner, 'scripts', 'report', '--app-id', 'app-demo', '--tld', 'shop.example.com',
    '--from', '60d', '--format', 'ndjson', '--page-size', String(MAX_TAKE), '--concurrency', '4', '--out', join(work, `${arm}-${round}.ndjson`)];
  const env = { ...process.env, BOTRULES_GATEWAY_URL: emulator.gatewayUrl, BOTRULES_API_TOKEN: emulator.tokens.api, NODE_EXTRA_CA_CERTS: emulator.caPath, BENCH_RSS_FILE: rssFile };
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { env, cwd: work, maxBuffer: 1 << 20 }, async (error, _stdout, stderr) => {
      if (error) return reject(new Error(`${arm} failed: ${stderr}`));
      const wallMs = performance.now() - started;
      const records = Number(/Wrote (\d+) scripts/.exec(stderr)?.[1] ?? NaN);
      resolve({ wallMs, rssMb: Number(await readFile(rssFile, 'utf8')) / 1024, records });
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const emulator = await startEmulator({ statePath: join(work, 'state.json'), generateScripts: RECORDS, maxTake: MAX_TAKE, latencyMs: 0, randomSeed: 1, apiToken: 'bench-api-token' });
try {
  const results = { KeySet: [], Set: [] };
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const arm of round % 2 === 0 ? ['KeySet', 'Set'] : ['Set', 'KeySet']) results[arm].push(await report(emulator, arm, round));
  }
  for (const [arm, runs] of Object.entries(results)) {
    if (runs.some((r) => r.records !== RECORDS)) throw new Error(`${arm} wrote ${runs.map((r) => r.records).join(', ')} records, not ${RECORDS}`);
  }
  const rss = (arm) => median(results[arm].map((r) => r.rssMb));
  const wall = (arm) => median(results[arm].map((r) => r.wallMs));
  console.log(`scripts report --format ndjson, ${RECORDS} records, take ${MAX_TAKE}, concurrency 4, ${ROUNDS} interleaved rounds, medians:`);
  for (const arm of ['KeySet', 'Set']) console.log(`- ${arm}: peak RSS ${rss(arm).toFixed(0)} MB, wall ${(wall(arm) / 1000).toFixed(1)} s`);
  console.log(`- Set / KeySet: peak RSS ${(rss('Set') / rss('KeySet')).toFixed(2)}x, wall ${(wall('Set') / wall('KeySet')).toFixed(2)}x`);
} finally {
  await emulator.stop();
  await rm(work, { recursive: true, force: true });
}
