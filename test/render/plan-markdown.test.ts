import { describe, expect, test } from '@jest/globals';
import { Plan } from '../../src/plan/plan.js';
import { planApp } from '../../src/plan/planner.js';
import { loadPlanRenderer } from '../../src/render/plan/index.js';
import { MARKDOWN_LIMIT } from '../../src/render/plan/markdown.js';
import type { Rule } from '../../src/rules/model.js';
import { declaredRules, liveRules, rule } from '../plan/fixtures.js';
import { emptyPlan, render, samplePlan } from './plan-fixtures.js';

const markdown = await loadPlanRenderer('markdown');

/** n rules whose descriptions all change, each with a long leaf value so every diff is big. */
function hugePlan(n: number): Plan {
  const long = (i: number, v: string): Rule =>
    rule(`rule ${i}`, { description: v, conditions: { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$re', value: Array.from({ length: 8 }, (_, k) => `^/${v}/${i}/${k}/[a-z]+$`) }] }] } });
  const live = liveRules(Array.from({ length: n }, (_, i) => long(i, 'old')));
  const declared = declaredRules([...Array.from({ length: n }, (_, i) => long(i, 'new')), rule('not live <b>')]);
  return new Plan([planApp({ app: 'default', declared, live, unmanaged: 'keep' }).plan]);
}

describe('markdown plan renderer', () => {
  test('summary table, blocked rules as a warning, each diff in a collapsible block', () => {
    const out = render(markdown, samplePlan('pause'));
    expect(out).toContain('**Plan: 2 to update, 0 to move, 1 unmanaged to pause, 1 blocked, 1 unmanaged kept**');
    expect(out).toContain('| app | to update | to move | to pause | blocked | unmanaged kept | PATCH requests |\n| --- |');
    expect(out).toContain('| default | 2 | 0 | 1 | 1 | 1 | 3 |\n\n');
    expect(out).toContain(
      '> [!WARNING]\n> 1 declared rule does not exist live, and the API cannot create rules: the plan cannot be applied. ' +
        'Create each in the console under the name shown, or run `botrules import` to write the live rules as files.\n>\n',
    );
    expect(out).toContain('> - **missing** (rules/10-main.yaml:32:5)\n');
    expect(out).toContain(
      '<details><summary><b>b</b> <code>id-b</code>: updates description; moves from position 2 to 1</summary>\n\n```diff\n',
    );
    expect(out).toContain('-description: ""\n+description: new\n');
    expect(out.match(/<details>/g)).toHaveLength(3);
    expect(out.match(/<\/details>/g)).toHaveLength(3);
    // The summary again last, where a long plan ends.
    expect(out.endsWith('\n**Plan: 2 to update, 0 to move, 1 unmanaged to pause, 1 blocked, 1 unmanaged kept**\n')).toBe(true);
  });

  test('a saved plan and an undo plan render exactly like the fresh plan', () => {
    const fresh = samplePlan('pause');
    expect(render(markdown, Plan.parse(JSON.stringify(fresh), 'plan.json'))).toBe(render(markdown, fresh));
  });

  test('no changes', () => {
    expect(render(markdown, emptyPlan())).toBe('### botrules plan\n\nNo changes. Live rules match the rule files.\n');
  });

  test('user text cannot break out of the markup', () => {
    const out = render(markdown, hugePlan(1));
    expect(out).toContain('**not live &lt;b&gt;**');
    expect(out).not.toContain('not live <b>');
  });

  test('a huge plan is truncated below the comment limit with a note saying what is left out', () => {
    const plan = hugePlan(400);
    const out = render(markdown, plan);
    expect(out.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    expect(out.length).toBeGreaterThan(MARKDOWN_LIMIT - 3000);
    const shown = out.match(/<details>/g)?.length ?? 0;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(400);
    expect(out).toContain(`> [!NOTE]\n> This plan is truncated: ${400 - shown} of 400 rule changes are not shown`);
    expect(out.match(/<details>/g)?.length).toBe(out.match(/<\/details>/g)?.length);
    expect(out).toContain('| default | 400 | 0 | 0 | 1 | 0 | 400 |');
  });

  test('a plan that fits is not truncated', () => {
    const out = render(markdown, hugePlan(20));
    expect(out).not.toContain('[!NOTE]');
    expect(out.match(/<details>/g)).toHaveLength(20);
  });
});
