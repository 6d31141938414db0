import { describe, expect, test } from '@jest/globals';
import { planApp } from '../../src/plan/planner.js';
import { simulateSteps } from '../../src/semantics/list-move.js';
import { restoringPlan, undoAppPlan } from '../../src/plan/undo.js';
import { fingerprintRules } from '../../src/plan/fingerprint.js';
import { conditionsFor, declaredRules, idOf, liveRules, rule } from './fixtures.js';
import { LifecycleModelServer, ModelServer } from './model-server.js';

describe('undo plan', () => {
  const live = liveRules([rule('a', { description: 'kept text' }), rule('b'), rule('c'), rule('u')]);
  const declared = declaredRules([
    rule('c'),
    rule('a renamed', { ruleId: idOf('a'), description: 'new text', conditions: conditionsFor('a') }),
    rule('b', { actions: ['allow'] }),
  ]);

  test('restores renamed, edited, moved and paused rules exactly, with the after-state fingerprint', () => {
    const { plan } = planApp({ app: 'default', declared, live, unmanaged: 'pause' });
    const undo = undoAppPlan(plan, live);
    const server = new ModelServer(live);
    for (const step of plan.steps) server.patch(step.ruleId, step.body);
    expect(undo.fingerprint).toBe(fingerprintRules(server.list()));
    for (const step of undo.steps) server.patch(step.ruleId, step.body);
    expect(server.list()).toEqual(live);
    const restoredA = undo.steps.find((s) => s.ruleId === idOf('a'));
    expect(restoredA?.body).toEqual(expect.objectContaining({ name: 'a', description: 'kept text' }));
    expect(undo.steps.find((s) => s.ruleId === idOf('u'))?.body).toEqual({ status: 'active' });
    expect(undo.blocked).toEqual([]);
    expect(undo.unmanaged).toEqual([]);
  });

  test('the undo of an empty plan is empty', () => {
    const { plan } = planApp({ app: 'default', declared: declaredRules([rule('a', { description: 'kept text' }), rule('b'), rule('c'), rule('u')]), live, unmanaged: 'keep' });
    expect(plan.steps).toEqual([]);
    expect(undoAppPlan(plan, live).steps).toEqual([]);
  });

  test('simulating a plan on rules it was not computed from is refused', () => {
    const { plan } = planApp({ app: 'default', declared, live, unmanaged: 'keep' });
    expect(() => simulateSteps(live.slice(1), plan.steps)).toThrow(`the plan updates rule "a renamed" (${idOf('a')}), which is not in the live rules`);
  });

  test('a deleted rule whose name another live rule now carries is created again (the name matches nothing in an undo)', () => {
    // "b" takes over the name "a" (pinned by its ruleId) while the old "a", no longer declared, is deleted.
    const before = liveRules([rule('a', { description: 'the old one' }), rule('b'), rule('c')]);
    const forward = planApp({
      app: 'default',
      declared: declaredRules([rule('a', { ruleId: idOf('b'), conditions: conditionsFor('b') }), rule('c')]),
      live: before,
      unmanaged: 'delete',
      service: { create: true, delete: true },
    });
    expect(forward.problems).toEqual([]);
    const server = new LifecycleModelServer(before);
    for (const step of forward.plan.steps) {
      if (step.kind === 'delete') server.delete(step.ruleId);
      else server.patch(step.ruleId, step.body);
    }
    const undo = restoringPlan('default', before, server.list(), { create: true, delete: true });
    expect(undo.steps.map((step) => [step.kind, step.name])).toEqual(expect.arrayContaining([['create', 'a'], ['update', 'b']]));
    for (const step of undo.steps) {
      if (step.kind === 'create') server.post(step.body);
      else server.patch(step.ruleId, step.body);
    }
    const withoutIds = server.list().map(({ ruleId: _id, ...rest }) => rest);
    expect(withoutIds).toEqual(before.map(({ ruleId: _id, ...rest }) => rest));
  });
});
