// Properties of the planner against a model server with list-move semantics: the plan
// reaches exactly the declared state, re-planning is then empty, it uses the fewest
// requests, and the undo plan restores the original state exactly.
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { planApp } from '../../src/plan/planner.js';
import { undoAppPlan } from '../../src/plan/undo.js';
import type { AppPlan } from '../../src/plan/types.js';
import { ModelServer, sameRuleFields } from './model-server.js';
import { bruteForceLowerBound, dpLowerBound, expectedOrder, matchedDeclared } from './oracle.js';
import { scenarios, type Scenario } from './scenarios.js';

function plan(s: Scenario, live = s.live): AppPlan {
  const result = planApp({ app: 'default', declared: s.declared, live, unmanaged: s.policy });
  expect(result.problems).toEqual([]);
  return result.plan;
}

function run(server: ModelServer, appPlan: AppPlan): void {
  for (const step of appPlan.steps) server.patch(step.ruleId, step.body);
}

describe('planner properties (model server, list-move)', () => {
  test('planning the live rules against themselves is empty, whatever the cosmetic differences', () => {
    fc.assert(
      fc.property(scenarios({ maxRules: 60, edits: false, unmanaged: false }), (s) => {
        const liveIndex = new Map(s.live.map((r, i) => [r.name, i]));
        const byLive = (name: string): number => liveIndex.get(name) as number;
        const inLiveOrder = { ...s, declared: [...s.declared].sort((a, b) => byLive(a.name) - byLive(b.name)) };
        expect(plan(inLiveOrder).steps).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  test('applying the plan yields the declared order and fields, and re-planning is empty', () => {
    fc.assert(
      fc.property(scenarios({ maxRules: 200 }), (s) => {
        const server = new ModelServer(s.live);
        const planned = plan(s);
        for (const step of planned.steps.filter((st) => s.unmanaged.has(st.ruleId))) {
          expect([s.policy, step.body]).toEqual(['pause', { status: 'paused' }]);
        }
        run(server, planned);
        const after = server.list();
        expect(after.map((r) => r.ruleId)).toEqual(expectedOrder(s));
        const matched = matchedDeclared(s);
        const before = new Map(s.live.map((r) => [r.ruleId, r]));
        const wrong = after.filter((rule) => {
          const declared = matched.get(rule.ruleId);
          if (declared !== undefined) return !sameRuleFields(rule, declared);
          const was = before.get(rule.ruleId)!;
          const status = s.policy === 'pause' ? 'paused' : was.status;
          return JSON.stringify({ ...rule, priority: 0 }) !== JSON.stringify({ ...was, status, priority: 0 });
        });
        expect(wrong).toEqual([]);
        expect(plan(s, after).steps).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  test('the PATCH count equals the brute-force lower bound (n ≤ 6)', () => {
    fc.assert(
      fc.property(scenarios({ maxRules: 6 }), (s) => {
        expect(plan(s).steps).toHaveLength(bruteForceLowerBound(s));
      }),
      { numRuns: 150 },
    );
  });

  test('the PATCH count equals n minus the most unchanged rules that can stay in place (n ≤ 200)', () => {
    fc.assert(
      fc.property(scenarios({ maxRules: 200 }), (s) => {
        expect(plan(s).steps).toHaveLength(dpLowerBound(s));
      }),
      { numRuns: 150 },
    );
  });

  test('applying a plan and then its undo plan restores the live rules exactly', () => {
    fc.assert(
      fc.property(scenarios({ maxRules: 120 }), (s) => {
        const forward = plan(s);
        const undo = undoAppPlan(forward, s.live);
        const server = new ModelServer(s.live);
        run(server, forward);
        run(server, undo);
        expect(server.list()).toEqual(s.live);
      }),
      { numRuns: 80 },
    );
  });
});
