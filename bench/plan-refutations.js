// What the refutations of a plan's region searches answer (src/diff/refutations.ts, issue #42):
// the plan of apply.bench.js (5,000 live rules of a shape, 5% of them moved and 10% edited)
// against a live snapshot, both analyses on, budgets of 1,000 s (so that the clock never ends a
// search and the runs compare), run twice: with the plan's RefutationStore (what one search
// proves, the next reads), and with it emptied at every read (each search keeps its own only, as
// before the store). The child runs dist/ unbundled, with a module preloaded that counts every
// witness search (src/diff/model.ts `find`) by its answer and the states it visited, and every
// way a refutation answered, by where it came from: learned in the same search, or taken from the
// store. Counts, not times: they repeat exactly on a loaded machine. The plans' JSON is compared.
// BENCH_SHAPES names the shapes (default networks,apis,scrapers,gateways); BENCH_RULES the live
// rules (default 5,000). Usage: npm run build && node bench/plan-refutations.js
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { preparePlanProject } from './plan-project.js';
import { timedNode } from './timed-child.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const LIVE_RULES = Number(process.env.BENCH_RULES ?? 5_000);
const SHAPES = (process.env.BENCH_SHAPES ?? 'networks,apis,scrapers,gateways').split(',');
const BUDGETS = ['--transition-budget', '1000', '--diff-budget', '1000'];
const dist = (file) => JSON.stringify(pathToFileURL(join(root, 'dist', ...file.split('/'))).href);

// Preloaded into the child: the counters, written at exit to the file BENCH_COUNTS_FILE names.
// With BENCH_STORE=off a search's view of the store reads nothing and keeps nothing.
const COUNT = `data:text/javascript,${encodeURIComponent(`import { writeFileSync } from 'node:fs';
import { Models } from ${dist('diff/model.js')};
import { Refutations, SharedRefutations } from ${dist('diff/refutations.js')};
import { countWitnessSearches } from ${JSON.stringify(pathToFileURL(join(root, 'bench', 'witness-counts.js')).href)};
const counts = countWitnessSearches(Models, { learned: 0, stored: 0 });
const fromStore = new WeakSet();
const taken = SharedRefutations.prototype.taken;
SharedRefutations.prototype.taken = function countedTaken(key) {
  if (process.env.BENCH_STORE === 'off') return [];
  const refutations = taken.call(this, key);
  for (const refutation of refutations) fromStore.add(refutation);
  return refutations;
};
const keep = SharedRefutations.prototype.keep;
SharedRefutations.prototype.keep = function countedKeep(key, refutation) {
  if (process.env.BENCH_STORE !== 'off') keep.call(this, key, refutation);
};
const holds = Refutations.prototype.holds;
Refutations.prototype.holds = function countedHolds(refutation) {
  const answer = holds.call(this, refutation);
  if (answer) counts[fromStore.has(refutation) ? 'stored' : 'learned'] += 1;
  return answer;
};
process.on('exit', () => writeFileSync(process.env.BENCH_COUNTS_FILE, JSON.stringify(counts)));
`)}`;

async function countedPlan(dir, store) {
  const countsFile = join(dir, 'counts.json');
  const runner = join(dir, 'run-unbundled.mjs');
  await writeFile(runner, `const { runFromProcess } = await import(${dist('cli/main.js')});\nawait runFromProcess();\n`);
  const plan = ['plan', '--format', 'json', '--dir', 'rules', '--live', 'live.json', ...BUDGETS];
  const run = await timedNode(['--import', COUNT, runner, ...plan], { cwd: dir, env: { BENCH_COUNTS_FILE: countsFile, BENCH_STORE: store } });
  const counts = JSON.parse(await readFile(countsFile, 'utf8'));
  await rm(countsFile);
  return { counts, md5: createHash('md5').update(run.stdout).digest('hex').slice(0, 8) };
}

const n = (value) => value.toLocaleString('en');
const cell = ([searches, states]) => `${n(searches)} (${n(states)})`;

function row(shape, store, { counts, md5 }) {
  const searches = counts.request[0] + counts.unsat[0] + counts.unknown[0];
  const states = counts.request[1] + counts.unsat[1] + counts.unknown[1];
  return `| ${shape} | ${store} | ${cell(counts.request)} | ${cell(counts.unsat)} | ${cell(counts.unknown)} | ${n(searches)} (${n(states)}) | ${n(counts.learned)} | ${n(counts.stored)} | ${md5} |`;
}

const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
console.log(`Commit ${commit}, Node ${process.version}, load average ${loadavg()[0].toFixed(1)} at the start; ${n(LIVE_RULES)} live rules, 5% moved, 10% edited, both analyses on, budgets 1,000 s.\n`);
console.log('witness searches by answer (states visited); ways a refutation answered, learned in the same search or taken from the store; md5 of the plan JSON\n');
console.log('| shape | store | with a request | with none | unknown | in all | refuted, same search | refuted, from the store | plan md5 |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---|');
const work = await mkdtemp(join(tmpdir(), 'botrules-plan-refutations-'));
try {
  for (const shape of SHAPES) {
    const dir = await preparePlanProject(work, shape, LIVE_RULES);
    console.log(row(shape, 'off', await countedPlan(dir, 'off')));
    console.log(row(shape, 'on', await countedPlan(dir, 'on')));
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
