// What `botrules plan` leaves in the heap's old generation, by allocation site (issue #42): the
// plan of apply.bench.js (5,000 live rules of a shape, 5% of them moved and 10% edited) against a
// live snapshot, its analyses on (the defaults) and off, each under V8's sampling heap profiler
// (the inspector's HeapProfiler.startSampling, one sample per 16 KiB allocated on average) set
// to keep the samples of objects a full collection freed and to drop those a scavenge freed:
// what is left is what scavenges promoted (or still held at exit), the bytes that fill the old
// generation up to the limit the last full collection set (bench/README.md, "Where `networks`'
// peak RSS comes from"). Per site, the bytes with the analyses on minus off, natives (Map#set,
// Array#push...) counted to the function that called them. The child runs dist/ unbundled,
// whose source maps name each site by its file under src/ and the line its function starts
// on, and without inlining (--no-turbo-inlining), so that an allocation is counted to the
// function that makes it and not to the one it was inlined into. Samples are estimates: a site
// under 0.5 MB is within the noise of one run.
// BENCH_SHAPES names the shapes (default networks); BENCH_RULES the live rules (default 5,000);
// BENCH_TOP how many sites (default 25).
// Usage: npm run build && node bench/plan-promoted.js
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { preparePlanProject } from './plan-project.js';
import { timedNode } from './timed-child.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const LIVE_RULES = Number(process.env.BENCH_RULES ?? 5_000);
const SHAPES = (process.env.BENCH_SHAPES ?? 'networks').split(',');
const TOP = Number(process.env.BENCH_TOP ?? 25);
const ANALYSES_OFF = ['--no-behaviour-diff', '--transition-budget', '0'];
const SAMPLING_INTERVAL = 16 * 1024;
const MB = 1024 * 1024;

// Preloaded into the child: sampling from the start, the profile written at exit to the file
// BENCH_PROFILE_FILE names (the in-process inspector session answers synchronously).
const SAMPLE_HEAP = `data:text/javascript,${encodeURIComponent(`import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
const session = new Session();
session.connect();
session.post('HeapProfiler.startSampling', { samplingInterval: ${SAMPLING_INTERVAL}, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false });
process.on('exit', () => session.post('HeapProfiler.getSamplingProfile', (error, answer) => {
  if (error) throw error;
  writeFileSync(process.env.BENCH_PROFILE_FILE, JSON.stringify(answer.profile));
}));
`)}`;

const sourceMaps = new Map();

/** A frame of dist/ by its function's name, its file under src/ and the line the function starts on. */
function siteOf(frame) {
  const name = frame.functionName || '(anonymous)';
  let map = sourceMaps.get(frame.url);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(frame.url)}.map`, 'utf8')));
    } catch {
      map = null;
    }
    sourceMaps.set(frame.url, map);
  }
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber);
  if (entry?.originalSource === undefined) return `${name} ${frame.url.slice(pathToFileURL(root).href.length + 1)}:${frame.lineNumber + 1}`;
  return `${name} ${entry.originalSource.replace(/^.*?\/src\//, 'src/')}:${entry.originalLine + 1}`;
}

/** Sampled bytes per site; a native's or Node's own frame counts to the nearest function of dist/ that called it. */
function bytesBySite(profile) {
  const bytes = new Map();
  const distUrl = pathToFileURL(join(root, 'dist')).href;
  const walk = (node, caller) => {
    const site = node.callFrame.url.startsWith(distUrl) ? siteOf(node.callFrame) : caller;
    if (node.selfSize > 0) bytes.set(site, (bytes.get(site) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child, site);
  };
  walk(profile.head, '(outside dist/: start-up, Node)');
  return bytes;
}

async function sampledPlan(dir, extra) {
  const profileFile = join(dir, 'profile.json');
  const runner = join(dir, 'run-unbundled.mjs');
  await writeFile(runner, `const { runFromProcess } = await import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'cli', 'main.js')).href)});\nawait runFromProcess();\n`);
  const plan = ['plan', '--format', 'json', '--dir', 'rules', '--live', 'live.json', ...extra];
  const run = await timedNode(['--no-turbo-inlining', '--import', SAMPLE_HEAP, runner, ...plan], { cwd: dir, env: { BENCH_PROFILE_FILE: profileFile } });
  const bytes = bytesBySite(JSON.parse(await readFile(profileFile, 'utf8')));
  await rm(profileFile);
  return { bytes, ms: run.ms };
}

const total = (bytes) => [...bytes.values()].reduce((sum, value) => sum + value, 0);
const fileOf = (site) => site.split(' ')[1]?.replace(/:\d+$/, '') ?? site;
const mb = (value) => (value / MB).toFixed(1).padStart(6);

function byFile(bytes) {
  const files = new Map();
  for (const [site, value] of bytes) files.set(fileOf(site), (files.get(fileOf(site)) ?? 0) + value);
  return files;
}

/** The rows whose bytes grow most with the analyses on, largest first. */
function grown(on, off, count) {
  return [...new Set([...on.keys(), ...off.keys()])]
    .map((site) => ({ site, on: on.get(site) ?? 0, off: off.get(site) ?? 0 }))
    .sort((a, b) => b.on - b.off - (a.on - a.off))
    .slice(0, count)
    .map(({ site, on: withAnalyses, off: without }) => `${mb(withAnalyses - without)} ${mb(withAnalyses)} ${mb(without)}  ${site}`);
}

async function benchShape(work, shape) {
  const dir = await preparePlanProject(work, shape, LIVE_RULES);
  const off = await sampledPlan(dir, ANALYSES_OFF);
  const on = await sampledPlan(dir, []);
  console.log(`## ${shape}\n`);
  console.log('```');
  console.log(`sampled bytes promoted or freed by a full collection: analyses on ${mb(total(on.bytes)).trim()} MB (${(on.ms / 1000).toFixed(1)} s), off ${mb(total(off.bytes)).trim()} MB (${(off.ms / 1000).toFixed(1)} s)`);
  console.log(`\n   MB on−off     on    off  by file`);
  for (const line of grown(byFile(on.bytes), byFile(off.bytes), 15)) console.log(line);
  console.log(`\n   MB on−off     on    off  by site (function, the line it starts on)`);
  for (const line of grown(on.bytes, off.bytes, TOP)) console.log(line);
  console.log('```\n');
}

const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
console.log(`Commit ${commit}, Node ${process.version}, load average ${loadavg()[0].toFixed(1)} at the start; ${LIVE_RULES} live rules, one run per shape, analyses off then on.\n`);
const work = await mkdtemp(join(tmpdir(), 'botrules-plan-promoted-'));
try {
  for (const shape of SHAPES) await benchShape(work, shape);
} finally {
  await rm(work, { recursive: true, force: true });
}
