/* global structuredClone */
// --diff-budget and --transition-budget hold on wide `$in` lists (issue #41: an O(n²) set-up over
// `$in` values ran before the deadline; `plan --diff-budget 5` on 1,000 rules took 94 s, `diff
// --diff-budget 20` on 2,000 rules 684 s). For the `wide-in` shape of bench/rule-shapes.js, one
// rule in twenty changed, it times whole processes: `plan --live` with both budgets, `diff OLD
// NEW` with --diff-budget, and as the baseline the same plan with neither analysis (reading,
// checking and planning the same files). A command may take its baseline plus its budgets plus a
// margin (2 s, or half the budgets, whichever is more); past that the benchmark exits 1.
// Usage: node bench/diff-budget.bench.js (BENCH_RULES=1000,2000; BENCH_BUDGET seconds, default 5).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeLiveSnapshotFile } from '../dist/live/file.js';
import { takeSnapshot } from '../dist/live/snapshot.js';
import { ruleSet, writeProject } from './rule-shapes.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'botrules.js');
const COUNTS = (process.env.BENCH_RULES ?? '1000,2000').split(',').map(Number);
const BUDGET = Number(process.env.BENCH_BUDGET ?? 5);

function timed(dir, args) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, NO_COLOR: '1' } });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  // plan exits 0; diff exits 2 when something is decided differently or left unchecked.
  if (result.status !== 0 && result.status !== 2) throw new Error(`botrules ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { seconds, stdout: result.stdout };
}

async function measure(count) {
  const dir = mkdtempSync(join(os.tmpdir(), 'botrules-diff-budget-bench-'));
  try {
    const live = ruleSet('wide-in', count);
    const declared = structuredClone(live);
    for (let i = 0; i < declared.length; i += 20) declared[i].actions = declared[i].actions.includes('allow') ? ['hardBlock'] : ['allow'];
    await writeLiveSnapshotFile(join(dir, 'live.json'), takeSnapshot([{ app: 'default', rules: live }], new Date()));
    writeProject(dir, declared, 50);
    const base = ['plan', '--live', 'live.json', '--dir', 'rules', '--format', 'json'];
    const baseline = timed(dir, [...base, '--no-behaviour-diff', '--transition-budget', '0']).seconds;
    const plan = timed(dir, [...base, '--diff-budget', String(BUDGET), '--transition-budget', String(BUDGET)]);
    const diff = timed(dir, ['diff', 'live.json', 'rules', '--diff-budget', String(BUDGET), '--format', 'json']);
    const unchecked = JSON.parse(plan.stdout).behaviourDiff[0]?.unchecked.length ?? 0;
    return [
      { command: `plan, --diff-budget ${BUDGET} --transition-budget ${BUDGET}`, count, seconds: plan.seconds, allowed: baseline + 2 * BUDGET + Math.max(2, BUDGET), baseline, unchecked },
      { command: `diff, --diff-budget ${BUDGET}`, count, seconds: diff.seconds, allowed: baseline + BUDGET + Math.max(2, BUDGET / 2), baseline, unchecked: JSON.parse(diff.stdout).unchecked.length },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows = [];
for (const count of COUNTS) rows.push(...(await measure(count)));
process.stdout.write(`Budgets on the wide-in shape (\`$in\` lists of 50 to 200 values), one rule in twenty changed.\n`);
process.stdout.write(`Load average while measuring: ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores.\n\n`);
process.stdout.write('| rules | command | baseline (neither analysis) | took | allowed | unchecked parts |\n| ---: | --- | ---: | ---: | ---: | ---: |\n');
for (const r of rows) process.stdout.write(`| ${r.count} | ${r.command} | ${r.baseline.toFixed(1)} s | ${r.seconds.toFixed(1)} s | ${r.allowed.toFixed(1)} s | ${r.unchecked} |\n`);
const overrun = rows.filter((r) => r.seconds > r.allowed);
for (const r of overrun) process.stderr.write(`overrun: ${r.command} on ${r.count} rules took ${r.seconds.toFixed(1)} s, more than ${r.allowed.toFixed(1)} s\n`);
process.exitCode = overrun.length > 0 ? 1 : 0;
