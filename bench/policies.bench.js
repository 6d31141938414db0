// Policies (docs/behaviour.md, "Policies"): 20 policies over 1,000 rules of four shapes, each
// proved by the region search, and `botrules validate` with those policies against the same
// project without them. Shapes: `themes` and `random` of bench/rule-shapes.js; `layered`,
// written after the prover and measured as first written (nothing in the prover was tuned for
// it): a production-like list of allow lists first, then blocks on user agents and countries,
// then challenges on paths, then rules on parameters and devices, from a vocabulary of its own;
// and `hosts`, written after the rest of a later round's work, also not tuned for.
// Policies are drawn from the leaves the rules themselves use (what a security team writes
// about), with a random expectation: a set of outcomes, or a rule that must decide.
// Targets: every proof under 1 s at 1,000 rules (in-process, each policy alone, with no time
// budget to hide behind; an unchecked verdict names its reason, a `$re` the search cannot
// reason about); `validate` with the policies at most 2× `validate` without (medians of interleaved
// whole-process runs, the median of the paired ratios); a spent budget (--policy-budget 0)
// leaves every policy unchecked, naming the option, and exits 1. Exit 1 when a target is missed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { provePolicy } from '../dist/diff/policy.js';
import { pick, randomInt, seededRandom } from '../dist/emulator/random.js';
import { normaliseRule } from '../dist/semantics/normalise.js';
import { CLASS_RULE_NAME } from '../dist/rules/policies.js';
import { ruleSet, writeProject } from './rule-shapes.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'botrules.js');
const RULES = 1_000;
const POLICIES = 20;
const PROOF_TARGET_MS = 1_000;
const RATIO_TARGET = 2;
const WARM_UP_ROUNDS = 1;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const OUTCOMES = ['allow', 'challenge', 'block', 'none'];

/** The shape written last: layered like a production list, from its own vocabulary. */
function layeredRules(count) {
  const random = seededRandom(count + 7);
  const leaf = (conditionType, operator, value, fieldOption) => ({ conditionType, operator, ...(value === undefined ? {} : { value }), ...(fieldOption === undefined ? {} : { fieldOption }) });
  const bots = ['Googlebot', 'bingbot', 'DuckDuckBot', 'Applebot', 'YandexBot'];
  const asns = ['15169', '8075', '13335', '16509', '14618', '396982'];
  const paths = ['/cart', '/checkout', '/account', '/account/login', '/api/v2/prices', '/search', '/graphql', '/static/'];
  const layers = [
    () => ({ actions: ['allow'], groups: [[leaf('userAgent', '$contains', pick(random, bots)), leaf('socketIpASN', '$in', [pick(random, asns)])]] }),
    () => ({ actions: ['hardBlock'], groups: [[leaf('userAgent', '$re', [pick(random, ['curl/\\d', '[Ss]crapy', 'python-requests', 'Go-http-client', 'HeadlessChrome'])])]] }),
    () => ({ actions: ['hardBlock'], groups: [[leaf('country', '$in', [pick(random, ['KP', 'IR', 'SY', 'CU']), pick(random, ['RU', 'BY'])])], [leaf('socketIps', '$in', [`198.51.${randomInt(random, 0, 255)}.0/24`])]] }),
    () => ({ actions: ['blockWithChallenge'], groups: [[leaf('path', '$startsWith', pick(random, paths)), leaf('header', '$notExists', undefined, pick(random, ['sec-fetch-mode', 'accept-language', 'referer']))]] }),
    () => ({ actions: ['blockWithChallenge'], groups: [[leaf('path', '$eq', pick(random, paths)), leaf('httpMethod', '$in', [pick(random, ['POST', 'PUT', 'DELETE'])])], [leaf('socketIpASN', '$in', [pick(random, asns)])]] }),
    () => ({ actions: [pick(random, ['hardBlock', 'blockWithChallenge', 'allow'])], groups: [[leaf('customParam', pick(random, ['$eq', '$ne']), pick(random, ['high', 'critical', 'low']), 'risk'), leaf('deviceType', '$in', [pick(random, ['desktop', 'mobile', 'tablet'])])], [leaf('queryParam', '$exists', undefined, pick(random, ['debug', 'utm_source', 'page']))]] }),
  ];
  return Array.from({ length: count }, (_, i) => {
    // Allow lists first, as production lists put them; then the rest, in bands.
    const band = Math.min(layers.length - 1, Math.floor((i / count) * layers.length));
    const { actions, groups } = layers[band]();
    return {
      name: `Layered ${String(i + 1).padStart(5, '0')}`, description: '', status: random() < 0.95 ? 'active' : 'paused', actions,
      conditions: { operator: groups.length > 1 ? '$or' : '$and', children: groups.map((children) => ({ operator: '$and', children })) },
      ruleId: `l-${String(i).padStart(5, '0')}`, priority: i,
    };
  });
}

/**
 * The fourth shape, written after all the other work of this round and measured as first
 * written: a multi-tenant list, each rule scoped to one tenant's host (domain $eq or $endsWith),
 * then an $or of up to three groups over user-agent prefixes, address ranges, countries,
 * header presence and path substrings, with actions of every kind in no particular order.
 */
function hostRules(count) {
  const random = seededRandom(count + 41);
  const leaf = (conditionType, operator, value, fieldOption) => ({ conditionType, operator, ...(value === undefined ? {} : { value }), ...(fieldOption === undefined ? {} : { fieldOption }) });
  const tenants = Array.from({ length: 40 }, (_, i) => `t${i}.shop.example`);
  const extras = [
    () => leaf('userAgent', '$startsWith', pick(random, ['Mozilla/5.0 (X11', 'okhttp/', 'Dalvik/', 'facebookexternalhit', 'Slackbot'])),
    () => leaf('socketIps', '$in', [`203.0.${randomInt(random, 0, 255)}.0/${pick(random, [24, 26, 28])}`]),
    () => leaf('country', pick(random, ['$in', '$notIn']), [pick(random, ['DE', 'FR', 'US', 'BR', 'IN', 'JP'])]),
    () => leaf('header', pick(random, ['$exists', '$notExists']), undefined, pick(random, ['x-tenant-key', 'authorization', 'x-requested-with'])),
    () => leaf('path', '$contains', pick(random, ['/admin', '/export', '/coupon', '/gift-card', '/wp-'])),
  ];
  return Array.from({ length: count }, (_, i) => {
    const host = pick(random, tenants);
    const scope = random() < 0.5 ? leaf('domain', '$eq', host) : leaf('domain', '$endsWith', host.slice(host.indexOf('.')));
    const groups = Array.from({ length: randomInt(random, 1, 3) }, () => [scope, ...Array.from({ length: randomInt(random, 1, 2) }, () => pick(random, extras)())]);
    return {
      name: `Tenant ${String(i + 1).padStart(5, '0')}`, description: '', status: random() < 0.9 ? 'active' : 'paused',
      actions: [pick(random, ['allow', 'hardBlock', 'blockWithChallenge'])],
      conditions: { operator: groups.length > 1 ? '$or' : '$and', children: groups.map((children) => ({ operator: '$and', children })) },
      ruleId: `t-${String(i).padStart(5, '0')}`, priority: i,
    };
  });
}

/**
 * Policies about what the rules talk about, in three kinds: the class of one group of an early
 * active rule, expecting the outcomes of the rules up to it (such a policy holds, and proving it
 * walks every rule before that one); a class of leaves the rules use, expecting a random set of
 * outcomes; and the same, expecting a rule to decide.
 */
function policiesFor(rules, seed) {
  const random = seededRandom(seed);
  const active = rules.filter((rule) => rule.status === 'active');
  const leaves = rules.flatMap((rule) => rule.conditions.children.flatMap((group) => group.children));
  const outcomeOf = (actions) => (actions.includes('hardBlock') ? 'block' : actions.includes('blockWithChallenge') ? 'challenge' : 'allow');
  const leafClass = () => {
    const groups = Array.from({ length: randomInt(random, 1, 2) }, () => ({ operator: '$and', children: Array.from({ length: randomInt(random, 1, 2) }, () => copyOf(pick(random, leaves))) }));
    return { operator: groups.length > 1 ? '$or' : '$and', children: groups };
  };
  return Array.from({ length: POLICIES }, (_, i) => {
    const name = `Policy ${i + 1}`;
    if (i % 5 < 2) {
      const at = randomInt(random, 0, Math.min(active.length, 200) - 1);
      const rule = active[at];
      const group = pick(random, rule.conditions.children);
      const requests = { operator: '$and', children: rule.conditions.operator === '$and' ? rule.conditions.children.map((g) => copyOf(g)) : [copyOf(group)] };
      const outcome = [...new Set(active.slice(0, at + 1).map((r) => outcomeOf(r.actions)))];
      return { name, level: 'warning', requests, expect: { outcome } };
    }
    if (i % 5 < 4) return { name, level: 'warning', requests: leafClass(), expect: { outcome: OUTCOMES.filter(() => random() < 0.6).concat(['none']).filter((o, k, all) => all.indexOf(o) === k) } };
    return { name, level: 'warning', requests: leafClass(), expect: { decidedBy: pick(random, active).name } };
  });
}

// Each shape's policies come from its own seed (the seeds the figures in bench/README.md were measured with).
const shapes = [
  { name: 'themes', rules: ruleSet('themes', RULES), seed: RULES + 6 },
  { name: 'random', rules: ruleSet('random', RULES), seed: RULES + 6 },
  { name: 'layered (written after the prover, not tuned for)', rules: layeredRules(RULES), seed: RULES + 37 },
  { name: 'hosts (written after this round\'s work, not tuned for)', rules: hostRules(RULES), seed: RULES + 56 },
];

// 1. Each proof alone, in-process.
let missed = 0;
console.log(`Each of ${POLICIES} policies proved alone over ${RULES.toLocaleString('en')} rules (Node ${process.version}).\n`);
console.log('| shape | holds | violated | unchecked | median ms | slowest ms | target |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const shape of shapes) {
  const rules = shape.rules.map((rule) => normaliseRule(rule));
  const active = rules.filter((rule) => rule.status === 'active');
  shape.policies = policiesFor(shape.rules, shape.seed);
  const counts = { holds: 0, violated: 0, unchecked: 0 };
  const times = [];
  for (const policy of shape.policies) {
    const requests = normaliseRule({ name: CLASS_RULE_NAME, actions: ['allow'], conditions: policy.requests });
    const start = process.hrtime.bigint();
    const verdict = provePolicy({ requests, expect: policy.expect }, active);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    counts[verdict.verdict] += 1;
    if (verdict.verdict === 'unchecked') shape.unchecked = [...(shape.unchecked ?? []), `${policy.name}: ${verdict.unchecked.map((part) => part.reason).join('; ')}`];
  }
  const slowest = Math.max(...times);
  if (slowest >= PROOF_TARGET_MS) missed += 1;
  console.log(`| ${shape.name} | ${counts.holds} | ${counts.violated} | ${counts.unchecked} | ${median(times).toFixed(1)} | ${slowest.toFixed(1)} | < ${PROOF_TARGET_MS} ms ${slowest < PROOF_TARGET_MS ? 'met' : 'MISSED'} |`);
}

for (const shape of shapes) for (const line of shape.unchecked ?? []) console.log(`\n${shape.name}, unchecked: ${line}`);

// 2. `botrules validate` with and without the policies, whole process.
const cases = [];
const dirs = [];
for (const shape of shapes) {
  const without = mkdtempSync(join(tmpdir(), 'botrules-bench-policies-'));
  const withPolicies = mkdtempSync(join(tmpdir(), 'botrules-bench-policies-'));
  dirs.push(without, withPolicies);
  writeProject(without, shape.rules, 10);
  writeProject(withPolicies, shape.rules, 10);
  mkdirSync(join(withPolicies, 'policies'));
  // JSON is YAML: the policies as one file, as a team might generate them.
  writeFileSync(join(withPolicies, 'policies', 'bench.yaml'), `${JSON.stringify({ policies: shape.policies }, null, 1)}\n`);
  cases.push({ label: `${shape.name}: validate without policies`, cwd: without, expect: /^100 files, 1000 rules: valid/ });
  cases.push({ label: `${shape.name}: validate with ${POLICIES} policies`, cwd: withPolicies, expect: new RegExp(`^100 files, 1000 rules: valid.*; ${POLICIES} policy checks: `), pair: cases.length - 1 });
}
const samples = cases.map(() => []);
for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round += 1) {
  cases.forEach((c, i) => {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, [bin, 'validate'], { cwd: c.cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0 || !c.expect.test(result.stdout)) throw new Error(`${c.label} exited ${result.status}: ${result.stdout}${result.stderr.slice(0, 2000)}`);
    c.summary = result.stdout.trim();
    if (round >= WARM_UP_ROUNDS) samples[i].push(ms);
  });
}
for (const dir of dirs) rmSync(dir, { recursive: true, force: true });

console.log(`\n\`botrules validate\`, 1,000 rules in 100 files: median of ${ROUNDS} interleaved runs each (after ${WARM_UP_ROUNDS} warm-up round).\n`);
console.log('| command | median ms | with / without (paired median) | target |');
console.log('|---|---:|---:|---:|');
cases.forEach((c, i) => {
  const paired = c.pair === undefined ? undefined : median(samples[i].map((ms, round) => ms / samples[c.pair][round]));
  if (paired !== undefined && paired > RATIO_TARGET) missed += 1;
  const verdict = paired === undefined ? '' : `${RATIO_TARGET}× ${paired <= RATIO_TARGET ? 'met' : 'MISSED'}`;
  console.log(`| ${c.label} | ${median(samples[i]).toFixed(1)} | ${paired === undefined ? '' : `${paired.toFixed(2)}×`} | ${verdict} |`);
});
for (const c of cases.filter((one) => one.pair !== undefined)) console.log(`\n${c.label}: ${c.summary.split('\n')[0]}`);

// 3. A spent budget: every policy unchecked, naming the option that gives more, and exit 1 (never a pass).
const spentDir = mkdtempSync(join(tmpdir(), 'botrules-bench-policies-'));
writeProject(spentDir, shapes[0].rules, 10);
mkdirSync(join(spentDir, 'policies'));
writeFileSync(join(spentDir, 'policies', 'bench.yaml'), `${JSON.stringify({ policies: shapes[0].policies }, null, 1)}\n`);
const spent = spawnSync(process.execPath, [bin, 'validate', '--policy-budget', '0', '--format', 'json'], { cwd: spentDir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
rmSync(spentDir, { recursive: true, force: true });
const spentPolicies = JSON.parse(spent.stdout).policies.filter((finding) => !finding.builtin);
const named = spentPolicies.filter((finding) => finding.verdict === 'unchecked' && finding.message.includes('--policy-budget SECONDS gives them more')).length;
const spentMet = spent.status === 1 && spentPolicies.length === POLICIES && named === POLICIES;
if (!spentMet) missed += 1;
console.log(`\n\`validate --policy-budget 0\` (themes): exit ${spent.status}, ${named} of ${spentPolicies.length} policies unchecked naming --policy-budget: ${spentMet ? 'met' : 'MISSED'}`);
process.exitCode = missed === 0 ? 0 : 1;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A deep copy of a leaf or group (plain JSON data). */
function copyOf(value) {
  return JSON.parse(JSON.stringify(value));
}
