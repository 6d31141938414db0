// Where the peak RSS of `botrules plan` comes from (issue #42): the plan of apply.bench.js
// (5,000 live rules of a shape, 5% of them moved and 10% edited in their rule files), planned
// against a live snapshot with V8's collector traced, its analyses on (the defaults) and off,
// BENCH_RUNS times each (default 3), interleaved. Per run: the child's peak RSS
// (process.resourceUsage().maxRSS), each full collection (its time, the heap before and after),
// each incremental marking's start (its reason, the old generation's size and the limit it
// reached, and that limit over the heap the full collection before it left), and the bytes
// scavenges promoted to the old generation in all. The child's own output is dropped (a
// preloaded module), so that the trace is all its standard output carries.
// BENCH_SHAPES names the shapes (default networks); BENCH_RULES the live rules (default 5,000).
// Usage: npm run build && node bench/plan-gc.js
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { preparePlanProject } from './plan-project.js';
import { timedNodeWithRss } from './timed-child.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'botrules.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LIVE_RULES = Number(process.env.BENCH_RULES ?? 5_000);
const SHAPES = (process.env.BENCH_SHAPES ?? 'networks').split(',');
const TRACE_FLAGS = ['--trace-gc-nvp', '--trace-incremental-marking'];
const ANALYSES_OFF = ['--no-behaviour-diff', '--transition-budget', '0'];
const DROP_OUTPUT = `data:text/javascript,${encodeURIComponent('process.stdout.write = (chunk, encoding, done) => { (typeof encoding === "function" ? encoding : done)?.(); return true; };\n')}`;
const MB = 1024 * 1024;

/** The trace lines of one run: full collections, marking starts, and the bytes scavenges promoted. */
function traced(stdout) {
  const full = [];
  const marking = [];
  let promoted = 0;
  for (const line of stdout.split('\n')) {
    const traceLine = /^\[\d+:0x[0-9a-f]+\]\s+(\d+) ms: (.*)$/.exec(line);
    if (traceLine === null) continue;
    const [, ms, text] = traceLine;
    const start = /^\[IncrementalMarking\] Start \(([^)]*)\): \(size\/limit\/slack\) v8: (\d+)MB \/ (\d+)MB/.exec(text);
    if (start !== null) marking.push({ ms: Number(ms), reason: start[1], size: Number(start[2]), limit: Number(start[3]), liveBefore: full.at(-1)?.after });
    const kind = / gc=(\w+) /.exec(text)?.[1];
    const field = (name) => Number(new RegExp(` ${name}=(\\d+)`).exec(text)?.[1] ?? 0);
    if (kind === 's') promoted += field('promoted');
    else if (kind !== undefined) full.push({ ms: Number(ms), before: field('total_size_before') / MB, after: field('total_size_after') / MB });
  }
  return { full, marking, promoted };
}

function describeRun(label, run) {
  const { full, marking, promoted } = traced(run.stdout);
  const lines = [`${label}: peak RSS ${(run.maxRssKb / 1024).toFixed(0)} MB, ${(run.ms / 1000).toFixed(1)} s; scavenges promoted ${(promoted / MB).toFixed(0)} MB in all`];
  lines.push(`  full collections: ${full.map((gc) => `${gc.ms} ms ${gc.before.toFixed(0)} → ${gc.after.toFixed(0)} MB`).join(', ')}`);
  lines.push(`  marking started: ${marking.map((m) => `${m.ms} ms (${m.reason}) at ${m.size} of ${m.limit} MB${m.liveBefore === undefined ? '' : `, limit ${(m.limit / m.liveBefore).toFixed(1)}× the ${m.liveBefore.toFixed(0)} MB left before`}`).join('; ')}`);
  return lines.join('\n');
}

async function benchShape(work, shape) {
  const dir = await preparePlanProject(work, shape, LIVE_RULES);
  const rssFile = join(dir, 'max-rss.txt');
  const plan = [bin, 'plan', '--format', 'json', '--dir', 'rules', '--live', 'live.json'];
  const run = (extra) => timedNodeWithRss(['--import', DROP_OUTPUT, ...TRACE_FLAGS, ...plan, ...extra], { cwd: dir, env: {}, rssFile });
  await run(ANALYSES_OFF); // warm-up (file cache)
  console.log(`## ${shape}\n`);
  console.log('```');
  for (let i = 1; i <= RUNS; i += 1) {
    console.log(describeRun(`analyses off, run ${i}`, await run(ANALYSES_OFF)));
    console.log(describeRun(`analyses on, run ${i}`, await run([])));
  }
  console.log('```\n');
}

const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
console.log(`Commit ${commit}, Node ${process.version}, load average ${(await import('node:os')).loadavg()[0].toFixed(1)} at the start; ${LIVE_RULES} live rules, ${RUNS} runs each.\n`);
const work = await mkdtemp(join(tmpdir(), 'botrules-plan-gc-'));
try {
  for (const shape of SHAPES) await benchShape(work, shape);
} finally {
  await rm(work, { recursive: true, force: true });
}
