// The check of an order walks one list PATCH by PATCH and copies only the states it searches
// (src/diff/order/states.ts, StateWalk), and computes each move's priority without a copy of
// the list per PATCH (units.ts). Neither may change an answer: for random small plans and a
// random order of their PATCH requests, the check of that order is the check built the way it
// was before — every state of the order built by statesAlong, all searched in one region search —
// windows, classes, witnesses and unchecked parts alike. The runs that reach a window are
// counted, so the property cannot pass by finding nothing on either side.
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { checkOrder } from '../../src/diff/order/search.js';
import { finalState, statesAlong } from '../../src/diff/order/states.js';
import { sendInOrder, unitsOf, type OrderUnit } from '../../src/diff/order/units.js';
import { checkStates, windowsOf } from '../../src/diff/order/windows.js';
import { planApp } from '../../src/plan/planner.js';
import type { PlanStep, TransitionCheck, UncheckedPart } from '../../src/plan/types.js';
import type { LiveRule } from '../../src/semantics/model.js';
import { simulateSteps } from '../../src/semantics/list-move.js';
import { smallPlans } from './transition-support.js';

/** The check of `units` as one region search over every state statesAlong builds for it. */
function checkOfEveryState(live: readonly LiveRule[], steps: readonly PlanStep[], units: readonly OrderUnit[]): Pick<TransitionCheck, 'windows' | 'unchecked'> {
  const states = [...statesAlong(live, sendInOrder(live, steps, units))].slice(0, units.length);
  const checked = checkStates([...states, finalState(live, steps)]);
  const unchecked = new Map<string, UncheckedPart>();
  for (const state of checked.states.values()) for (const part of state.unchecked) unchecked.set(JSON.stringify(part), part);
  return { windows: windowsOf(new Map([...checked.states].map(([sent, state]) => [sent, state.open]))), unchecked: [...unchecked.values()] };
}

const plansInSomeOrder = smallPlans(6).chain((plan) => fc.record({ plan: fc.constant(plan), keys: fc.array(fc.integer({ min: 0, max: 10 }), { minLength: 6, maxLength: 6 }) }));

describe('the check of an order, walked in place', () => {
  test('is the check of one search over every state built one PATCH after another', () => {
    let windowsFound = 0;
    let checked = 0;
    fc.assert(
      fc.property(plansInSomeOrder, ({ plan: { live, declared }, keys }) => {
        const { plan } = planApp({ app: 'default', declared, live, unmanaged: 'keep' });
        if (plan.steps.length < 2) return;
        const planner = unitsOf(plan.steps);
        const units = planner.map((unit, index) => ({ unit, key: keys[index] as number, index })).sort((a, b) => a.key - b.key || a.index - b.index).map(({ unit }) => unit);
        const found = checkOrder(live, plan.steps, units);
        expect(found).toBeDefined();
        // The priorities computed for the order still reach the declared list.
        expect(simulateSteps(live, found?.steps ?? [])).toEqual(simulateSteps(live, plan.steps));
        const expected = checkOfEveryState(live, plan.steps, units);
        expect({ windows: found?.check.windows, unchecked: found?.check.unchecked }).toEqual(expected);
        checked += 1;
        if (expected.windows.length > 0) windowsFound += 1;
      }),
      { numRuns: 300 },
    );
    expect(checked).toBeGreaterThan(200);
    expect(windowsFound).toBeGreaterThan(10);
  });
});
