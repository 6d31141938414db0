// A saved plan with create and delete steps, applied once, is refused the second time as
// "already applied" (docs/behaviour.md, "Saved plans"), whatever the mix of steps: the created
// rules carry ids the service made up and the deleted ones are gone, yet the live rules are
// recognised as exactly the plan's result. Changed after the apply, they no longer are.
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { planApp } from '../../src/plan/planner.js';
import { staleness } from '../../src/apply/stale.js';
import type { AppPlan } from '../../src/plan/types.js';
import type { LiveRule, UnmanagedPolicy } from '../../src/semantics/model.js';
import { LifecycleModelServer } from '../plan/model-server.js';
import { scenarios, type Scenario } from '../plan/scenarios.js';

const withPolicy = fc.tuple(scenarios({ maxRules: 40 }), fc.constantFrom<UnmanagedPolicy>('keep', 'pause', 'delete'));

function planned(s: Scenario, unmanaged: UnmanagedPolicy): AppPlan {
  const result = planApp({ app: 'default', declared: s.declared, live: s.live, unmanaged, service: { create: true, delete: true } });
  expect(result.problems).toEqual([]);
  return result.plan;
}

function applied(s: Scenario, plan: AppPlan): LiveRule[] {
  const server = new LifecycleModelServer(s.live);
  for (const step of plan.steps) {
    if (step.kind === 'create') server.post(step.body);
    else if (step.kind === 'delete') server.delete(step.ruleId);
    else server.patch(step.ruleId, step.body);
  }
  return server.list();
}

describe('staleness of a saved plan with creates and deletes', () => {
  test('the live rules a plan left are recognised as its result: "already applied"', () => {
    fc.assert(
      fc.property(withPolicy, ([s, unmanaged]) => {
        const plan = planned(s, unmanaged);
        fc.pre(plan.steps.length > 0);
        expect(staleness(plan, applied(s, plan))).toMatch(/^this plan was already applied: /);
      }),
      { numRuns: 150 },
    );
  });

  test('one rule changed after the apply: the refusal names changes, never "already applied"', () => {
    fc.assert(
      fc.property(withPolicy, fc.nat(), ([s, unmanaged], pick) => {
        const plan = planned(s, unmanaged);
        const after = applied(s, plan);
        fc.pre(plan.steps.length > 0 && after.length > 0);
        const index = pick % after.length;
        const edited = after.map((rule, i) => (i === index ? { ...rule, name: `${rule.name} (edited in the console)` } : rule));
        const message = staleness(plan, edited);
        expect(message).toBeDefined();
        expect(message).not.toMatch(/already applied/);
      }),
      { numRuns: 150 },
    );
  });
});
