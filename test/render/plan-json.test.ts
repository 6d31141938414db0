import { describe, expect, test } from '@jest/globals';
import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { Plan } from '../../src/plan/plan-value.js';
import { renderJson as json } from '../../src/render/plan/json.js';
import { planDocument } from '../../src/render/plan/plan-file.js';
import { emptyPlan, movePlan, render, samplePlan } from './plan-fixtures.js';

const schema = JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);

describe('json plan renderer', () => {
  test.each([
    ['a plan with updates, moves, blocked and unmanaged rules', samplePlan('pause')],
    ['a plan of moves', movePlan()],
    ['an empty plan', emptyPlan()],
    ['a plan of no apps', new Plan([])],
  ])('%s is valid against schemas/plan.schema.json', (_what, plan) => {
    const value = JSON.parse(render(json, plan)) as unknown;
    expect(validate(value) ? [] : validate.errors).toEqual([]);
  });

  test('it is exactly the plan object, indented, ending with a newline', () => {
    const plan = samplePlan();
    const out = render(json, plan);
    expect(out).toBe(`${JSON.stringify(planDocument(plan), null, 2)}\n`);
    const value = JSON.parse(out) as { apps: { steps: unknown[] }[]; summary: unknown };
    expect(value.summary).toEqual({
      patches: 2, blocked: 1, unmanaged: 2, updates: 2, moves: 1, updatesAndMoves: 1, pauses: 0, positionChanges: 2, removed: 0, removedActive: 0,
    });
    expect(value.apps[0]?.steps[0]).toEqual({
      ruleId: 'id-b',
      name: 'b',
      kind: 'update-and-move',
      body: { description: 'new', priority: 0 },
      changes: [
        { field: 'description', before: '', after: 'new' },
        { field: 'priority', before: 1, after: 0 },
      ],
    });
  });

  test('the schema refuses a body carrying ruleId', () => {
    const value = JSON.parse(render(json, samplePlan())) as { apps: { steps: { body: Record<string, unknown> }[] }[] };
    value.apps[0]!.steps[0]!.body.ruleId = 'id-b';
    expect(validate(value)).toBe(false);
  });
});
