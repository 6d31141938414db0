// `botrules validate` as a user runs it (whole process, from spawn to exit): every rule file
// read by the one YAML reader, checked against the schema and the semantic checks, and the
// rule-set analysis (shadowed rules, duplicates, allow before block, ...) as validate runs it by
// default. The generated rules repeat a few themes, so the analysis finds a great deal (each
// run's count of warnings is printed and must not be zero: the analysis really ran).
//   - 1,000 rules in 100 files (10 rules a file), the size of a large real project;
//   - 5,000 rules in 5,000 files (one rule a file, as `botrules import` writes them; the same
//     shape as the plan benchmark in apply.bench.js).
// The rules come from the emulator's seeded generator and are written by the importer's own
// file writer, so they look like real imported files. Medians of interleaved rounds, as
// ratios to `node -e 0` measured in the same rounds. Targets: 12× and 40×.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateRules } from '../dist/emulator/generate-rules.js';
import { seededRandom } from '../dist/emulator/random.js';
import { ruleFileText } from '../dist/import/rule-file.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'botrules.js');
const WARM_UP_ROUNDS = 2;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);

/** A project directory with `count` rules in files of `perFile` rules each. */
function project(count, perFile) {
  const dir = mkdtempSync(join(tmpdir(), 'botrules-bench-validate-'));
  mkdirSync(join(dir, 'rules'));
  const rules = generateRules(seededRandom(count), count).map((rule, i) => ({ ...rule, ruleId: `r-${String(i).padStart(5, '0')}`, priority: i }));
  for (let first = 0; first < count; first += perFile) {
    const texts = rules.slice(first, first + perFile).map((rule) => ruleFileText(rule));
    // Each text is `# schema comment`, `rules:`, then the rule's lines: keep one header.
    const text = texts[0] + texts.slice(1).map((t) => t.split('\n').slice(2).join('\n')).join('');
    writeFileSync(join(dir, 'rules', `${String(first).padStart(5, '0')}.yaml`), text);
  }
  return dir;
}

const small = project(1_000, 10);
const large = project(5_000, 1);
// The `yaml` package alone reading the same files (bench/yaml-alone.js): the floor under each
// target, since every file is read by that package and nothing else.
const yamlAlone = join(root, 'bench', 'yaml-alone.js');
const cases = [
  { label: '`node -e 0` (baseline)', args: ['-e', '0'], cwd: root, expect: /^/ },
  { label: 'the `yaml` package alone, the 1,000 rules', args: [yamlAlone, 'rules'], cwd: small, expect: /^100 files, 1000 rules$/m },
  { label: '`botrules validate`, 1,000 rules in 100 files', args: [bin, 'validate'], cwd: small, expect: /^100 files, 1000 rules: valid \(([0-9]+) warnings\)/, target: 12 },
  { label: 'the `yaml` package alone, the 5,000 rules', args: [yamlAlone, 'rules'], cwd: large, expect: /^5000 files, 5000 rules$/m },
  { label: '`botrules validate`, 5,000 rules in 5,000 files', args: [bin, 'validate'], cwd: large, expect: /^5000 files, 5000 rules: valid \(([0-9]+) warnings\)/, target: 40 },
];

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
rmSync(small, { recursive: true, force: true });
rmSync(large, { recursive: true, force: true });

const baseline = median(samples[0]);
console.log(`Median of ${ROUNDS} runs each (after ${WARM_UP_ROUNDS} warm-up rounds), Node ${process.version}.\n`);
console.log('| command | warnings | median ms | vs `node -e 0` | target |');
console.log('|---|---:|---:|---:|---:|');
let missed = 0;
cases.forEach((c, i) => {
  const ratio = median(samples[i]) / baseline;
  const verdict = c.target === undefined ? '' : `${c.target}× ${ratio <= c.target ? 'met' : 'MISSED'}`;
  if (c.target !== undefined && ratio > c.target) missed += 1;
  console.log(`| ${c.label} | ${c.warnings ?? ''} | ${median(samples[i]).toFixed(1)} | ${ratio.toFixed(2)}× | ${verdict} |`);
});
process.exitCode = missed === 0 ? 0 : 1;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
