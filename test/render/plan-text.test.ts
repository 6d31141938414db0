import { describe, expect, test } from '@jest/globals';
import { Plan } from '../../src/plan/plan.js';
import { loadPlanRenderer, PLAN_FORMATS } from '../../src/render/plan/index.js';
import { planApp } from '../../src/plan/planner.js';
import { undoAppPlan } from '../../src/plan/undo.js';
import { declaredRules, liveRules, rule } from '../plan/fixtures.js';
import { emptyPlan, movePlan, render, samplePlan } from './plan-fixtures.js';

const text = await loadPlanRenderer('text');
const ESC = '\u001b[';

describe('text plan renderer', () => {
  test('summary line, one entry per PATCH with its diff, blocked with the instruction, unmanaged kept', () => {
    const out = render(text, samplePlan());
    const lines = out.split('\n');
    expect(lines[0]).toBe('Plan: 2 to update, 0 to move, 1 blocked, 2 unmanaged kept');
    expect(out).toContain('~ "b" (id-b): updates description; moves from position 2 to 1\n');
    expect(out).toContain('    -description: ""\n    +description: new\n');
    expect(out).toContain('~ "c" (id-c): updates status\n');
    expect(out).toContain('    -status: active\n    +status: paused\n');
    expect(out).toContain('! 1 blocked rule (not live, cannot be created by the API):\n    "missing" (rules/10-main.yaml:32:5)\n');
    expect(out).toContain(
      '! 1 declared rule does not exist live, and the API cannot create rules: the plan cannot be applied.\n' +
        '  Create each in the console under the name shown, or run `botrules import` to write the live rules as files.\n',
    );
    expect(out).toContain('2 unmanaged live rules kept in place, declared in no rule file:\n    "u" (id-u)\n    "p" (id-p)\n');
    expect(out).toContain('Positions are console positions');
    // The summary again last, where a long plan ends.
    expect(lines.at(-2)).toBe(lines[0]);
    expect(out).not.toContain(ESC);
  });

  test('policy pause counts and shows the pauses', () => {
    const out = render(text, samplePlan('pause'));
    expect(out.split('\n')[0]).toBe('Plan: 2 to update, 0 to move, 1 unmanaged to pause, 1 blocked, 1 unmanaged kept');
    expect(out).toContain('~ "u" (id-u): pauses it (no rule file declares it)');
  });

  test('pure moves count as moves and print console positions', () => {
    const out = render(text, movePlan());
    expect(out.split('\n')[0]).toBe('Plan: 0 to update, 1 to move, 0 blocked, 0 unmanaged kept');
    expect(out).toContain('~ "e" (id-e): moves from position 5 to 1\n');
  });

  test('colour only when the colour helpers are on', () => {
    const coloured = render(text, samplePlan(), true);
    expect(coloured).toContain(`${ESC}31m-description: ""`);
    expect(coloured).toContain(`${ESC}32m+description: new`);
    // Without its colour codes the output is exactly the uncoloured one.
    // eslint-disable-next-line no-control-regex
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(render(text, samplePlan()));
  });

  test('no changes', () => {
    expect(render(text, emptyPlan())).toBe('No changes. Live rules match the rule files.\n1 unmanaged live rule is kept as it is.\n');
    expect(render(text, new Plan([]))).toBe('No changes. Live rules match the rule files.\n');
  });

  test('a saved plan renders exactly like the fresh plan it was saved from', () => {
    for (const fresh of [samplePlan(), samplePlan('pause'), movePlan()]) {
      expect(render(text, Plan.parse(JSON.stringify(fresh), 'plan.json'))).toBe(render(text, fresh));
    }
  });

  test('an undo plan shows before and after values, and each move its own final position', () => {
    const live = liveRules(['a', 'b', 'c', 'd', 'e'].map((n) => rule(n, { description: `${n} as it was` })));
    const declared = declaredRules(['e', 'd', 'a', 'b', 'c'].map((n) => rule(n, { description: n === 'a' ? 'changed' : `${n} as it was` })));
    const forward = planApp({ app: 'default', declared, live, unmanaged: 'keep' }).plan;
    const undo = new Plan([undoAppPlan(forward, live)]);
    const out = render(text, undo);
    expect(out).toContain('    -description: changed\n    +description: a as it was\n');
    const targets = [...out.matchAll(/moves from position \d+ to (\d+)/g)].map((m) => m[1]);
    expect(targets.length).toBeGreaterThan(1);
    expect(new Set(targets).size).toBe(targets.length);
    expect(render(text, Plan.parse(JSON.stringify(undo), 'undo.json'))).toBe(out);
  });

  test('a rule that must move yet ends where it started says so, and survives a save', () => {
    // 0 and 4 are unmanaged and stay; 1, 2, 3 reverse between them, so 2 moves and ends at position 3 again.
    const live = liveRules(['0', '1', '2', '3', '4'].map((n) => rule(n)));
    const declared = declaredRules(['3', '2', '1'].map((n) => rule(n)));
    const plan = new Plan([planApp({ app: 'default', declared, live, unmanaged: 'keep' }).plan]);
    const out = render(text, plan);
    expect(out).toContain('~ "2" (id-2): moves, to end at position 3 again (the rules around it move)\n');
    expect(render(text, Plan.parse(JSON.stringify(plan), 'plan.json'))).toBe(out);
  });

  test('a long list of unmanaged rules is one per line, with a count and a bound', () => {
    const live = liveRules(Array.from({ length: 60 }, (_, i) => rule(`unmanaged ${i}`)));
    const plan = new Plan([planApp({ app: 'default', declared: declaredRules([rule('unmanaged 0', { description: 'x' })]), live, unmanaged: 'keep' }).plan]);
    const out = render(text, plan);
    expect(out).toContain('59 unmanaged live rules kept in place, declared in no rule file:\n    "unmanaged 1" (id-unmanaged 1)\n');
    expect(out).toContain('    "unmanaged 50" (id-unmanaged 50)\n    … and 9 more (plan --format json lists them all)\n');
    expect(Math.max(...out.split('\n').map((line) => line.length))).toBeLessThan(120);
  });

  test('several apps are shown under their names', () => {
    const [first] = samplePlan().apps;
    const plan = new Plan([first!, { ...first!, app: 'shop' }]);
    const out = render(text, plan);
    expect(out.split('\n')[0]).toBe('Plan: 4 to update, 0 to move, 2 blocked, 4 unmanaged kept');
    expect(out).toContain('App default\n');
    expect(out).toContain('App shop\n');
  });

  test('the registry knows every format and refuses others', async () => {
    expect(PLAN_FORMATS).toEqual(['text', 'json', 'markdown']);
    for (const format of PLAN_FORMATS) expect(typeof (await loadPlanRenderer(format))).toBe('function');
    await expect(loadPlanRenderer('yaml')).rejects.toThrow('unknown plan format "yaml": use one of text, json, markdown');
  });
});
