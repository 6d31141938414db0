// Plan and apply as whole processes against the emulator (in this process, 20 ms latency):
//  1. `botrules plan --format json` over 5,000 live rules of each rule shape (bench/rule-shapes.js)
//     whose rule files (written by `botrules import`) then had 5% of the rules moved and 10%
//     edited: the plan as a user runs it (transition check and behaviour diff on, the defaults)
//     against the same plan with both off (`--no-behaviour-diff --transition-budget 0`), in
//     interleaved rounds with `node -e 0`; wall time (median of the rounds' paired ratios) and
//     the child's peak RSS, and the PATCH count against the lower bound (computed here
//     independently) and a naive full sync;
//  2. `botrules apply --auto-approve` of 500 field-only edits (an emulator of 500 rules, so
//     the time is the PATCH requests'), --concurrency 4 against 1.
// Targets (issue #42), per shape: the plan with its analyses costs at most 2× the plan without
// them, its peak RSS at most 1.3×; neither analysis may run out of its budget (a budget that
// runs out is no pass); the plan sends no more PATCH requests than the lower bound. The
// benchmark exits 1 when any is missed. BENCH_ROUNDS sets the rounds (default 5),
// BENCH_SHAPES the shapes (default all), BENCH_RULES the live rules (default 5,000),
// BENCH_APPLY_RUNS the apply runs (default 3; 0 leaves apply out). BENCH_ONLY=transitions (or
// diff) measures one analysis alone: both plans then run with the other analysis off, so the
// ratio is what that analysis adds (the split of the cost between the two).
// Peak RSS is the child's own `process.resourceUsage().maxRSS` (the kernel's high-water mark
// of its resident set), written at exit by a module preloaded with `node --import`
// (bench/timed-child.js).
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { startEmulator } from '../dist/emulator/index.js';
// The emulator's seeded generator (mulberry32), so every run uses the same rules.
import { seededRandom as random } from '../dist/emulator/random.js';
import { EDITED_SHARE, MOVED_SHARE, editAndMove, readRuleFiles, writeRule } from './plan-change.js';
import { timedNodeWithRss } from './timed-child.js';
import { SHAPES } from './rule-shapes.js';
import { anyRuleSet, PLAN_ONLY_SHAPES } from './plan-shapes.js';

/**
 * Every shape-wide shape; `scopes`, written after the first round of work on the plan's analyses,
 * `gateways`, after the second, `crawlers`, after the third, `checkouts`, after the fourth, and
 * `logins`, after the fifth, none tuned for.
 */
const ALL_PLAN_SHAPES = [...SHAPES, 'scopes', ...PLAN_ONLY_SHAPES];

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'botrules.js');
const LIVE_RULES = Number(process.env.BENCH_RULES ?? 5_000);
const LATENCY_MS = 20;
const PLAN_RUNS = Number(process.env.BENCH_ROUNDS ?? 5);
const PLAN_SHAPES = (process.env.BENCH_SHAPES ?? ALL_PLAN_SHAPES.join(',')).split(',');
const TIME_TARGET = 2;
const RSS_TARGET = 1.3;
const ANALYSES_OFF = ['--no-behaviour-diff', '--transition-budget', '0'];
const ONLY = process.env.BENCH_ONLY;
if (ONLY !== undefined && ONLY !== 'transitions' && ONLY !== 'diff') throw new Error(`BENCH_ONLY is "transitions" or "diff", not "${ONLY}"`);
/** The other analysis turned off in both plans when BENCH_ONLY names one. */
const OTHER_OFF = ONLY === 'transitions' ? ['--no-behaviour-diff'] : ONLY === 'diff' ? ['--transition-budget', '0'] : [];
const APPLY_EDITS = 500;
const APPLY_RUNS = Number(process.env.BENCH_APPLY_RUNS ?? 3);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A timed child, with its peak RSS. */
async function runNode(args, options) {
  return timedNodeWithRss(args, { ...options, rssFile: join(options.cwd, 'max-rss.txt') });
}

/**
 * The fewest PATCH requests (docs/behaviour.md, "Plan semantics"): every changed rule costs one request (and may
 * move in it); the unchanged rules that stay put must form an increasing subsequence of
 * declared positions in live order, so the best keeps the longest such subsequence of
 * unchanged rules (patience sorting, O(n log n)).
 */
function lowerBound(liveIds, declaredIds, changed) {
  const declaredIndex = new Map(declaredIds.map((id, i) => [id, i]));
  const unchanged = liveIds.filter((id) => !changed.has(id)).map((id) => declaredIndex.get(id));
  const tails = [];
  for (const value of unchanged) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tails[mid] < value) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = value;
  }
  return changed.size + (unchanged.length - tails.length);
}

/** An emulator of `count` rules of `shape` (`themes`: the emulator's own generator). */
function startBenchEmulator(work, name, count, token, shape = 'themes') {
  const rules = shape === 'themes' ? { generateRules: count } : { seedRules: anyRuleSet(shape, count).map(({ ruleId: _id, priority: _p, ...rule }) => rule) };
  return startEmulator({
    statePath: join(work, name, 'state.json'),
    reset: true,
    apps: [{ name: 'default', token }],
    ...rules,
    randomSeed: 7,
    latencyMs: LATENCY_MS,
  });
}

function envFor(emulator, token) {
  return { BOTRULES_CONSOLE_URL: emulator.consoleUrl, BOTRULES_TOKEN: token, NODE_EXTRA_CA_CERTS: emulator.caPath };
}

async function benchPlan(work, token, shape) {
  const emulator = await startBenchEmulator(work, `plan-emulator-${shape}`, LIVE_RULES, token, shape);
  try {
    return { shape, ...(await measurePlan(emulator, join(work, `plan-${shape}`), envFor(emulator, token))) };
  } finally {
    await emulator.stop();
  }
}

/** What a plan's JSON says its analyses left unchecked for lack of time. */
function outOfBudget(plan) {
  const transitions = plan.apps.flatMap((app) => app.transitions?.unchecked ?? []).filter((part) => part.includes('time budget'));
  const diff = (plan.behaviourDiff ?? []).flatMap((app) => app.unchecked).filter((part) => part.reason.includes('time budget')).map((part) => part.reason);
  return [...transitions, ...diff];
}

async function measurePlan(emulator, work, env) {
  await mkdir(work, { recursive: true });
  const rulesDir = join(work, 'rules');
  await runNode([bin, 'import', '--out', rulesDir], { cwd: work, env });
  const edited = await editAndMove(rulesDir, random(42));
  const declaredIds = (await readRuleFiles(rulesDir)).map(({ doc }) => doc.rules[0].ruleId);
  const bound = lowerBound(emulator.rules().map((r) => r.ruleId), declaredIds, edited);

  const baseArgs = [bin, 'plan', '--format', 'json', '--dir', rulesDir];
  const planArgs = [...baseArgs, ...OTHER_OFF];
  const baseline = [];
  const offRuns = [];
  const runs = [];
  await runNode(planArgs, { cwd: work, env }); // warm-up (file cache)
  for (let i = 0; i < PLAN_RUNS; i += 1) {
    // Interleaved, so drift in the machine's speed touches every case alike.
    baseline.push((await runNode(['-e', '0'], { cwd: work, env })).ms);
    offRuns.push(await runNode([...baseArgs, ...ANALYSES_OFF], { cwd: work, env }));
    runs.push(await runNode(planArgs, { cwd: work, env }));
  }
  const plans = runs.map((run) => JSON.parse(run.stdout));
  const plan = plans[0];
  const peakMb = (results) => Math.max(...results.map((r) => r.maxRssKb)) / 1024;
  return {
    planMs: median(runs.map((r) => r.ms)),
    offMs: median(offRuns.map((r) => r.ms)),
    timeRatio: median(runs.map((r, i) => r.ms / offRuns[i].ms)),
    nodeMs: median(baseline),
    maxRssMb: peakMb(runs),
    offRssMb: peakMb(offRuns),
    patches: plan.summary.patches,
    moves: plan.apps[0].steps.filter((s) => s.body.priority !== undefined).length,
    windows: plan.apps[0].transitions?.windows.length ?? 0,
    classes: (plan.behaviourDiff ?? []).flatMap((app) => app.changes).reduce((sum, change) => sum + change.classes.length, 0),
    outOfBudget: [...new Set(plans.flatMap(outOfBudget))],
    bound,
  };
}

/** Describes APPLY_EDITS rules anew (`round`), so each apply has exactly that many field-only PATCHes. */
async function editDescriptions(dir, round) {
  const files = (await readRuleFiles(dir)).slice(0, APPLY_EDITS);
  await Promise.all(files.map(({ file, doc }) => {
    doc.rules[0].description = `apply benchmark round ${round}`;
    return writeRule(dir, file, doc);
  }));
}

async function benchApply(work, token) {
  const emulator = await startBenchEmulator(work, 'apply-emulator', APPLY_EDITS, token);
  try {
    return await measureApply(work, envFor(emulator, token));
  } finally {
    await emulator.stop();
  }
}

async function measureApply(work, env) {
  const rulesDir = join(work, 'rules-apply');
  await runNode([bin, 'import', '--out', rulesDir], { cwd: work, env });
  const times = { 1: [], 4: [] };
  let round = 0;
  for (let i = 0; i < APPLY_RUNS; i += 1) {
    for (const concurrency of [4, 1]) {
      round += 1;
      await editDescriptions(rulesDir, round);
      // Every rule is edited: the default change limit (30 %) would refuse it, so the limit is the edit count.
      const args = [bin, 'apply', '--auto-approve', '--max-changes', String(APPLY_EDITS), '--concurrency', String(concurrency), '--dir', rulesDir];
      const result = await runNode(args, { cwd: work, env });
      if (!result.stdout.includes(`Apply complete: ${APPLY_EDITS} PATCH requests, 0 failed.`)) {
        throw new Error(`unexpected apply output: ${result.stdout.slice(-300)}`);
      }
      times[concurrency].push(result.ms);
    }
  }
  return { c1: median(times[1]), c4: median(times[4]) };
}

/** The commit measured, and whether the work tree differs from it. */
function commit() {
  try {
    const quiet = { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] };
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], quiet).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', 'src', 'bench/*.js'], quiet).trim() !== '';
    return dirty ? `${head} with uncommitted changes` : head;
  } catch {
    return 'unknown (no git)';
  }
}

const work = await mkdtemp(join(tmpdir(), 'botrules-bench-apply-'));
const token = `bench-${randomBytes(12).toString('hex')}`;
const missed = [];
try {
  const loadBefore = os.loadavg()[0];
  const plans = [];
  for (const shape of PLAN_SHAPES) plans.push(await benchPlan(work, token, shape));
  const apply = APPLY_RUNS > 0 ? await benchApply(work, token) : undefined;
  const n = LIVE_RULES.toLocaleString('en-US');
  console.log(`Commit ${commit()}, Node ${process.version}, ${os.availableParallelism()} cores, load average ${loadBefore.toFixed(1)} at the start and ${os.loadavg()[0].toFixed(1)} at the end.`);
  console.log(`Emulator in this process, ${LATENCY_MS} ms latency per request, ${n} live rules per shape.`);
  console.log(`Rule files written by \`botrules import\`, then ${MOVED_SHARE * 100}% of the rules moved and ${EDITED_SHARE * 100}% edited; median of ${PLAN_RUNS} interleaved rounds.${ONLY === undefined ? '' : ` Only the ${ONLY === 'diff' ? 'behaviour diff' : 'transition check'} measured: \`${OTHER_OFF.join(' ')}\` in both plans.`}\n`);
  console.log(`| shape | plan, analyses off | plan (defaults) | time × off (target ${TIME_TARGET}×) | peak RSS off | peak RSS (defaults) | RSS × off (target ${RSS_TARGET}×) | \`node -e 0\` | plan ÷ \`node -e 0\` | PATCH requests (with priority) | lower bound | naive full sync | windows | diff classes |`);
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const p of plans) {
    const rssRatio = p.maxRssMb / p.offRssMb;
    const verdict = (ratio, target) => `${ratio.toFixed(2)}× ${ratio <= target ? 'met' : '**MISSED**'}`;
    console.log(`| ${p.shape} | ${p.offMs.toFixed(0)} ms | ${p.planMs.toFixed(0)} ms | ${verdict(p.timeRatio, TIME_TARGET)} | ${p.offRssMb.toFixed(0)} MB | ${p.maxRssMb.toFixed(0)} MB | ${verdict(rssRatio, RSS_TARGET)} | ${p.nodeMs.toFixed(0)} ms | ${(p.planMs / p.nodeMs).toFixed(1)}× | ${p.patches} (${p.moves}) | ${p.bound} | ${n} | ${p.windows} | ${p.classes} |`);
    if (p.timeRatio > TIME_TARGET) missed.push(`${p.shape}: the plan with its analyses took ${p.timeRatio.toFixed(2)}× the plan without them (target ${TIME_TARGET}×)`);
    if (rssRatio > RSS_TARGET) missed.push(`${p.shape}: peak RSS ${rssRatio.toFixed(2)}× the plan without analyses (target ${RSS_TARGET}×)`);
    if (p.patches > p.bound) missed.push(`${p.shape}: the plan has ${p.patches} PATCH requests, the lower bound is ${p.bound}`);
    for (const part of p.outOfBudget) missed.push(`${p.shape}: an analysis ran out of its budget: ${part}`);
  }
  if (apply !== undefined) {
  console.log(`\n| \`botrules apply\` of ${APPLY_EDITS} field-only edits, ${APPLY_EDITS} live rules (median of ${APPLY_RUNS}) | wall time |`);
  console.log('|---|---:|');
  console.log(`| --concurrency 1 | ${(apply.c1 / 1000).toFixed(2)} s |`);
  console.log(`| --concurrency 4 (default) | ${(apply.c4 / 1000).toFixed(2)} s |`);
  console.log(`| speed-up | ${(apply.c1 / apply.c4).toFixed(2)}× |`);
  }
  console.log(missed.length === 0 ? '\nEvery target met.' : `\nTargets missed:\n${missed.map((line) => `- ${line}`).join('\n')}`);
} finally {
  await rm(work, { recursive: true, force: true });
}
process.exitCode = missed.length === 0 ? 0 : 1;
