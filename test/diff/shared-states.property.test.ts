// The behaviour diff and the transition check search lists that share the rule objects no PATCH
// changed (states.ts: statesAlong, finalState), which the search numbers once per object. That
// must not change a single answer: over random small plans, both give exactly what they give on
// lists of fresh copies of every rule (simulateSteps), witnesses and unchecked parts included.
// The runs that reach a non-empty answer are counted, so the property cannot pass by finding
// nothing on either side.
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { behaviourDiff } from '../../src/diff/diff.js';
import { finalState, statesAlong } from '../../src/diff/order/states.js';
import { checkStates } from '../../src/diff/order/windows.js';
import { planApp } from '../../src/plan/planner.js';
import { inPriorityOrder, simulateSteps } from '../../src/semantics/list-move.js';
import { smallPlans } from './transition-support.js';

describe('searches over shared states against searches over copies', () => {
  test('the behaviour diff and every state of the transition check are the same', () => {
    let diffsFound = 0;
    let windowsFound = 0;
    fc.assert(
      fc.property(smallPlans(6), ({ live, declared }) => {
        const { plan } = planApp({ app: 'default', declared, live, unmanaged: 'keep' });
        const shared = finalState(live, plan.steps);
        expect(shared.map((rule) => rule.ruleId)).toEqual(simulateSteps(live, plan.steps).map((rule) => rule.ruleId));
        const diff = behaviourDiff(inPriorityOrder(live), shared);
        expect(diff).toEqual(behaviourDiff(simulateSteps(live, []), simulateSteps(live, plan.steps)));
        if (diff.changes.length > 0) diffsFound += 1;

        const states = [...statesAlong(live, plan.steps)];
        const copies = plan.steps.map((_, sent) => simulateSteps(live, plan.steps.slice(0, sent)));
        const checked = checkStates([...states.slice(0, -1), shared]);
        expect(checked).toEqual(checkStates([...copies, simulateSteps(live, plan.steps)]));
        if ([...checked.states.values()].some((state) => state.open.length > 0)) windowsFound += 1;
      }),
      { numRuns: 300 },
    );
    // Measured with these settings: 284 runs of 300 with a diff, 40 with a window.
    expect(diffsFound).toBeGreaterThan(200);
    expect(windowsFound).toBeGreaterThan(10);
  });
});
