// Windows in the text and Markdown plans (docs/behaviour.md, "Safe transitions"): risk first —
// before the steps in text, a caution alert among the first lines in Markdown — each class with
// its outcomes and witness, the --safe-order offer and what was not checked; hostile names and
// values from rule files and the service printed through the sanitiser.
import { describe, expect, test } from '@jest/globals';
import { Plan } from '../../src/plan/plan-value.js';
import type { TransitionCheck } from '../../src/plan/types.js';
import type { AppPlan } from '../../src/plan/types.js';
import { renderMarkdown as markdown } from '../../src/render/plan/markdown.js';
import { renderText as text } from '../../src/render/plan/text.js';
import { render } from './plan-fixtures.js';

const check: TransitionCheck = {
  order: 'planner',
  plannerWindows: 1,
  saferOrderCost: 1,
  unchecked: [{ kind: 'search', reason: 'a regular expression the search cannot reason about', rules: ['Headless'] }],
  windows: [{
    opensAfter: 1,
    closesAt: 3,
    classes: [{
      requests: 'requests with user agent containing "py\u001b[31mthon"',
      seenAfter: 1,
      witness: { userAgent: 'xpy\u001b[31mthonx', path: '/' },
      before: { kind: 'rule', rule: 'Block <b>python</b>', actions: ['hardBlock'] },
      during: { kind: 'no-rule' },
      after: { kind: 'rule', rule: 'Scripts', actions: ['hardBlock'] },
    }],
  }],
};

function planWith(transitions: TransitionCheck): Plan {
  const steps: AppPlan['steps'] = ['a', 'b', 'c'].map((id) => ({ ruleId: id, name: id, kind: 'update', body: { status: 'paused' }, changes: [{ field: 'status', before: 'active', after: 'paused' }] }));
  return new Plan([{ app: 'default', fingerprint: `sha256:${'0'.repeat(64)}`, liveRules: 3, steps, blocked: [], unmanaged: [], transitions }]);
}

describe('windows in the plan', () => {
  test('text: the windows before the steps, escapes made visible', () => {
    const lines = render(text, planWith(check)).split('\n');
    expect(lines.slice(2, 10)).toEqual([
      '! Transitions: this order opens 1 window in the 2 states between the PATCH requests; apply refuses it without --force',
      '  ! Window from PATCH 1 until PATCH 3: 1 class of requests let through',
      '    - requests with user agent containing "py\\x1b[31mthon"',
      '      before: "Block <b>python</b>" (hardBlock); during: no rule (not blocked); after: "Scripts" (hardBlock)',
      '      for example {"userAgent":"xpy\\u001b[31mthonx","path":"/"}',
      '  An order free of windows exists with 1 more PATCH: botrules plan --safe-order shows it, botrules apply --safe-order applies it.',
      '  Not checked: a regular expression the search cannot reason about (rules "Headless").',
      '~ "a" (a): updates status',
    ]);
  });

  test('markdown: a caution alert among the first lines, HTML from a rule name shown as text', () => {
    const lines = render(markdown, planWith(check)).split('\n');
    const at = lines.indexOf('> [!CAUTION]');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(10);
    expect(lines.slice(at + 1, at + 8)).toEqual([
      '> **Transitions: this order opens 1 window in the 2 states between the PATCH requests; apply refuses it without --force**',
      '>',
      expect.stringMatching(/^> - Window from PATCH 1 until PATCH 3: 1 class of requests let through: requests with user agent containing .+<br>before: .+&lt;b&gt;python&lt;\/b&gt;.+<br>for example .+$/),
      '>',
      '> An order free of windows exists with 1 more PATCH: botrules plan --safe-order shows it, botrules apply --safe-order applies it.',
      '>',
      '> Not checked: a regular expression the search cannot reason about (rules &quot;Headless&quot;).',
    ]);
    expect(lines.join('\n')).not.toContain('\u001b');
  });

  test('an order without windows is one quiet line; one that was reordered says why', () => {
    expect(render(text, planWith({ order: 'planner', windows: [], unchecked: [] })).split('\n')[2]).toBe('Transitions: no window in the 2 states between the PATCH requests');
    const reordered = render(markdown, planWith({ order: 'reordered', windows: [], unchecked: [], plannerWindows: 2 })).split('\n');
    expect(reordered).toContain('_Transitions: no window; botrules chose this order because the planner&#39;s order opens 2 windows (2 states between the PATCH requests checked)._');
    // Two sentences, not one run on: the headline ends before "Not checked".
    const partial = render(markdown, planWith({ order: 'planner', windows: [], unchecked: [{ kind: 'search', reason: 'the time budget ran out', rules: [] }] })).split('\n');
    expect(partial).toContain('_Transitions: no window in the part checked in the 2 states between the PATCH requests. Not checked: the time budget ran out._');
  });
});
