// Properties of the saved-plan check: a plan read back from its own JSON matches the plan
// re-planned from the same rules exactly, and any single edit of a step (a field of its
// body, its name, its changes) or a step removed is found, at that step.
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { firstDifferingPointer, firstStepDifference, sameJson } from '../../src/plan/compare.js';
import { Plan } from '../../src/plan/plan-value.js';
import { planDocument } from '../../src/render/plan/plan-file.js';
import { parsePlan } from '../../src/plan/file-format.js';
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
        const saved = parsePlan(JSON.parse(JSON.stringify(planDocument(new Plan([fresh()])))), 'plan.json').apps[0]!;
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

  test('names the JSON Pointer of the first difference inside a step', () => {
    const leaf = (value: string) => ({ conditionType: 'path', operator: '$eq', value });
    const body = (value: string) => ({ conditions: { operator: '$or', children: [{ operator: '$and', children: [leaf('/a'), leaf(value)] }] } });
    const step = (value: string): PlanStep => ({ ruleId: 'r1', name: 'R', kind: 'update', body: body(value) as PlanStep['body'], changes: [] });
    // Both values are longer than a message shows; the pointer still names the one field.
    const cut = '{"conditions":{"operator":"$or","children":[{"operator":"$and","children":[{"conditionType":"path","operator":"$eq","va…';
    expect(firstStepDifference([step('/b')], [step('/c')], '/apps/1/steps')).toBe(
      `step 1 (rule "r1"): its body in the file is ${cut}, re-planning gives ${cut}; they first differ at /apps/1/steps/0/body/conditions/children/0/children/1/value`,
    );
  });

  test('a pointer escapes keys as RFC 6901 asks and names a list item only one side has', () => {
    expect(firstDifferingPointer({ 'a/b~': 1 }, { 'a/b~': 2 }, '')).toBe('/a~1b~0');
    expect(firstDifferingPointer([1, 2], [1, 2, 3], '/x')).toBe('/x/2');
    expect(firstDifferingPointer({ a: 1 }, { a: 1, b: 2 }, '')).toBe('/b');
  });
});

describe('sameJson', () => {
  test('compares as JSON text does: keys in any order, an undefined property absent, an undefined list item null', () => {
    expect(sameJson({ a: 1, b: [1, { c: 2, d: 3 }] }, { b: [1, { d: 3, c: 2 }], a: 1 })).toBe(true);
    expect(sameJson({ name: 'A', description: undefined }, { name: 'A' })).toBe(true);
    expect(sameJson([undefined], [null])).toBe(true);
    expect(sameJson({ a: null }, {})).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson(undefined, undefined)).toBe(true);
    expect(sameJson(undefined, null)).toBe(false);
  });
});
