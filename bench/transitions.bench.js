// What the transition check (docs/behaviour.md, "Safe transitions") adds to `botrules plan`, as
// whole processes against the emulator (in this process, no added latency): 1,000 live rules of
// two shapes (bench/rule-shapes.js: themes, random), rule files written by `botrules import`,
// then 50 rules changed (25 moved by renaming their files, 25 with other actions). Each round
// runs `plan --format json --transition-budget 0` (no check) and `plan --format json` (the check,
// default budget) back to back, so drift in the machine's speed touches both alike; the ratio is
// of the medians. Also reported: the PATCH requests, the windows of the order chosen, whether
// another order was chosen, and what the budget left unchecked.
// Usage: `npm run bench -- transitions` (after `npm run compile`); BENCH_ROUNDS=N for more rounds,
// BENCH_RULES=5000 for a large plan.
import { mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { startEmulator } from '../dist/emulator/index.js';
import { seededRandom } from '../dist/emulator/random.js';
import { ruleSet } from './rule-shapes.js';
import { timedNode } from './timed-child.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'botrules.js');
const LIVE_RULES = Number(process.env.BENCH_RULES ?? 1_000);
/** One rule in forty moved and one in forty edited: 25 and 25 of 1,000. */
const MOVED = Math.round(LIVE_RULES / 40);
const EDITED = Math.round(LIVE_RULES / 40);
const SHAPES = ['themes', 'random'];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TOKEN = 'bench-transitions-token';

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The CLI as a timed child (the emulator answers from this process meanwhile). */
function runCli(args, options) {
  return timedNode([bin, ...args], options);
}

async function readRuleFiles(dir) {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.yaml')).sort();
  return Promise.all(files.map(async (file) => ({ file, text: await readFile(join(dir, file), 'utf8') })));
}

/** Other actions for EDITED rules (allow ↔ blocking), and MOVED rules' files renamed to sort after another's. */
async function change(dir, next) {
  const files = await readRuleFiles(dir);
  const picked = new Set();
  while (picked.size < EDITED + MOVED) picked.add(Math.floor(next() * files.length));
  const [edited, moved] = [[...picked].slice(0, EDITED), [...picked].slice(EDITED)];
  for (const i of edited) {
    const { file, text } = files[i];
    const comment = text.startsWith('#') ? `${text.split('\n')[0]}\n` : '';
    const doc = parse(text);
    const rule = doc.rules[0];
    rule.actions = rule.actions.includes('allow') ? ['hardBlock'] : ['allow'];
    await writeFile(join(dir, file), comment + stringify(doc));
  }
  for (const i of moved) {
    const target = files[Math.floor(next() * files.length)].file;
    const { file } = files[i];
    if (target !== file) await rename(join(dir, file), join(dir, `${target.replace(/\.yaml$/, '')}5-moved-${file}`));
  }
}

async function measure(shape, work) {
  const seedRules = ruleSet(shape, LIVE_RULES).map(({ ruleId: _id, priority: _p, ...rule }) => rule);
  const emulator = await startEmulator({
    statePath: join(work, shape, 'state.json'),
    reset: true,
    apps: [{ name: 'default', token: TOKEN }],
    seedRules,
    randomSeed: 7,
  });
  try {
    const env = { BOTRULES_CONSOLE_URL: emulator.consoleUrl, BOTRULES_TOKEN: TOKEN, NODE_EXTRA_CA_CERTS: emulator.caPath };
    const rulesDir = join(work, shape, 'rules');
    await runCli(['import', '--out', rulesDir], { cwd: work, env });
    await change(rulesDir, seededRandom(42));
    const without = ['plan', '--format', 'json', '--dir', rulesDir, '--transition-budget', '0'];
    const checked = ['plan', '--format', 'json', '--dir', rulesDir];
    await runCli(without, { cwd: work, env }); // warm-up (file cache)
    const plain = [];
    const withCheck = [];
    let last;
    for (let round = 0; round < ROUNDS; round += 1) {
      plain.push((await runCli(without, { cwd: work, env })).ms);
      last = await runCli(checked, { cwd: work, env });
      withCheck.push(last.ms);
    }
    const plan = JSON.parse(last.stdout);
    const transitions = plan.apps[0].transitions ?? { windows: [], unchecked: [], order: 'none' };
    return {
      shape,
      plainMs: median(plain),
      checkedMs: median(withCheck),
      patches: plan.summary.patches,
      windows: transitions.windows.length,
      order: transitions.order,
      unchecked: transitions.unchecked.length,
    };
  } finally {
    await emulator.stop();
  }
}

const work = await mkdtemp(join(tmpdir(), 'botrules-bench-transitions-'));
try {
  const rows = [];
  for (const shape of SHAPES) rows.push(await measure(shape, work));
  console.log(`${LIVE_RULES} live rules, ${EDITED + MOVED} changed (${MOVED} moved, ${EDITED} other actions); median of ${ROUNDS} paired runs\n`);
  console.log('| shape | plan, no check (ms) | plan with the transition check (ms) | × | PATCH requests | windows | order | unchecked parts |');
  console.log('|---|---:|---:|---:|---:|---:|---|---:|');
  for (const r of rows) {
    console.log(`| ${r.shape} | ${r.plainMs.toFixed(0)} | ${r.checkedMs.toFixed(0)} | ${(r.checkedMs / r.plainMs).toFixed(2)} | ${r.patches} | ${r.windows} | ${r.order} | ${r.unchecked} |`);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
