import { describe, expect, test } from '@jest/globals';
import { Plan } from '../../src/plan/plan.js';
import { loadPlanRenderer, PLAN_FORMATS } from '../../src/render/plan/index.js';
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
    expect(out).toMatch(/! "missing" \(rules\/10-main\.yaml:32:5\) is blocked: .*create it in the console under that name, or run `botrules import`/);
    expect(out).toContain('2 unmanaged live rules kept in place, declared in no rule file: "u" (id-u), "p" (id-p)');
    expect(out).toContain('Positions are console positions');
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

  test('a plan loaded from JSON (no display) shows the body fields and the API priority', () => {
    const loaded = Plan.parse(JSON.stringify(samplePlan()), 'plan.json');
    const out = render(text, loaded);
    expect(out).toContain('~ "b" (id-b): updates description; moves to position 1 at its turn (API priority 0)\n    +description: new\n');
    expect(out).toContain('~ "c" (id-c): updates status\n    +status: paused\n');
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
