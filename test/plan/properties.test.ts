// Properties of the planner against a model server with list-move semantics: the plan
// reaches exactly the declared state, re-planning is then empty, it uses the fewest
// requests, and the undo plan restores the original state exactly.
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { planApp } from '../../src/plan/planner.js';
import { undoAppPlan } from '../../src/plan/undo.js';
import { fieldChanges, positionChange, type AppPlan } from '../../src/plan/types.js';
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

  test('each step carries its changes: live value before, body value after, kind from the changes', () => {
    fc.assert(
      fc.property(scenarios({ maxRules: 120 }), (s) => {
        const planned = plan(s);
        const live = new Map(s.live.map((r, index) => [r.ruleId, { ...r, index }]));
        const finalOrder = expectedOrder(s);
        for (const step of planned.steps) {
          const before = live.get(step.ruleId)!;
          const fields = fieldChanges(step);
          const position = positionChange(step);
          // The body sends exactly the after values (and priority for a move).
          const { priority, ...sent } = step.body;
          expect(sent).toEqual(Object.fromEntries(fields.map((c) => [c.field, c.after])));
          expect(priority !== undefined).toBe(position !== undefined);
          // Each before value is the live value; applying the changes to the live rule gives the rule the body makes.
          for (const change of fields) expect(change.before).toEqual(before[change.field]);
          const changed = { ...before, ...Object.fromEntries(fields.map((c) => [c.field, c.after])) };
          expect(changed).toEqual({ ...before, ...sent });
          // A move goes from the live position to the final one.
          if (position !== undefined) expect([position.before, position.after]).toEqual([before.index, finalOrder.indexOf(step.ruleId)]);
          const kind = position === undefined ? (s.unmanaged.has(step.ruleId) ? 'pause-unmanaged' : 'update') : fields.length === 0 ? 'move' : 'update-and-move';
          expect(step.kind).toBe(kind);
        }
        // No two moves end at the same position.
        const targets = planned.steps.map(positionChange).filter((p) => p !== undefined).map((p) => p.after);
        expect(new Set(targets).size).toBe(targets.length);
      }),
      { numRuns: 100 },
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
        // The undo plan's changes go from the state after the forward plan back to the live rules.
        const after = new Map(server.list().map((r) => [r.ruleId, r]));
        const original = new Map(s.live.map((r) => [r.ruleId, r]));
        for (const step of undo.steps) {
          for (const change of fieldChanges(step)) {
            expect(change.before).toEqual(after.get(step.ruleId)![change.field]);
            expect(change.after).toEqual(original.get(step.ruleId)![change.field]);
          }
          const position = positionChange(step);
          if (position !== undefined) expect([position.before, position.after]).toEqual([after.get(step.ruleId)!.priority, original.get(step.ruleId)!.priority]);
        }
        run(server, undo);
        expect(server.list()).toEqual(s.live);
      }),
      { numRuns: 80 },
    );
  });
});
