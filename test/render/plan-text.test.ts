import { describe, expect, test } from '@jest/globals';
import { Plan } from '../../src/plan/plan-value.js';
import { PLAN_FORMATS, PLAN_OUTPUTS } from '../../src/render/plan/index.js';
import { renderText as text } from '../../src/render/plan/text.js';
import { planApp } from '../../src/plan/planner.js';
import { undoAppPlan } from '../../src/plan/undo.js';
import { declaredRules, liveRules, rule } from '../plan/fixtures.js';
import { emptyPlan, movePlan, render, riskyPlan, samplePlan, savedAgain, SHALLOW_NOTE } from './plan-fixtures.js';

const ESC = '\u001b[';

describe('text plan renderer', () => {
  test('the whole plan: summary, the rules not in the files by name, each PATCH with its diff, blocked rules with console steps', () => {
    const out = render(text, samplePlan());
    const summary = 'Plan: 2 PATCH requests: 2 to update, 1 to move (1 does both); 2 rules change position; 1 blocked; 2 not in the files, kept';
    expect(out.split('\n')).toEqual([
      summary,
      '',
      'Not in the rule files (2 live rules):',
      '  - "u" (id-u): declared in no rule file: stays live and ACTIVE',
      '  - "p" (id-p): declared in no rule file: stays live, paused',
      '~ "b" (id-b): updates description; moves from position 2 to 1',
      '    @@ -1,1 +1,1 @@',
      '    -description: ""',
      '    +description: new',
      '~ "c" (id-c): updates status',
      '    @@ -1,1 +1,1 @@',
      '    -status: active',
      '    +status: paused',
      '! 1 blocked rule (not live, cannot be created by the API):',
      '    "missing" (rules/10-main.yaml:32:5)',
      '      1. In the console, create a rule named "missing" with status paused, at position 4 (directly below "c").',
      '      2. Run `botrules import --update --pin` to write its ruleId into the file (nothing else in the files changes).',
      '      3. Run `botrules plan`: it shows only the remaining field changes, and apply sets them (its status too).',
      '',
      '! 1 declared rule does not exist live, and the API cannot create rules: the plan cannot be applied.',
      '  Create each in the console under the name shown, paused, at the position shown; then run `botrules import --update --pin` ' +
        'to pin its ruleId, and `botrules plan` shows only the remaining field changes (docs/behaviour.md, "Adding a rule"). ' +
        'If your service accepts POST ("Create custom rule" in its API reference), `service.create: true` in botrules.yaml ' +
        'makes each a create step instead (docs/behaviour.md, "Creating and deleting rules").',
      '',
      'Positions are console positions: 1 is the highest priority (API priority + 1).',
      '',
      summary,
      '',
    ]);
    expect(out).not.toContain(ESC);
  });

  test('policy pause counts and shows the pauses', () => {
    const out = render(text, samplePlan('pause'));
    expect(out.split('\n')[0]).toBe(
      'Plan: 3 PATCH requests: 2 to update, 1 to move (1 does both), 1 unmanaged to pause; 2 rules change position; 1 blocked; 1 not in the files, kept',
    );
    expect(out).toContain('\n  - "u" (id-u): declared in no rule file: paused by this plan (unmanaged: pause)\n');
    expect(out).toContain('\n~ "u" (id-u): pauses it (no rule file declares it)\n');
  });

  test('pure moves count as moves, and every rule they shift counts as changing position', () => {
    const out = render(text, movePlan());
    expect(out.split('\n')[0]).toBe('Plan: 1 PATCH request: 0 to update, 1 to move; 5 rules change position; 0 blocked; 0 not in the files, kept');
    expect(out).toContain('\n~ "e" (id-e): moves from position 5 to 1\n');
  });

  test('a rule removed from the files is named first, in bold red, with what the service does with it', () => {
    const [app] = samplePlan().apps;
    const removed = { ...app!, unmanaged: app!.unmanaged.map((rule) => (rule.name === 'u' ? { ...rule, removedFromFiles: true } : rule)) };
    const plan = new Plan([removed]);
    expect(plan.summary.removedActive).toBe(1);
    const lines = render(text, plan).split('\n');
    expect(lines.slice(0, 5)).toEqual([
      'Plan: 2 PATCH requests: 2 to update, 1 to move (1 does both); 2 rules change position; 1 blocked; 2 not in the files, kept (1 removed from the files, left ACTIVE)',
      '',
      'Not in the rule files (2 live rules):',
      '  ! "u" (id-u): removed from the files: stays live and ACTIVE — the service cannot delete rules; to stop it, keep its file with status: paused, or set unmanaged: pause',
      '  - "p" (id-p): declared in no rule file: stays live, paused',
    ]);
    const coloured = render(text, plan, true);
    expect(coloured).toContain(`  ${ESC}31m!${ESC}39m ${ESC}1m"u" (id-u): removed from the files`);
  });

  test('colour only when the colour helpers are on', () => {
    const coloured = render(text, samplePlan(), true);
    expect(coloured).toContain(`${ESC}31m-description: ""`);
    expect(coloured).toContain(`${ESC}32m+description: new`);
    // Without its colour codes the output is exactly the uncoloured one.
    // eslint-disable-next-line no-control-regex
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(render(text, samplePlan()));
  });

  test('no changes still names every live rule no file declares', () => {
    expect(render(text, emptyPlan()).split('\n')).toEqual([
      'No changes. Live rules match the rule files.',
      'Not in the rule files (1 live rule):',
      '  - "u" (id-u): declared in no rule file: stays live and ACTIVE',
      '',
    ]);
    expect(render(text, new Plan([]))).toBe('No changes. Live rules match the rule files.\n');
  });

  test('what the plan loosens comes right under the summary, the git note before the summary again', () => {
    const lines = render(text, riskyPlan()).split('\n');
    expect(lines.slice(1, 7)).toEqual([
      '',
      'What this plan loosens (review before applying):',
      '  ! "b" actions weakened from hardBlock to blockWithChallenge',
      '  ! "b" (blockWithChallenge) now comes after allow rule "ok"',
      '  ! "c" (hardBlock) is paused',
      '',
    ]);
    expect(lines).toContain('  ! "u" (id-u): removed from the files: stays live and ACTIVE — the service cannot delete rules; to stop it, keep its file with status: paused, or set unmanaged: pause');
    expect(lines.slice(-4, -2)).toEqual([SHALLOW_NOTE, '']);
  });

  test('a saved plan renders exactly like the fresh plan it was saved from, what it loosens and its notes included', () => {
    for (const fresh of [samplePlan(), samplePlan('pause'), movePlan(), riskyPlan()]) {
      expect(render(text, savedAgain(fresh, 'plan.json'))).toBe(render(text, fresh));
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
    expect(render(text, savedAgain(undo, 'undo.json'))).toBe(out);
  });

  test('a rule that must move yet ends where it started says so, and survives a save', () => {
    // 0 and 4 are unmanaged and stay; 1, 2, 3 reverse between them, so 2 moves and ends at position 3 again.
    const live = liveRules(['0', '1', '2', '3', '4'].map((n) => rule(n)));
    const declared = declaredRules(['3', '2', '1'].map((n) => rule(n)));
    const plan = new Plan([planApp({ app: 'default', declared, live, unmanaged: 'keep' }).plan]);
    const out = render(text, plan);
    expect(out).toContain('~ "2" (id-2): moves, to end at position 3 again (the rules around it move)\n');
    expect(render(text, savedAgain(plan, 'plan.json'))).toBe(out);
  });

  test('a long list of unmanaged rules is one per line, with a count and a bound', () => {
    const live = liveRules(Array.from({ length: 60 }, (_, i) => rule(`unmanaged ${i}`)));
    const plan = new Plan([planApp({ app: 'default', declared: declaredRules([rule('unmanaged 0', { description: 'x' })]), live, unmanaged: 'keep' }).plan]);
    const out = render(text, plan);
    expect(out).toContain('\nNot in the rule files (59 live rules):\n  - "unmanaged 1" (id-unmanaged 1): declared in no rule file: stays live and ACTIVE\n');
    expect(out).toContain('\n  - "unmanaged 50" (id-unmanaged 50): declared in no rule file: stays live and ACTIVE\n    … and 9 more (plan --format json lists them all)\n');
    expect(Math.max(...out.split('\n').map((line) => line.length))).toBeLessThan(120);
  });

  test('several apps are shown under their names', () => {
    const [first] = samplePlan().apps;
    const plan = new Plan([first!, { ...first!, app: 'shop' }]);
    const out = render(text, plan);
    expect(out.split('\n')[0]).toBe('Plan: 4 PATCH requests: 4 to update, 2 to move (2 do both); 4 rules change position; 2 blocked; 4 not in the files, kept');
    expect(out).toContain('App default\n');
    expect(out).toContain('App shop\n');
  });

  // The CLI refuses any other --format (test/cli/option-checks.test.ts).
  test('the registry knows every format', () => {
    expect(PLAN_FORMATS).toEqual(['text', 'json', 'markdown']);
    for (const format of PLAN_FORMATS) expect(typeof PLAN_OUTPUTS[format].stdout).toBe('function');
  });
});
