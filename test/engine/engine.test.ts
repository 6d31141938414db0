// The use cases run without a command (docs/design.md, "Layering"): a plain Runtime (an
// environment reader, a debug function) is all they need, they talk HTTPS to the emulator,
// and they return values rather than printing.
import { UserError } from '../../src/errors.js';
import { applyProject, type ApplyProgress } from '../../src/engine/apply.js';
import { takeLiveSnapshot } from '../../src/engine/live.js';
import { planProject } from '../../src/engine/plan.js';
import type { Runtime } from '../../src/runtime.js';
import { distinctiveToken, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { lettered, liveFields, patches, rule, tempProject, writeConfig, writeRules, type Project } from '../apply/fixtures.js';

let emu: TestEmulator;
let project: Project;
const token = distinctiveToken('shop');

beforeEach(async () => {
  emu = await startTestEmulator({ apps: [{ name: 'shop', token }], seedRules: lettered(3) });
  project = await tempProject();
  await writeConfig(project.dir, { apps: [{ name: 'shop', rulesDir: 'rules', tokenEnv: 'BOTRULES_TOKEN_SHOP' }] });
  const [a, b, c] = lettered(3) as [ReturnType<typeof rule>, ReturnType<typeof rule>, ReturnType<typeof rule>];
  await writeRules(project.rulesDir, [c, a, { ...b, description: 'changed' }]);
});

afterEach(async () => {
  await emu.close();
  await project.close();
});

/** A Runtime over a plain record, keeping what the use case said. */
function runtime(variables: Record<string, string>): Runtime & { lines: string[] } {
  const lines: string[] = [];
  return {
    cwd: project.dir,
    env: (name) => variables[name],
    debug: (line) => lines.push(`debug: ${line}`),
    notice: (line) => lines.push(`notice: ${line}`),
    lines,
  };
}

test('planProject returns the Plan of every app, one LIST each, and says what it did through debug only', async () => {
  const rt = runtime({ ...emu.env, BOTRULES_TOKEN_SHOP: token });
  const { plan, review: { limitExcesses: excesses } } = await planProject({}, rt);
  expect(plan.apps.map((app) => app.app)).toEqual(['shop']);
  expect(plan.apps[0]?.steps.map((step) => [step.name, step.kind])).toEqual([
    ['C', 'move'],
    ['B', 'update'],
  ]);
  expect(excesses).toEqual([]);
  expect(emu.emulator.log.filter((entry) => entry.method === 'GET')).toHaveLength(1);
  expect(rt.lines.some((line) => line.startsWith('debug: planned app shop (3 declared, 3 live rules)'))).toBe(true);
  expect(rt.lines.join('\n')).not.toContain(token);
});

test('a token missing from the environment reader stops the use case before any request', async () => {
  const rt = runtime({ ...emu.env });
  await expect(planProject({}, rt)).rejects.toThrow(new UserError('BOTRULES_TOKEN_SHOP is not set: it must hold the server token of app shop'));
  await expect(takeLiveSnapshot({}, rt)).rejects.toBeInstanceOf(UserError);
  expect(emu.emulator.log).toHaveLength(0);
});

test('applyProject asks, applies, reports progress and returns one report that brings the live rules to the rule files', async () => {
  const rt = runtime({ ...emu.env, BOTRULES_TOKEN_SHOP: token });
  const outcomes: string[] = [];
  const asked: number[] = [];
  const report = await applyProject({ concurrency: 2 }, rt, {
    approve: async (shown) => {
      asked.push(shown.summary.patches);
      return true;
    },
    onProgress: (event: ApplyProgress) => {
      if (event.kind === 'step') outcomes.push(`${event.app}: ${event.outcome.state}`);
    },
  });
  const plan = report.plan;
  expect(report.target).toBe('the rule files');
  expect(report.outcome).toBe('applied');
  expect(report.failure).toBeUndefined();
  expect(asked).toEqual([plan.summary.patches]);
  expect(report.totals).toEqual({ sent: plan.summary.patches, failed: 0, notAttempted: 0 });
  expect(outcomes).toEqual(Array.from({ length: plan.summary.patches }, () => 'shop: applied'));
  expect(patches(emu.emulator)).toHaveLength(plan.summary.patches);
  expect(liveFields(emu.emulator, 'shop').map((r) => [r.name, r.description])).toEqual([
    ['C', lettered(3)[2]?.description],
    ['A', lettered(3)[0]?.description],
    ['B', 'changed'],
  ]);
  const { snapshot, rules } = await takeLiveSnapshot({}, rt);
  expect(rules).toBe(3);
  expect(snapshot.apps[0]?.rules.map((r) => r.name)).toEqual(['C', 'A', 'B']);
});
