// The verification after an apply (src/apply/verify.ts), on its own: the plan's result verifies;
// any field difference, on any rule, is drift and never a correction; an order a swapping server
// leaves within the plan's moves is corrected by moves only; an order changed outside them is drift.
import fc from 'fast-check';
import { moveWindow, verifyApplied } from '../../src/apply/verify.js';
import { planApp } from '../../src/plan/planner.js';
import { simulateSteps } from '../../src/semantics/list-move.js';
import type { LiveRule } from '../../src/semantics/model.js';
import { declaredRules, liveRules, rule } from '../plan/fixtures.js';

const NAMES = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];

/** Live rules A…G, and declared rules: a permutation of them, some with a new description. */
const scenario = fc.record({
  order: fc.shuffledSubarray(NAMES, { minLength: NAMES.length, maxLength: NAMES.length }),
  described: fc.subarray(NAMES),
});

function planned(order: readonly string[], described: readonly string[]) {
  const live = liveRules(NAMES.map((name) => rule(name)));
  const declared = declaredRules(order.map((name) => rule(name, described.includes(name) ? { description: `new ${name}` } : {})));
  const { plan } = planApp({ app: 'default', declared, live, unmanaged: 'keep' });
  return { live, steps: plan.steps, expected: simulateSteps(live, plan.steps) };
}

const swap = (rules: readonly LiveRule[], i: number, j: number): LiveRule[] => {
  const list = [...rules];
  [list[i], list[j]] = [list[j] as LiveRule, list[i] as LiveRule];
  return list.map((r, priority) => ({ ...r, priority }));
};

describe('verifyApplied', () => {
  it('finds nothing when the live rules are the plan result', () => {
    fc.assert(
      fc.property(scenario, ({ order, described }) => {
        const { live, steps, expected } = planned(order, described);
        expect(verifyApplied(expected, expected, moveWindow(live, steps))).toEqual({ corrections: [], misplaced: [], drift: [] });
      }),
    );
  });

  it('reports any field changed by someone else as drift, by name and field, and corrects nothing', () => {
    fc.assert(
      fc.property(scenario, fc.nat(NAMES.length - 1), ({ order, described }, victim) => {
        const { live, steps, expected } = planned(order, described);
        const edited = expected.map((r, i) => (i === victim ? { ...r, status: 'paused' as const } : r));
        const verification = verifyApplied(expected, edited, moveWindow(live, steps));
        const target = expected[victim] as LiveRule;
        expect(verification.corrections).toEqual([]);
        expect(verification.drift).toEqual([`"${target.name}" (${target.ruleId}): status differs from the plan's result`]);
      }),
    );
  });

  it('corrects, by moves only, an order a swapping server left within the moved positions', () => {
    const { live, steps, expected } = planned(['C', 'A', 'B', 'D', 'E', 'F', 'G'], []);
    const swapped = swap(expected, 1, 2);
    const verification = verifyApplied(expected, swapped, moveWindow(live, steps));
    expect(verification.drift).toEqual([]);
    expect(verification.misplaced).toEqual(['"A" is at position 3, expected 2', '"B" is at position 2, expected 3']);
    expect(verification.corrections.map((s) => s.kind)).toEqual(['move']);
    expect(simulateSteps(swapped, verification.corrections).map((r) => r.name)).toEqual(expected.map((r) => r.name));
  });

  it('calls an order changed outside the moved positions drift', () => {
    const { live, steps, expected } = planned(['B', 'A', 'C', 'D', 'E', 'F', 'G'], []);
    const verification = verifyApplied(expected, swap(expected, 5, 6), moveWindow(live, steps));
    expect(verification.corrections).toEqual([]);
    expect(verification.drift).toEqual(['"F" is at position 7, expected 6', '"G" is at position 6, expected 7']);
  });

  it('calls any order difference drift when the plan moved nothing', () => {
    const { live, steps, expected } = planned(NAMES, ['A']);
    expect(moveWindow(live, steps)).toBeUndefined();
    expect(verifyApplied(expected, swap(expected, 0, 1), undefined).drift).toHaveLength(2);
  });
});
