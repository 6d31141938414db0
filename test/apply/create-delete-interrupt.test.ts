// The interrupt path with creates and deletes (docs/behaviour.md, "Interrupted applies"): once
// interrupted after a POST, apply sends nothing more and lists nothing more, the live rules it
// reports hold the created rule under the ruleId the service gave it, and the undo plan deletes
// exactly that rule (pauses it, when the service does not delete).
import { readFile } from 'node:fs/promises';
import { createRulesClient } from '../../src/api/index.js';
import { applyAppPlan } from '../../src/apply/apply-app.js';
import { undoForApp } from '../../src/apply/undo.js';
import { planApp } from '../../src/plan/planner.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { declared as declaredRule } from '../helpers/rules.js';
import { conditionsFor, lettered, rule } from './fixtures.js';

let t: TestEmulator;
afterEach(() => t.close());

it('an interrupt after a create: the created rule is reported under its new id, and the undo removes it', async () => {
  t = await startTestEmulator({ seedRules: lettered(3), capabilities: ['create', 'delete'] });
  const api = createRulesClient({
    baseUrl: t.emulator.consoleUrl, urlVariable: 'BOTRULES_CONSOLE_URL', token: t.env.BOTRULES_TOKEN as string,
    tokenVariable: 'BOTRULES_TOKEN', extraCaPem: await readFile(t.emulator.caPath, 'utf8'), app: 'default',
  });
  const live = await api.listRules();
  const [a, b, c] = lettered(3) as [ReturnType<typeof rule>, ReturnType<typeof rule>, ReturnType<typeof rule>];
  const files = [a, rule('New first', { conditions: conditionsFor('first') }), b, rule('New last', { conditions: conditionsFor('last') }), c];
  const declared = files.map((r, index) => declaredRule({ ...r, source: { file: 'rules/all.yaml', line: index + 1, col: 3 } }));
  const service = { create: true, delete: true };
  const { plan } = planApp({ app: 'default', declared, live, unmanaged: 'keep', service });
  expect(plan.steps.map((step) => step.kind)).toEqual(['create', 'create']);

  const interrupt = new AbortController();
  const result = await applyAppPlan('default', plan.steps, live, api, {
    concurrency: 4, maxCorrections: 2, correctionBudget: 10, signal: interrupt.signal,
    onOutcome: () => interrupt.abort(),
  });
  expect(result.interrupted).toBe(true);
  expect(result.passes[0]?.map((outcome) => outcome.state)).toEqual(['applied', 'not-attempted']);
  // One POST, and no LIST after it.
  expect(t.emulator.log.map((entry) => entry.method)).toEqual(['GET', 'POST']);
  const created = t.emulator.rules().find((r) => r.name === 'New first');
  expect(result.after?.map((r) => [r.name, r.ruleId])).toEqual(t.emulator.rules().map((r) => [r.name, r.ruleId]));

  const undo = undoForApp({ plan, before: live, result, service });
  expect(undo?.steps.map((step) => [step.kind, step.ruleId])).toEqual([['delete', created?.ruleId]]);
  const pausing = undoForApp({ plan, before: live, result, service: { create: true, delete: false } });
  expect(pausing?.steps.map((step) => [step.kind, step.ruleId])).toEqual([['pause-unmanaged', created?.ruleId]]);
});
