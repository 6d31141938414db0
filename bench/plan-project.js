// A plan project as the plan benchmarks use it: an emulator seeded with `liveRules` rules of a
// shape, the rule files `botrules import` writes and the live snapshot `botrules live` writes,
// then 5% of the rules moved and 10% edited (plan-change.js), in WORK/SHAPE.
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../dist/emulator/index.js';
import { seededRandom as random } from '../dist/emulator/random.js';
import { editAndMove } from './plan-change.js';
import { timedNodeWithRss } from './timed-child.js';
import { anyRuleSet } from './plan-shapes.js';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'botrules.js');

/** Prepares the project of `shape` in WORK/SHAPE and returns its directory. */
export async function preparePlanProject(work, shape, liveRules) {
  const token = `tok-${randomBytes(8).toString('hex')}`;
  const dir = join(work, shape);
  await mkdir(dir, { recursive: true });
  const emulator = await startEmulator({
    statePath: join(dir, 'state.json'),
    reset: true,
    apps: [{ name: 'default', token }],
    seedRules: anyRuleSet(shape, liveRules).map(({ ruleId: _id, priority: _p, ...rule }) => rule),
    randomSeed: 7,
    latencyMs: 0,
  });
  const env = { BOTRULES_CONSOLE_URL: emulator.consoleUrl, BOTRULES_TOKEN: token, NODE_EXTRA_CA_CERTS: emulator.caPath };
  const rssFile = join(dir, 'max-rss.txt');
  try {
    await timedNodeWithRss([bin, 'import', '--out', join(dir, 'rules')], { cwd: dir, env, rssFile });
    await timedNodeWithRss([bin, 'live', '--out', join(dir, 'live.json')], { cwd: dir, env, rssFile });
  } finally {
    await emulator.stop();
  }
  await editAndMove(join(dir, 'rules'), random(42));
  return dir;
}
