// Start-up time of the built CLI: `--version` and `--help` must load almost nothing (each
// command's module is imported only when it runs). Medians of whole processes, as ratios to
// `node -e 0` measured in the same rounds, so a slow or busy machine shifts both alike.
// Also times `validate` on the example rules and on an alias bomb (which must fail fast).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'botrules.js');
const WARM_UP_ROUNDS = 3;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25);

const bombDir = mkdtempSync(join(tmpdir(), 'botrules-bench-'));
mkdirSync(join(bombDir, 'rules'));
writeFileSync(join(bombDir, 'rules', 'bomb.yaml'), aliasBomb());

const cases = [
  { label: '`node -e 0` (baseline)', args: ['-e', '0'], cwd: root, expect: 0 },
  { label: '`botrules --version`', args: [bin, '--version'], cwd: root, expect: 0 },
  { label: '`botrules --help`', args: [bin, '--help'], cwd: root, expect: 0 },
  { label: '`botrules validate` (example rules)', args: [bin, 'validate'], cwd: root, expect: 0 },
  { label: '`botrules validate` (alias bomb)', args: [bin, 'validate'], cwd: bombDir, expect: 1 },
];

const samples = cases.map(() => []);
for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round += 1) {
  // Interleaved, so drift in the machine's speed touches every case alike.
  cases.forEach((c, i) => {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, c.args, { cwd: c.cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== c.expect) {
      throw new Error(`${c.label} exited ${result.status} (expected ${c.expect}): ${result.stderr}`);
    }
    if (round >= WARM_UP_ROUNDS) samples[i].push(ms);
  });
}
rmSync(bombDir, { recursive: true, force: true });

const baseline = median(samples[0]);
console.log(`Median of ${ROUNDS} runs each (after ${WARM_UP_ROUNDS} warm-up rounds), Node ${process.version}.\n`);
console.log('| command | median ms | vs `node -e 0` |');
console.log('|---|---:|---:|');
cases.forEach((c, i) => {
  const m = median(samples[i]);
  console.log(`| ${c.label} | ${m.toFixed(1)} | ${(m / baseline).toFixed(2)}× |`);
});

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Nine levels of nine aliases each: 9^9 strings if expanded. */
function aliasBomb() {
  const names = 'abcdefghi';
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < names.length; i += 1) {
    lines.push(`${names[i]}: &${names[i]} [${Array(9).fill(`*${names[i - 1]}`).join(',')}]`);
  }
  return `${lines.join('\n')}\nrules: *i\n`;
}
