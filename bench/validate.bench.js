// `botrules validate` as a user runs it (whole process, from spawn to exit): every rule file
// read by the one YAML reader, checked against the schema and the semantic checks, and the
// rule-set analysis (shadowed rules, duplicates, allow before block, ...) as validate runs it by
// default. Each rule shape of bench/rule-shapes.js (the emulator's themes, random leaves over
// every condition type and operator, few distinct leaves with many duplicates, rules scoped to
// one of many hosts, and `catalogue`, `gateways` and `storefront` (bench/validate-shapes.js), each
// written after a round of the work of issue #36 and measured as first written; `gateways` was
// tuned for afterwards, `storefront` was not)
// makes the analysis find a great deal (each run's count of warnings is printed and must not be zero):
//   - 1,000 rules in 100 files (10 rules a file), the size of a large real project;
//   - 5,000 rules in 5,000 files (one rule a file, as `botrules import` writes them; the same
//     shape as the plan benchmark in apply.bench.js).
// The rules are written by the importer's own file writer, so they look like real imported
// files. Medians of interleaved rounds. Targets: against `node -e 0`, 12× and 40× (themes);
// against the `yaml` package alone reading the same files, in the same rounds (the median of
// the paired ratios), 1.5× and 2× for every shape; and growth from 1,000 to 5,000 rules no
// faster than linear-ish (the exponent of what validate costs beyond starting `node`, at most
// 1.3). Exits 1 when any target is missed, naming each target it missed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHAPES, writeProject } from './rule-shapes.js';
import { appendedRuleSet } from './validate-shapes.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'botrules.js');
const WARM_UP_ROUNDS = 2;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);
// BENCH_SHAPES=random,duplicates measures only those shapes (bench/rule-shapes.js).
// `catalogue` was written after the first work on validate's cost (issue #36), `gateways` after
// the second; each is measured as first written.
const shapes = (process.env.BENCH_SHAPES ?? [...SHAPES, 'catalogue', 'gateways', 'storefront'].join(',')).split(',');

/** A project directory with `count` rules of `shape` in files of `perFile` rules each. */
function project(shape, count, perFile) {
  const dir = mkdtempSync(join(tmpdir(), `botrules-bench-validate-${shape}-`));
  writeProject(dir, appendedRuleSet(shape, count), perFile);
  return dir;
}

// The `yaml` package alone reading the same files (bench/yaml-alone.js): the floor under each
// target, since every file is read by that package and nothing else.
const yamlAlone = join(root, 'bench', 'yaml-alone.js');
const sizes = [
  { count: 1_000, perFile: 10, files: 100, target: 12, floorTarget: 1.5 },
  { count: 5_000, perFile: 1, files: 5_000, target: 40, floorTarget: 2 },
];
const dirs = [];
const cases = [{ label: '`node -e 0` (baseline)', args: ['-e', '0'], cwd: root, expect: /^/ }];
for (const shape of shapes) {
  for (const { count, perFile, files, target, floorTarget } of sizes) {
    const dir = project(shape, count, perFile);
    dirs.push(dir);
    const n = count.toLocaleString('en');
    const floor = cases.length;
    cases.push({ label: `${shape}: the \`yaml\` package alone, the ${n} rules`, args: [yamlAlone, 'rules'], cwd: dir, expect: new RegExp(`^${files} files, ${count} rules$`, 'm') });
    cases.push({
      label: `${shape}: \`botrules validate\`, ${n} rules in ${files.toLocaleString('en')} files`, args: [bin, 'validate'], cwd: dir,
      expect: new RegExp(`^${files} files, ${count} rules: valid \\(([0-9]+) warnings\\)`),
      // The generator the targets were first set on keeps its target against `node -e 0`.
      ...(shape === 'themes' ? { target } : {}), floor, floorTarget, shape,
    });
  }
}

// The commit measured, and the load, as the runs start.
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout?.trim() || 'unknown';
const loadAtStart = loadavg()[0];
const samples = cases.map(() => []);
for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round += 1) {
  // Interleaved, so drift in the machine's speed touches every case alike.
  cases.forEach((c, i) => {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, c.args, { cwd: c.cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const found = c.expect.exec(result.stdout);
    if (result.status !== 0 || found === null) {
      throw new Error(`${c.label} exited ${result.status}: ${result.stdout}${result.stderr.slice(0, 2000)}`);
    }
    c.warnings = found[1];
    if (round >= WARM_UP_ROUNDS) samples[i].push(ms);
  });
}
for (const dir of dirs) rmSync(dir, { recursive: true, force: true });

const baseline = median(samples[0]);
console.log(`Commit ${commit}, Node ${process.version}, ${cpus().length} cores, load average ${loadAtStart.toFixed(1)} at the start and ${loadavg()[0].toFixed(1)} at the end.`);
console.log(`Median of ${ROUNDS} runs each (after ${WARM_UP_ROUNDS} warm-up rounds).\n`);
console.log('| command | warnings | median ms | vs `node -e 0` | target | vs `yaml` alone | target |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
const missed = [];
cases.forEach((c, i) => {
  const ratio = median(samples[i]) / baseline;
  const verdict = c.target === undefined ? '' : `${c.target}× ${ratio <= c.target ? 'met' : 'MISSED'}`;
  if (c.target !== undefined && ratio > c.target) missed.push(`${c.label}: ${ratio.toFixed(2)}× \`node -e 0\` (target ${c.target}×)`);
  // Against the floor: the median of the paired ratios (each round's validate over the same round's yaml alone).
  const paired = c.floor === undefined ? undefined : median(samples[i].map((ms, round) => ms / samples[c.floor][round]));
  const floorVerdict = paired === undefined ? '' : `${c.floorTarget}× ${paired <= c.floorTarget ? 'met' : 'MISSED'}`;
  if (paired !== undefined && paired > c.floorTarget) missed.push(`${c.label}: ${paired.toFixed(2)}× the \`yaml\` package alone (target ${c.floorTarget}×)`);
  console.log(`| ${c.label} | ${c.warnings ?? ''} | ${median(samples[i]).toFixed(1)} | ${ratio.toFixed(2)}× | ${verdict} | ${paired === undefined ? '' : `${paired.toFixed(2)}×`} | ${floorVerdict} |`);
});

// Growth from 1,000 to 5,000 rules, per shape: the exponent k of t(5,000) / t(1,000) = 5^k, of
// the floor, of the whole run, and of what validate costs beyond starting `node` (the paired
// differences with `node -e 0`: reading, checks, analysis, policies, output). Linear work gives
// about 1, a pairwise check about 2. What validate costs beyond the floor is printed too, but
// only where it is positive at both sizes: validate reads most files faster than the `yaml`
// package does (src/io/yaml-plain.ts), so that difference can be near zero or negative.
const MAX_EXPONENT = 1.3;
console.log(`\nGrowth from 1,000 to 5,000 rules: exponent k with t(5,000) / t(1,000) = 5^k; target for validate beyond starting \`node\`: k ≤ ${MAX_EXPONENT}.\n`);
console.log('| shape | `yaml` alone | `botrules validate` | validate beyond the floor | validate beyond `node -e 0` | target |');
console.log('|---|---:|---:|---:|---:|---:|');
const exponent = (small, large) => Math.log(large / small) / Math.log(5);
const beyond = (i, base) => median(samples[i].map((ms, round) => ms - samples[base][round]));
for (const shape of shapes) {
  const [small, large] = cases.flatMap((c, i) => (c.shape === shape && c.floor !== undefined ? [i] : []));
  const floorK = exponent(median(samples[cases[small].floor]), median(samples[cases[large].floor]));
  const validateK = exponent(median(samples[small]), median(samples[large]));
  const [floorSmall, floorLarge] = [beyond(small, cases[small].floor), beyond(large, cases[large].floor)];
  const beyondFloor = floorSmall > 0 && floorLarge > 0 ? exponent(floorSmall, floorLarge).toFixed(2) : `— (${floorSmall.toFixed(0)} and ${floorLarge.toFixed(0)} ms)`;
  const beyondStart = exponent(beyond(small, 0), beyond(large, 0));
  const met = beyondStart <= MAX_EXPONENT;
  if (!met) missed.push(`${shape}: validate beyond starting \`node\` grows with exponent ${beyondStart.toFixed(2)} from 1,000 to 5,000 rules (target ${MAX_EXPONENT})`);
  console.log(`| ${shape} | ${floorK.toFixed(2)} | ${validateK.toFixed(2)} | ${beyondFloor} | ${beyondStart.toFixed(2)} | ${MAX_EXPONENT} ${met ? 'met' : 'MISSED'} |`);
}
if (missed.length > 0) console.log(`\nTargets missed:\n${missed.map((line) => `- ${line}`).join('\n')}`);
process.exitCode = missed.length === 0 ? 0 : 1;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
