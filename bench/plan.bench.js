/* global structuredClone */
// Planner only, in-process: how long planApp takes and how much heap it needs for a large
// app, and how many PATCH requests its plan sends compared with the lower bound (computed
// here independently, by an O(n²) dynamic programme) and with a naive full sync (every
// rule PATCHed whole with its priority). Run through `npm run bench` (needs --expose-gc).
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { planApp } from '../dist/plan/planner.js';
// The emulator's seeded generator (mulberry32), so every run uses the same rules.
import { seededRandom as random } from '../dist/emulator/random.js';

const SIZES = [1_000, 5_000, 10_000];
const MOVED_SHARE = 0.05;
const EDITED_SHARE = 0.1;
const WARMUP_RUNS = 3;
const TIMED_RUNS = 15;

function conditionsFor(i) {
  return {
    operator: '$or',
    children: [
      {
        operator: '$and',
        children: [
          { conditionType: 'userAgent', operator: '$contains', value: `crawler-${i}` },
          { conditionType: 'socketIps', operator: '$in', value: [`198.51.${i % 256}.0/24`, `203.0.${(i * 7) % 256}.0/24`] },
          { conditionType: 'header', fieldOption: 'x-client', operator: '$exists' },
        ],
      },
      { operator: '$and', children: [{ conditionType: 'path', operator: '$startsWith', value: `/api/v${i % 5}` }] },
    ],
  };
}

/** n live rules, and declared rules with MOVED_SHARE moved and EDITED_SHARE edited. */
function scenario(n, seed) {
  const next = random(seed);
  const live = Array.from({ length: n }, (_, i) => ({
    ruleId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    priority: i,
    name: `rule ${i}`,
    description: `generated rule ${i}`,
    status: 'active',
    actions: i % 3 === 0 ? ['allow'] : ['blockWithChallenge', 'hardBlock'],
    conditions: conditionsFor(i),
  }));
  const declared = live.map(({ ruleId: _id, priority: _p, ...fields }, i) => ({
    ...structuredClone(fields),
    source: { file: `rules/${String(Math.floor(i / 100)).padStart(3, '0')}.yaml`, line: (i % 100) * 12 + 2, col: 5 },
  }));
  const edited = new Set();
  while (edited.size < Math.round(n * EDITED_SHARE)) edited.add(Math.floor(next() * n));
  for (const i of edited) declared[i].description = `edited rule ${i}`;
  for (let k = 0; k < Math.round(n * MOVED_SHARE); k += 1) {
    const [rule] = declared.splice(Math.floor(next() * declared.length), 1);
    declared.splice(Math.floor(next() * (declared.length + 1)), 0, rule);
  }
  return { live, declared, edited };
}

/** n − most unedited rules that can stay in place (an increasing subsequence by declared index). */
function lowerBound({ live, declared, edited }) {
  const declaredIndex = new Map(declared.map((rule, index) => [rule.name, index]));
  const seq = live.map((rule) => declaredIndex.get(rule.name));
  const weight = live.map((_, i) => (edited.has(i) ? 0 : 1));
  const best = new Array(seq.length).fill(0);
  let kept = 0;
  for (let i = 0; i < seq.length; i += 1) {
    best[i] = weight[i];
    for (let j = 0; j < i; j += 1) if (seq[j] < seq[i] && best[j] + weight[i] > best[i]) best[i] = best[j] + weight[i];
    kept = Math.max(kept, best[i]);
  }
  return seq.length - kept;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Wall time and CPU time (user + system, all threads) of one call, in ms. */
function timeMs(fn) {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  fn();
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

function measure(n) {
  const input = scenario(n, n);
  const run = () => planApp({ app: 'default', declared: input.declared, live: input.live, unmanaged: 'keep' });
  for (let i = 0; i < WARMUP_RUNS; i += 1) run();
  const planTimes = [];
  const baselineTimes = [];
  for (let i = 0; i < TIMED_RUNS; i += 1) {
    baselineTimes.push(timeMs(() => structuredClone(input.live)).wall);
    planTimes.push(timeMs(run));
  }
  globalThis.gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const { plan, problems } = run();
  const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
  globalThis.gc();
  const heapRetained = process.memoryUsage().heapUsed - heapBefore;
  if (problems.length > 0) throw new Error(`unexpected problems: ${problems[0].message}`);
  const bound = lowerBound(input);
  if (plan.steps.length !== bound) throw new Error(`${plan.steps.length} PATCH requests, lower bound ${bound}`);
  const mb = (bytes) => `${(Math.max(0, bytes) / 2 ** 20).toFixed(1)} MB`;
  return {
    n,
    plan,
    bound,
    planMs: median(planTimes.map((t) => t.wall)),
    planCpuMs: median(planTimes.map((t) => t.cpu)),
    baselineMs: median(baselineTimes),
    heapGrowth: mb(heapGrowth),
    heapRetained: mb(heapRetained),
  };
}

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc (npm run bench does)');
const rows = SIZES.map(measure);
const moved = (plan) => plan.steps.filter((s) => s.body.priority !== undefined).length;
process.stdout.write(`planApp in-process, ${MOVED_SHARE * 100}% of the rules moved and ${EDITED_SHARE * 100}% edited; median of ${TIMED_RUNS} runs.\n`);
process.stdout.write('Baseline: structuredClone of the same live rules, measured alongside (wall time ratio).\n');
process.stdout.write(`Load average while measuring: ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores.\n\n`);
process.stdout.write('| live rules | planApp wall (median) | CPU time (median) | × baseline | heap growth during one plan | heap kept by the plan | PATCH requests | of which carry priority | lower bound | naive full sync |\n');
process.stdout.write('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n');
for (const r of rows) {
  const cells = [
    r.n.toLocaleString('en-US'),
    `${r.planMs.toFixed(1)} ms`,
    `${r.planCpuMs.toFixed(1)} ms`,
    `${(r.planMs / r.baselineMs).toFixed(1)}×`,
    r.heapGrowth,
    r.heapRetained,
    r.plan.steps.length,
    moved(r.plan),
    r.bound,
    r.n.toLocaleString('en-US'),
  ];
  process.stdout.write(`| ${cells.join(' | ')} |\n`);
}
const maxRssMb = process.resourceUsage().maxRSS / 1024;
process.stdout.write(`\nPeak RSS of the whole benchmark process: ${maxRssMb.toFixed(0)} MB.\n`);
