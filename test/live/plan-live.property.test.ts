// `botrules live` then `plan --live` gives exactly the plan a live `plan` gives, on
// generated apps (random order, edits, unmanaged and blocked rules, both policies), with
// no request and no token: the snapshot job and the pull-request job agree step for step.
import { describe, expect, test, beforeAll, afterAll } from '@jest/globals';
import fc from 'fast-check';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { tempProject, writeConfig, writeRules, type Project } from '../apply/fixtures.js';
import { scenarios, type Scenario } from '../plan/scenarios.js';
import type { Rule } from '../../src/semantics/model.js';

let emu: TestEmulator;
let project: Project;

beforeAll(async () => {
  emu = await startTestEmulator();
  project = await tempProject();
});

afterAll(async () => {
  await emu.close();
  await project.close();
});

/** The scenario's ids as real rule ids look (`id-3` → a UUID), in the live and declared rules. */
function withUuids(s: Scenario): { live: Rule[]; declared: Rule[] } {
  const uuid = (id: string): string => `0f0e0d0c-0b0a-4000-8000-${id.replace('id-', '').padStart(12, '0')}`;
  const live = s.live.map(({ priority: _p, ...rule }) => ({ ...rule, ruleId: uuid(rule.ruleId) }));
  const declared = s.declared.map(({ source: _s, ...rule }) => (rule.ruleId === undefined ? rule : { ...rule, ruleId: uuid(rule.ruleId) }));
  return { live, declared };
}

describe('plan --live', () => {
  test('gives exactly the steps of a live plan, with no request and no token', async () => {
    await fc.assert(
      fc.asyncProperty(scenarios({ maxRules: 25 }), async (s) => {
        const { live, declared } = withUuids(s);
        emu.emulator.replaceRules(live);
        await writeRules(project.rulesDir, declared);
        await writeConfig(project.dir, { unmanaged: s.policy, apps: [{ name: 'default', rulesDir: 'rules', tokenEnv: 'BOTRULES_TOKEN' }] });

        const snapshot = await runCli(['live', '--out', 'live.json'], { env: emu.env, cwd: project.dir });
        expect(snapshot).toMatchObject({ code: 0, stdout: '' });
        const fromService = await runCli(['plan', '--format', 'json', '--allow-empty'], { env: emu.env, cwd: project.dir });

        const requestsBefore = emu.emulator.log.length;
        // Nothing that could reach the service: no token, no URL.
        const fromSnapshot = await runCli(['plan', '--format', 'json', '--allow-empty', '--live', 'live.json'], { env: {}, cwd: project.dir });
        expect(emu.emulator.log.length).toBe(requestsBefore);

        expect(fromSnapshot.code).toBe(fromService.code);
        const planned = JSON.parse(fromSnapshot.stdout) as { snapshot?: { takenAt: string }; apps: unknown; summary: unknown };
        const expected = JSON.parse(fromService.stdout) as { snapshot?: unknown; apps: unknown; summary: unknown };
        expect(planned.apps).toEqual(expected.apps);
        expect(planned.summary).toEqual(expected.summary);
        expect(expected.snapshot).toBeUndefined();
        expect(planned.snapshot?.takenAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      }),
      { numRuns: 30 },
    );
  }, 180_000);
});
