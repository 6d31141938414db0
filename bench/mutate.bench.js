// `botrules test --mutate` against plain `botrules test` on the same files, as a user runs them
// (whole process, from spawn to exit): 1,000 rules in 100 files and 1,000 test requests, every
// test passing (mutation testing needs a green suite), in two rule shapes:
//   - themed: the emulator's seeded generator, as in validate.bench.js (realistic rules whose
//     leaves repeat a few themes, written by the importer's own file writer);
//   - random leaves: every rule two or three groups of random leaves over a small vocabulary of
//     fields and values, so that many tests reach and match many rules.
// Each test request is built from one rule's own values (so tests decide rules all along the
// list) and expects what the rules decide. Medians of interleaved rounds; the ratio of
// `test --mutate` to `test` in the same rounds. Target: 20×.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateRules } from '../dist/emulator/generate-rules.js';
import { pick, randomInt, seededRandom } from '../dist/emulator/random.js';
import { ruleFileText } from '../dist/import/rule-file.js';
import { decide } from '../dist/evaluate/evaluate.js';
import { candidates, BASE } from '../dist/validate/witness.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'botrules.js');
const WARM_UP_ROUNDS = 0;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET = 20;

const PATHS = ['/', '/login', '/search', '/api/a', '/api/b', '/checkout', '/account/x'];
const AGENTS = ['curl/8', 'Mozilla/5.0', 'python-requests/2', 'Googlebot', 'HeadlessChrome'];
const COUNTRIES = ['US', 'DE', 'BR', 'FR'];
const RANGES = ['10.0.0.0/8', '192.0.2.0/24', '198.51.100.0/25', '203.0.113.7'];

/** A rule of random leaves (the second shape). */
function randomRule(random, i) {
  const leaf = () => pick(random, [
    () => ({ conditionType: 'path', operator: pick(random, ['$eq', '$startsWith', '$ne', '$contains']), value: pick(random, PATHS) }),
    () => ({ conditionType: 'userAgent', operator: pick(random, ['$contains', '$startsWith', '$eq']), value: pick(random, AGENTS) }),
    () => ({ conditionType: 'country', operator: pick(random, ['$in', '$notIn']), value: [pick(random, COUNTRIES), pick(random, COUNTRIES)] }),
    () => ({ conditionType: 'socketIps', operator: pick(random, ['$in', '$notIn']), value: [pick(random, RANGES)] }),
    () => ({ conditionType: 'header', fieldOption: pick(random, ['x-a', 'x-b']), operator: pick(random, ['$exists', '$notExists']) }),
  ])();
  const group = () => ({ operator: pick(random, ['$and', '$or']), children: Array.from({ length: randomInt(random, 1, 3) }, leaf) });
  return {
    name: `random rule ${i}`, description: '', status: random() < 0.05 ? 'paused' : 'active',
    actions: [pick(random, ['allow', 'blockWithChallenge', 'hardBlock'])],
    conditions: { operator: pick(random, ['$and', '$or']), children: Array.from({ length: randomInt(random, 2, 3) }, group) },
  };
}

/** A project directory with the rules in files of 10 and 1,000 tests that pass. */
function project(label, rules) {
  const dir = mkdtempSync(join(tmpdir(), `botrules-bench-mutate-${label}-`));
  mkdirSync(join(dir, 'rules'));
  mkdirSync(join(dir, 'tests'));
  for (let first = 0; first < rules.length; first += 10) {
    const texts = rules.slice(first, first + 10).map((rule) => ruleFileText(rule));
    writeFileSync(join(dir, 'rules', `${String(first).padStart(5, '0')}.yaml`), texts[0] + texts.slice(1).map((t) => t.split('\n').slice(2).join('\n')).join(''));
  }
  const random = seededRandom(7);
  const lines = ['tests:'];
  for (let t = 0; t < 1_000; t++) {
    const own = rules[t];
    const options = candidates(own.conditions);
    const request = { ...BASE, ...(options[randomInt(random, 0, Math.max(0, options.length - 1))] ?? {}) };
    for (const key of ['headers', 'query', 'custom']) if (request[key] !== undefined && Object.keys(request[key]).length === 0) delete request[key];
    const decision = decide(rules, request);
    const expect = decision.rule === undefined ? { rule: 'none' } : { rule: decision.rule.name, actions: decision.actions };
    lines.push(`  - ${JSON.stringify({ name: `test ${t}`, request, expect })}`);
  }
  writeFileSync(join(dir, 'tests', 'traffic.yaml'), `${lines.join('\n')}\n`);
  return dir;
}

/**
 * The first 1,000 of `rules` that match at most 2 % of a sample of requests built from the
 * rules' own values: a rule matching nearly everything (the generators make some) would decide
 * every test near the top, and no test would reach the rules below it.
 */
function narrowRules(rules, prefix) {
  const sample = rules.slice(0, 400).map((rule) => ({ ...BASE, ...(candidates(rule.conditions)[0] ?? {}) }));
  const narrow = rules.filter((rule) => sample.filter((request) => decide([{ ...rule, status: 'active' }], request).rule !== undefined).length <= sample.length / 50);
  if (narrow.length < 1_000) throw new Error(`only ${narrow.length} narrow rules`);
  return narrow.slice(0, 1_000).map((rule, i) => ({ ...rule, name: `${rule.name} ${i}`, ruleId: `${prefix}-${String(i).padStart(5, '0')}`, priority: i }));
}

const themed = narrowRules(generateRules(seededRandom(1_000), 4_000), 'r');
const randomGenerator = seededRandom(11);
const random = narrowRules(Array.from({ length: 4_000 }, (_, i) => randomRule(randomGenerator, i)), 'q');
const dirs = [project('themed', themed), project('random', random)];
const cases = dirs.flatMap((cwd, d) => {
  const shape = d === 0 ? 'themed rules' : 'random leaves';
  return [
    { label: `\`botrules test\`, ${shape}`, args: [bin, 'test'], cwd, expect: /^1000 tests: 1000 passed, 0 failed$/m },
    { label: `\`botrules test --mutate\`, ${shape}`, args: [bin, 'test', '--mutate'], cwd, expect: /^Mutation score: .*$/m, versus: 2 * d },
  ];
});

const samples = cases.map(() => []);
for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round += 1) {
  cases.forEach((c, i) => {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, c.args, { cwd: c.cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const found = c.expect.exec(result.stdout);
    if (result.status !== 0 || found === null) throw new Error(`${c.label} exited ${result.status}: ${result.stdout.slice(-2000)}${result.stderr.slice(0, 2000)}`);
    c.found = found[0].replace(/^Mutation score: /, '');
    c.mutants = /^Mutation testing: ([0-9]+) mutants/m.exec(result.stdout)?.[1] ?? '';
    if (round >= WARM_UP_ROUNDS) samples[i].push(ms);
  });
}
for (const dir of dirs) rmSync(dir, { recursive: true, force: true });

console.log(`Median of ${ROUNDS} runs each (${WARM_UP_ROUNDS} warm-up rounds), Node ${process.version}.\n`);
console.log('| command (1,000 rules, 1,000 tests) | mutants | score | median ms | vs `botrules test` | target |');
console.log('|---|---:|---:|---:|---:|---:|');
let missed = 0;
cases.forEach((c, i) => {
  const plain = c.versus === undefined ? undefined : median(samples[c.versus]);
  const ratio = plain === undefined ? undefined : median(samples[i]) / plain;
  if (ratio !== undefined && ratio > TARGET) missed += 1;
  const verdict = ratio === undefined ? '' : `${TARGET}× ${ratio <= TARGET ? 'met' : 'MISSED'}`;
  console.log(`| ${c.label} | ${c.mutants ?? ''} | ${c.versus === undefined ? '' : c.found} | ${median(samples[i]).toFixed(1)} | ${ratio === undefined ? '' : `${ratio.toFixed(2)}×`} | ${verdict} |`);
});
process.exitCode = missed === 0 ? 0 : 1;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
