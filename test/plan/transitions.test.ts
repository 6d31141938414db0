// Orders of a plan's PATCH requests (src/diff/order/units.ts): every order of the planner's
// steps, an update-and-move whole or split in two, reaches the declared rules on a model server
// with list-move semantics, with one PATCH per unit; the planner's own order comes out
// unchanged; anything that is not an order of the steps is refused. And the Plan keeps a
// checked order, refuses one with windows without --force, and saves and reads it back.
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { UserError } from '../../src/errors.js';
import { parsePlan } from '../../src/plan/file-format.js';
import { Plan } from '../../src/plan/plan-value.js';
import { raiseIfUnsafe } from '../../src/render/plan/refusals.js';
import { planDocument } from '../../src/render/plan/plan-file.js';
import { planApp } from '../../src/plan/planner.js';
import { reorderSteps, splitUnits, unitsOf, type OrderUnit } from '../../src/diff/order/units.js';
import type { TransitionCheck } from '../../src/plan/types.js';
import type { AppPlan } from '../../src/plan/types.js';
import { ModelServer, sameRuleFields } from './model-server.js';
import { expectedOrder, matchedDeclared } from './oracle.js';
import { scenarios, type Scenario } from './scenarios.js';

function plan(s: Scenario): AppPlan {
  const result = planApp({ app: 'default', declared: s.declared, live: s.live, unmanaged: s.policy });
  expect(result.problems).toEqual([]);
  return result.plan;
}

function shuffled<T>(items: readonly T[], keys: readonly number[]): T[] {
  return items.map((item, index) => ({ item, key: keys[index % Math.max(1, keys.length)] ?? 0, index })).sort((a, b) => a.key - b.key || a.index - b.index).map(({ item }) => item);
}

describe('orders of a plan', () => {
  test('the planner\'s own order gives back exactly its steps', () => {
    fc.assert(
      fc.property(scenarios({ maxRules: 40 }), (s) => {
        const planned = plan(s);
        expect(reorderSteps(s.live, planned.steps, unitsOf(planned.steps))).toEqual(planned.steps);
      }),
      { numRuns: 150 },
    );
  });

  test('any order of the units, an update-and-move whole or split, reaches the declared rules with one PATCH each', () => {
    fc.assert(
      fc.property(scenarios({ maxRules: 25 }), fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 60 }), fc.nat(), (s, keys, splitAt) => {
        const planned = plan(s);
        const splittable = planned.steps.filter((step) => step.kind === 'update-and-move');
        const split = splittable[splitAt % Math.max(1, splittable.length)];
        const units: OrderUnit[] = split === undefined ? unitsOf(planned.steps) : splitUnits(planned.steps, split.ruleId);
        const steps = reorderSteps(s.live, planned.steps, shuffled(units, keys));
        expect(steps).toBeDefined();
        const server = new ModelServer(s.live);
        for (const step of steps ?? []) server.patch(step.ruleId, step.body);
        expect(server.patches).toBe(units.length);
        const after = server.list();
        const declared = matchedDeclared(s);
        expect(after.map((rule) => rule.ruleId)).toEqual(expectedOrder(s));
        for (const rule of after) {
          const wanted = declared.get(rule.ruleId);
          if (wanted !== undefined) expect(sameRuleFields(rule, wanted)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  test('a list that is not an order of the steps is refused', () => {
    const s = fc.sample(scenarios({ maxRules: 12, unmanaged: false }).filter((x) => plan(x).steps.length >= 2), { numRuns: 1, seed: 7 })[0] as Scenario;
    const steps = plan(s).steps;
    const units = unitsOf(steps);
    expect(reorderSteps(s.live, steps, units.slice(1))).toBeUndefined();
    expect(reorderSteps(s.live, steps, [...units, units[0] as OrderUnit])).toBeUndefined();
    expect(reorderSteps(s.live, steps, [...units.slice(1), { ruleId: 'id-nobody', part: 'whole' }])).toBeUndefined();
    const notSplittable = steps.find((step) => step.kind !== 'update-and-move') as AppPlan['steps'][number];
    const halves = units.flatMap((unit): OrderUnit[] => (unit.ruleId === notSplittable.ruleId ? [{ ruleId: unit.ruleId, part: 'fields' }, { ruleId: unit.ruleId, part: 'move' }] : [unit]));
    expect(reorderSteps(s.live, steps, halves)).toBeUndefined();
  });
});

const PYTHON = { requests: 'requests with user agent containing "python"', seenAfter: 1, witness: { userAgent: 'python' } };
const WINDOW: TransitionCheck = {
  order: 'planner',
  unchecked: [],
  windows: [{
    opensAfter: 1, closesAt: 2,
    classes: [{ ...PYTHON, before: { kind: 'rule', rule: 'b', actions: ['hardBlock'] }, during: { kind: 'rule', rule: 'a', actions: ['allow'] }, after: { kind: 'rule', rule: 'b', actions: ['hardBlock'] } }],
  }],
};

describe('a Plan with a checked order', () => {
  const live = [
    { ruleId: 'id-a', priority: 0, name: 'a', description: '', status: 'active' as const, actions: ['allow' as const], conditions: { operator: '$or' as const, children: [] } },
    { ruleId: 'id-b', priority: 1, name: 'b', description: '', status: 'active' as const, actions: ['hardBlock' as const], conditions: { operator: '$or' as const, children: [] } },
  ];
  const steps: AppPlan['steps'] = [
    { ruleId: 'id-b', name: 'b', kind: 'update', body: { description: 'x' }, changes: [{ field: 'description', before: '', after: 'x' }] },
    { ruleId: 'id-a', name: 'a', kind: 'move', body: { priority: 1 }, changes: [{ field: 'priority', before: 0, after: 1 }] },
  ];
  const app: AppPlan = { app: 'default', fingerprint: `sha256:${'0'.repeat(64)}`, liveRules: live.length, steps, blocked: [], unmanaged: [] };

  test('keeps the order the check chose, and puts an unchecked one in execution order', () => {
    expect(new Plan([{ ...app, transitions: { order: 'reordered', windows: [], unchecked: [] } }]).apps[0]?.steps.map((s) => s.ruleId)).toEqual(['id-b', 'id-a']);
    expect(new Plan([app]).apps[0]?.steps.map((s) => s.ruleId)).toEqual(['id-a', 'id-b']);
  });

  test('refuses an order with a window without --force, and saying why', () => {
    const risky = new Plan([{ ...app, transitions: WINDOW }]);
    expect(() => raiseIfUnsafe(risky, { force: false })).toThrow(UserError);
    expect(() => raiseIfUnsafe(risky, { force: false })).toThrow(
      'plan for app default opens a window in which requests that the live rules and the rule files both block or challenge get through between its PATCH requests; review it and use --force to apply anyway; nothing was sent',
    );
    expect(() => raiseIfUnsafe(risky, { force: true })).not.toThrow();
    expect(() => raiseIfUnsafe(new Plan([{ ...app, transitions: { ...WINDOW, windows: [] } }]), { force: false })).not.toThrow();
  });

  test('saves the check with the plan, and reads both back in the saved order', () => {
    const saved = JSON.parse(JSON.stringify(planDocument(new Plan([{ ...app, transitions: WINDOW }])))) as unknown;
    const read = parsePlan(saved, 'plan.json');
    // What decides in the window is read back as the file words it.
    const worded = (text: string) => ({ kind: 'saved', text });
    expect(read.apps[0]?.transitions).toEqual({
      ...WINDOW,
      windows: [{ opensAfter: 1, closesAt: 2, classes: [{ ...PYTHON, before: worded('"b" (hardBlock)'), during: worded('"a" (allow)'), after: worded('"b" (hardBlock)') }] }],
    });
    expect(read.apps[0]?.steps.map((s) => s.ruleId)).toEqual(['id-b', 'id-a']);
  });
});
