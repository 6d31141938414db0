import { describe, expect, test } from '@jest/globals';
import { Plan } from '../../src/plan/plan-value.js';
import { planApp } from '../../src/plan/planner.js';
import { reviewOf } from '../../src/render/plan/review.js';
import { MARKDOWN_LIMIT, renderMarkdown as markdown } from '../../src/render/plan/markdown.js';
import type { Rule } from '../../src/semantics/model.js';
import { declaredRules, liveRules, rule } from '../plan/fixtures.js';
import { planRisks } from '../../src/plan/risks.js';
import { emptyPlan, render, riskyPlan, samplePlan, savedAgain, SHALLOW_NOTE } from './plan-fixtures.js';
import { reviewPlan } from './plan-markdown-fixtures.js';
import { renderGfm } from '../helpers/cmark.js';


/** n rules whose descriptions all change, each with a long leaf value so every diff is big. */
function hugePlan(n: number): Plan {
  const long = (i: number, v: string): Rule =>
    rule(`rule ${i}`, { description: v, conditions: { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$re', value: Array.from({ length: 8 }, (_, k) => `^/${v}/${i}/${k}/[a-z]+$`) }] }] } });
  const live = liveRules(Array.from({ length: n }, (_, i) => long(i, 'old')));
  const declared = declaredRules([...Array.from({ length: n }, (_, i) => long(i, 'new')), rule('not live <b>')]);
  return new Plan([planApp({ app: 'default', declared, live, unmanaged: 'keep' }).plan]);
}

describe('markdown plan renderer', () => {
  test('summary table, blocked rules with their console steps, rules not in the files and moves as tables, each diff collapsed', () => {
    const out = render(markdown, samplePlan('pause'));
    const lines = out.split('\n');
    const summary = '**Plan: 3 PATCH requests: 2 to update, 1 to move (1 does both), 1 unmanaged to pause; 2 rules change position; 1 blocked; 1 not in the files, kept**';
    expect(lines.slice(0, 23)).toEqual([
      '### botrules plan',
      '',
      '> [!CAUTION]',
      "> **Needs a reviewer's attention: what this plan loosens or leaves active, and what it changes**",
      '>',
      '> - **missing** (hardBlock) is new: the API cannot create it, so nothing is applied until it is created in the console (steps below)',
      '',
      summary,
      '',
      // Every rule change, one row each, before the details.
      '#### Rule changes (4 rules)',
      '',
      '| rule | change | before | after |',
      '| --- | --- | --- | --- |',
      '| **b** | description, position | (empty); position 2 | &quot;new&quot;; position 1 |',
      '| **c** | status | active | paused |',
      '| **u** | paused: in no rule file | active | paused |',
      '| **missing** | new rule: blocked, the API cannot create it (steps below) | not live | hardBlock, position 4 |',
      '',
      '_The moves shift 1 other rule by a position or more, without a PATCH of its own (see Moves below)._',
      '',
      '| app | PATCH requests | to update | to move | to pause | rules changing position | blocked | not in the files, kept |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      '| default | 3 | 2 | 1 | 1 | 2 | 1 | 1 |',
    ]);
    for (const line of [
      '> [!WARNING]',
      '> 1 declared rule does not exist live, and the API cannot create rules: the plan cannot be applied. To add each, follow its steps (docs/behaviour.md, "Adding a rule"):',
      '> - **missing** (rules/10-main.yaml:32:5)',
      '>   1. In the console, create a rule named **missing** with status paused, at position 4 (directly below **c**).',
      '>   2. Run `botrules import --update --pin` to write its ruleId into the file (nothing else in the files changes).',
      '> If your service accepts POST ("Create custom rule" in its API reference), `service.create: true` in botrules.yaml makes each a create step instead (docs/behaviour.md, "Creating and deleting rules").',
      '#### Not in the rule files (2 live rules)',
      '| **u** | <code>id-u</code> | declared in no rule file: paused by this plan (unmanaged: pause) |',
      '| **p** | <code>id-p</code> | declared in no rule file: stays live, paused |',
      '#### Moves (1 PATCH carrying a position; 1 other rule shifts with them)',
      '| **b** | <code>id-b</code> | 2 → 1 | description |',
      '#### Field changes (3 rules)',
      '<details><summary><b>b</b> <code>id-b</code>: updates description; moves from position 2 to 1</summary>',
      '-description: ""',
      '+description: new',
    ]) {
      expect(lines).toContain(line);
    }
    expect(out.match(/<details>/g)).toHaveLength(3);
    expect(out.match(/<\/details>/g)).toHaveLength(3);
    // The summary again last, where a long plan ends.
    expect(lines.at(-2)).toBe(summary);
  });

  test('a saved plan and an undo plan render exactly like the fresh plan', () => {
    const fresh = samplePlan('pause');
    expect(render(markdown, savedAgain(fresh, 'plan.json'))).toBe(render(markdown, fresh));
  });

  test('a saved plan keeps the caution a reviewer reads first, and the git note', () => {
    const saved = render(markdown, savedAgain(riskyPlan(), 'plan.json'));
    expect(saved).toBe(render(markdown, riskyPlan()));
    expect(saved.split('\n').slice(2, 9)).toEqual([
      '> [!CAUTION]',
      "> **Needs a reviewer's attention: what this plan loosens or leaves active, and what it changes**",
      '>',
      '> - **u** removed from the files: stays live and ACTIVE — the service cannot delete rules',
      '> - **b** actions weakened from hardBlock to blockWithChallenge',
      '> - **b** (blockWithChallenge) now comes after allow rule &quot;ok&quot;',
      '> - **c** (hardBlock) is paused',
    ]);
    expect(saved.split('\n')).toContain(`_${SHALLOW_NOTE}_`);
  });

  test('no changes still names every live rule no file declares', () => {
    expect(render(markdown, emptyPlan()).split('\n')).toEqual([
      '### botrules plan',
      '',
      'No changes. Live rules match the rule files.',
      '',
      '#### Not in the rule files (1 live rule)',
      '',
      '| rule | ruleId | what happens to it |',
      '| --- | --- | --- |',
      '| **u** | <code>id-u</code> | declared in no rule file: stays live and ACTIVE |',
      '',
      '',
    ]);
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
    expect(out.split('\n')).toContain(
      `> This plan is truncated: ${400 - shown} of 400 rule diffs are not shown, to stay within GitHub's limit of 65,536 characters per comment. Run \`botrules plan --live live.json\` (a snapshot from \`botrules live\`; no token needed) to see the whole plan.`,
    );
    expect(out.match(/<details>/g)?.length).toBe(out.match(/<\/details>/g)?.length);
    expect(out.split('\n')).toContain('| default | 400 | 400 | 0 | 0 | 0 | 1 | 0 |');
  });

  test('a plan that fits is not truncated', () => {
    const out = render(markdown, hugePlan(20));
    expect(out).not.toContain('[!NOTE]');
    expect(out.match(/<details>/g)).toHaveLength(20);
  });
});

describe('the comment a reviewer reads, rendered by GitHub\'s Markdown engine', () => {
  test.each([1, 40, 400])('%i changes: under the comment limit, the removed rule and the change limit in the first screen', (n) => {
    const out = render(markdown, reviewPlan(n));
    expect(out.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    const html = renderGfm(out, { unsafe: true });
    const firstScreen = html.slice(0, 30);
    expect(firstScreen).toContain('<p>[!CAUTION]');
    expect(firstScreen).toContain(
      '<li><strong>Old rule</strong> removed from the files: stays live and ACTIVE — the service cannot delete rules</li>',
    );
    if (n > 10) {
      expect(firstScreen).toContain('<strong><code>botrules apply</code> will refuse this plan without <code>--force</code>:</strong></p>');
    }
    // The moves are one table row each, not a bullet each; the diffs are collapsed.
    if (n > 1) {
      expect(html).toContain(`<h4>Moves (${n - 1} PATCHes carrying a position; 1 other rule shifts with them)</h4>`);
      expect(html).toContain(`<td><strong>rule ${n - 1}</strong></td>`);
      expect(html).toContain(`<td>${n} → 1</td>`);
    }
    expect(html.filter((line) => line.startsWith('<li>')).length).toBeLessThan(12);
    expect(html.filter((line) => line.startsWith('<details><summary>')).length).toBe(Math.ceil(n / 3));
  });

  test('blocking rules that end below an allow rule are named at the top', () => {
    const live = liveRules([rule('Block bots', { actions: ['hardBlock'] }), rule('Allow partners', { actions: ['allow'] })]);
    const declared = declaredRules([rule('Allow partners', { actions: ['allow'] }), rule('Block bots', { actions: ['hardBlock'] })]);
    const app = planApp({ app: 'default', declared, live, unmanaged: 'keep' }).plan;
    const plan = { plan: new Plan([app]), review: reviewOf({ risks: planRisks('default', live, app.steps) }) };
    const html = renderGfm(render(markdown, plan), { unsafe: true });
    expect(html.slice(0, 8)).toEqual([
      '<h3>botrules plan</h3>',
      '<blockquote>',
      '<p>[!CAUTION]',
      '<strong>Needs a reviewer\'s attention: what this plan loosens or leaves active, and what it changes</strong></p>',
      '<ul>',
      '<li><strong>Block bots</strong> (hardBlock) now comes after allow rule &quot;Allow partners&quot;</li>',
      '</ul>',
      '</blockquote>',
    ]);
  });

  test('the hint after a capped class list shows its commands as code, one a reviewer without a token can run', () => {
    const classes = Array.from({ length: 5 }, (_, i) => ({ description: `requests with path starting "/p${i}"`, example: { path: `/p${i}`, method: 'GET' } }));
    const diff = { app: 'default', changes: [{ risk: 'weakens' as const, before: { rule: 'a', actions: ['hardBlock'] }, after: { rule: undefined, actions: [] }, classes }], unchecked: [] };
    const app = planApp({ app: 'default', declared: declaredRules([rule('a', { status: 'paused' })]), live: liveRules([rule('a')]), unmanaged: 'keep' }).plan;
    const html = renderGfm(render(markdown, { plan: new Plan([app]), review: reviewOf({ behaviourDiff: [diff] }) }), { unsafe: true });
    expect(html).toContain('<li>… and 2 more</li>');
    expect(html).toContain(
      '<p><em>Run <code>botrules plan --live live.json</code> (a snapshot from <code>botrules live</code>; no token needed) for every class, with <code>--format json</code> for the data.</em></p>',
    );
  });
});
