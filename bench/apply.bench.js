// Plan and apply as whole processes against the emulator (in this process, 20 ms latency):
//  1. `botrules plan --format json` over 5,000 live rules whose rule files (written by
//     `botrules import`) then had 5% of the rules moved and 10% edited: wall time (median)
//     and the child's peak RSS, and its PATCH count against the lower bound (computed here
//     independently) and against a naive full sync;
//  2. `botrules apply --auto-approve` of 500 field-only edits (an emulator of 500 rules, so
//     the time is the PATCH requests'), --concurrency 4 against 1.
// `botrules validate` on the same files is timed alongside: it is the part of plan that
// reads the rule files, without any request.
// Peak RSS is the child's own `process.resourceUsage().maxRSS` (the kernel's high-water mark
// of its resident set), written at exit by a module preloaded with `node --import`
// (bench/timed-child.js).
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { startEmulator } from '../dist/emulator/index.js';
// The emulator's seeded generator (mulberry32), so every run uses the same rules.
import { seededRandom as random } from '../dist/emulator/random.js';
import { timedNodeWithRss } from './timed-child.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'botrules.js');
const LIVE_RULES = 5_000;
const MOVED_SHARE = 0.05;
const EDITED_SHARE = 0.1;
const LATENCY_MS = 20;
const PLAN_RUNS = 5;
const APPLY_EDITS = 500;
const APPLY_RUNS = 3;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A timed child, with its peak RSS. */
async function runNode(args, options) {
  return timedNodeWithRss(args, { ...options, rssFile: join(options.cwd, 'max-rss.txt') });
}

/** Rule files in declared (lexical) order, each with its ruleId. */
async function readRuleFiles(dir) {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.yaml')).sort();
  return Promise.all(files.map(async (file) => ({ file, doc: parse(await readFile(join(dir, file), 'utf8')) })));
}

async function writeRule(dir, file, doc) {
  const text = await readFile(join(dir, file), 'utf8');
  const comment = text.startsWith('#') ? `${text.split('\n')[0]}\n` : '';
  await writeFile(join(dir, file), comment + stringify(doc));
}

/**
 * Edits EDITED_SHARE of the imported rules (description) and moves MOVED_SHARE (renames the
 * file to sort right after another rule's file: `01230-x` → after it comes `012305-y`).
 * Returns the ruleIds edited.
 */
async function editAndMove(dir, next) {
  const files = await readRuleFiles(dir);
  const pickIndexes = (count) => {
    const picked = new Set();
    while (picked.size < count) picked.add(Math.floor(next() * files.length));
    return [...picked];
  };
  const edited = new Set();
  for (const i of pickIndexes(Math.round(files.length * EDITED_SHARE))) {
    const { file, doc } = files[i];
    doc.rules[0].description = `edited for the benchmark (${i})`;
    edited.add(doc.rules[0].ruleId);
    await writeRule(dir, file, doc);
  }
  for (const i of pickIndexes(Math.round(files.length * MOVED_SHARE))) {
    const target = files[Math.floor(next() * files.length)].file;
    const { file } = files[i];
    if (target === file) continue;
    await rename(join(dir, file), join(dir, `${target.split('-')[0]}5-moved-${file}`));
  }
  return edited;
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

/** An emulator of `count` generated rules. */
function startBenchEmulator(work, name, count, token) {
  return startEmulator({
    statePath: join(work, name, 'state.json'),
    reset: true,
    apps: [{ name: 'default', token }],
    generateRules: count,
    randomSeed: 7,
    latencyMs: LATENCY_MS,
  });
}

function envFor(emulator, token) {
  return { BOTRULES_CONSOLE_URL: emulator.consoleUrl, BOTRULES_TOKEN: token, NODE_EXTRA_CA_CERTS: emulator.caPath };
}

async function benchPlan(work, token) {
  const emulator = await startBenchEmulator(work, 'plan-emulator', LIVE_RULES, token);
  try {
    return await measurePlan(emulator, work, envFor(emulator, token));
  } finally {
    await emulator.stop();
  }
}

async function measurePlan(emulator, work, env) {
  const rulesDir = join(work, 'rules');
  await runNode([bin, 'import', '--out', rulesDir], { cwd: work, env });
  const edited = await editAndMove(rulesDir, random(42));
  const declaredIds = (await readRuleFiles(rulesDir)).map(({ doc }) => doc.rules[0].ruleId);
  const bound = lowerBound(emulator.rules().map((r) => r.ruleId), declaredIds, edited);

  const planArgs = [bin, 'plan', '--format', 'json', '--dir', rulesDir];
  const validateArgs = [bin, 'validate', '--dir', rulesDir];
  const baseline = [];
  const validations = [];
  const runs = [];
  await runNode(planArgs, { cwd: work, env }); // warm-up (file cache)
  for (let i = 0; i < PLAN_RUNS; i += 1) {
    // Interleaved, so drift in the machine's speed touches every case alike.
    baseline.push((await runNode(['-e', '0'], { cwd: work, env })).ms);
    validations.push(await runNode(validateArgs, { cwd: work, env }));
    runs.push(await runNode(planArgs, { cwd: work, env }));
  }
  const plan = JSON.parse(runs[0].stdout);
  const peakMb = (results) => Math.max(...results.map((r) => r.maxRssKb)) / 1024;
  return {
    planMs: median(runs.map((r) => r.ms)),
    validateMs: median(validations.map((r) => r.ms)),
    nodeMs: median(baseline),
    maxRssMb: peakMb(runs),
    validateRssMb: peakMb(validations),
    patches: plan.summary.patches,
    moves: plan.apps[0].steps.filter((s) => s.body.priority !== undefined).length,
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

const work = await mkdtemp(join(tmpdir(), 'botrules-bench-apply-'));
const token = `bench-${randomBytes(12).toString('hex')}`;
try {
  const plan = await benchPlan(work, token);
  const apply = await benchApply(work, token);
  const n = LIVE_RULES.toLocaleString('en-US');
  console.log(`Emulator in this process, ${LATENCY_MS} ms latency per request, ${n} live rules, Node ${process.version}.`);
  console.log(`Rule files written by \`botrules import\`, then ${MOVED_SHARE * 100}% of the rules moved and ${EDITED_SHARE * 100}% edited.\n`);
  console.log(`| \`botrules plan --format json\` (whole process, median of ${PLAN_RUNS}) | value |`);
  console.log('|---|---:|');
  console.log(`| wall time | ${plan.planMs.toFixed(0)} ms |`);
  console.log(`| peak RSS (highest of the runs) | ${plan.maxRssMb.toFixed(0)} MB |`);
  console.log(`| \`botrules validate\` of the same files: wall time, peak RSS | ${plan.validateMs.toFixed(0)} ms, ${plan.validateRssMb.toFixed(0)} MB |`);
  console.log(`| \`node -e 0\` in the same rounds | ${plan.nodeMs.toFixed(0)} ms |`);
  console.log(`| PATCH requests in the plan (of which carry priority) | ${plan.patches} (${plan.moves}) |`);
  console.log(`| lower bound | ${plan.bound} |`);
  console.log(`| naive full sync (every rule PATCHed whole with its priority) | ${n} |`);
  console.log(`\n| \`botrules apply\` of ${APPLY_EDITS} field-only edits, ${APPLY_EDITS} live rules (median of ${APPLY_RUNS}) | wall time |`);
  console.log('|---|---:|');
  console.log(`| --concurrency 1 | ${(apply.c1 / 1000).toFixed(2)} s |`);
  console.log(`| --concurrency 4 (default) | ${(apply.c4 / 1000).toFixed(2)} s |`);
  console.log(`| speed-up | ${(apply.c1 / apply.c4).toFixed(2)}× |`);
  if (plan.patches !== plan.bound) throw new Error(`the plan has ${plan.patches} PATCH requests, the lower bound is ${plan.bound}`);
} finally {
  await rm(work, { recursive: true, force: true });
}
