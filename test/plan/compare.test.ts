// Properties of the saved-plan check: a plan read back from its own JSON matches the plan
// re-planned from the same rules exactly, and any single edit of a step (a field of its
// body, its name, its changes) or a step removed is found, at that step.
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { firstStepDifference } from '../../src/plan/compare.js';
import { Plan } from '../../src/plan/plan.js';
import { parsePlan } from '../../src/plan/plan-json.js';
import { planApp } from '../../src/plan/planner.js';
import type { PlanStep } from '../../src/plan/types.js';
import { scenarios } from './scenarios.js';

type Edit = (step: PlanStep) => void;

const EDITS: [string, Edit][] = [
  ['name', (step) => (step.name = `${step.name} (edited)`)],
  ['body', (step) => (step.body = { ...step.body, description: 'edited' })],
  ['changes', (step) => (step.changes[0]!.before = 'edited' as never)],
  ['ruleId', (step) => (step.ruleId = 'edited-id')],
];

describe('saved plan check', () => {
  test('a plan read back from its JSON matches a fresh re-plan; any edit is found at its step', () => {
    fc.assert(
      fc.property(scenarios({ maxRules: 60 }), fc.nat(), fc.nat(EDITS.length - 1), (s, pick, editIndex) => {
        const fresh = () => planApp({ app: 'default', declared: s.declared, live: s.live, unmanaged: s.policy }).plan;
        const saved = parsePlan(JSON.parse(JSON.stringify(new Plan([fresh()]))), 'plan.json').apps[0]!;
        expect(firstStepDifference(saved.steps, fresh().steps)).toBeUndefined();
        if (saved.steps.length === 0) return;
        const index = pick % saved.steps.length;
        const [part, edit] = EDITS[editIndex]!;
        edit(saved.steps[index]!);
        expect(firstStepDifference(saved.steps, fresh().steps)).toMatch(new RegExp(`^step ${index + 1} \\(rule "[^"]+"\\): its ${part} in the file`));
        saved.steps.splice(index, 1);
        expect(firstStepDifference(saved.steps, fresh().steps)).toBeDefined();
      }),
      { numRuns: 100 },
    );
  });

  test('a step added at the end is named', () => {
    const extra: PlanStep = { ruleId: 'x', name: 'x', kind: 'move', body: { priority: 0 }, changes: [{ field: 'priority', before: 1, after: 0 }] };
    expect(firstStepDifference([extra], [])).toBe('step 1 (move of rule "x") is not in the steps re-planning gives');
    expect(firstStepDifference([], [extra])).toBe('step 1 is missing from the file: re-planning gives move of rule "x"');
  });
});
