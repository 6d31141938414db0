// The project the transition check's in-process benchmarks plan (issue #42): a shape's live rules
// (bench/plan-shapes.js) imported from an emulator into rule files, 5% of them moved and 10%
// edited (bench/plan-change.js), as `npm run bench -- apply` prepares them; the planner's steps
// for it, in the planner's order.
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../dist/emulator/index.js';
import { seededRandom as random } from '../dist/emulator/random.js';
import { loadRules } from '../dist/rules/load.js';
import { readLiveSnapshotFile } from '../dist/live/file.js';
import { rulesOf } from '../dist/live/snapshot.js';
import { planApp } from '../dist/plan/planner.js';
import { editAndMove } from './plan-change.js';
import { timedNode } from './timed-child.js';
import { anyRuleSet } from './plan-shapes.js';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'botrules.js');

/** The shape's project under `work`: its live rules and the planner's steps. */
export async function prepareTransitionProject(work, shape, liveRules, token) {
  const dir = join(work, shape);
  await mkdir(dir, { recursive: true });
  const seedRules = anyRuleSet(shape, liveRules).map(({ ruleId: _id, priority: _p, ...rule }) => rule);
  const emulator = await startEmulator({ statePath: join(dir, 'state.json'), reset: true, apps: [{ name: 'default', token }], seedRules, randomSeed: 7, latencyMs: 0 });
  try {
    const env = { BOTRULES_CONSOLE_URL: emulator.consoleUrl, BOTRULES_TOKEN: token, NODE_EXTRA_CA_CERTS: emulator.caPath };
    await timedNode([bin, 'import', '--out', join(dir, 'rules')], { cwd: dir, env });
    await editAndMove(join(dir, 'rules'), random(42));
    await timedNode([bin, 'live', '--dir', 'rules', '--out', 'live.json'], { cwd: dir, env });
  } finally {
    await emulator.stop();
  }
  const declared = (await loadRules('rules', { cwd: dir })).rules;
  const live = rulesOf(await readLiveSnapshotFile(join(dir, 'live.json'), 'live.json'), 'default');
  return { live, steps: planApp({ app: 'default', declared, live, unmanaged: 'keep' }).plan.steps };
}

/** The median of `values`. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** `run()`'s result and the CPU time of this process while it ran, in ms. */
export function cpuMs(run) {
  const before = process.cpuUsage();
  const result = run();
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000, result };
}
