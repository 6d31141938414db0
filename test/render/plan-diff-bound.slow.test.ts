// The diff of a changed rule is bounded (MAX_EDIT_LENGTH): a live rule of 100,000 leaves
// replaced whole used to take minutes to render; now the change is one line saying so, in
// text and Markdown alike, and small changes still show line by line.
import { Plan } from '../../src/plan/plan-value.js';
import { planApp } from '../../src/plan/planner.js';
import { changeLines, MAX_EDIT_LENGTH, TOO_LARGE_TO_SHOW } from '../../src/render/plan/rule-diff.js';
import { renderMarkdown } from '../../src/render/plan/markdown.js';
import { renderText } from '../../src/render/plan/text.js';
import { declaredRules, liveRules, rule } from '../plan/fixtures.js';
import { render } from './plan-fixtures.js';

const LEAVES = 100_000;

function withLeaves(prefix: string) {
  const children = Array.from({ length: LEAVES }, (_, i) => ({ conditionType: 'path', operator: '$eq', value: `/${prefix}${i}` }));
  return rule('big', { conditions: { operator: '$or', children: [{ operator: '$and', children }] } as never });
}

describe('bounded diff rendering', () => {
  it('a 100,000-leaf rule replaced whole renders as one summary line, in text and Markdown', async () => {
    const plan = new Plan([planApp({ app: 'default', declared: declaredRules([withLeaves('b')]), live: liveRules([withLeaves('a')]), unmanaged: 'keep' }).plan]);
    const step = plan.apps[0]?.steps[0];
    expect(step && changeLines(step)).toEqual([TOO_LARGE_TO_SHOW]);
    for (const renderer of [renderText, renderMarkdown]) {
      expect(render(renderer, plan)).toContain(TOO_LARGE_TO_SHOW.replace(/[()]/g, ''));
    }
  });

  it('a change of more line edits than the bound in a rule under the size bound: the same line', () => {
    const many = (prefix: string) => rule('many', { description: Array.from({ length: MAX_EDIT_LENGTH + 10 }, (_, i) => `${prefix}${i}`).join('\n') });
    const plan = new Plan([planApp({ app: 'default', declared: declaredRules([many('b')]), live: liveRules([many('a')]), unmanaged: 'keep' }).plan]);
    const step = plan.apps[0]?.steps[0];
    expect(step && changeLines(step)).toEqual([TOO_LARGE_TO_SHOW]);
  });

  it('a small change still shows as diff lines', () => {
    const plan = new Plan([planApp({ app: 'default', declared: declaredRules([rule('a', { description: 'new' })]), live: liveRules([rule('a')]), unmanaged: 'keep' }).plan]);
    const step = plan.apps[0]?.steps[0];
    expect(step && changeLines(step)).toEqual(['@@ -1,1 +1,1 @@', '-description: ""', '+description: new']);
  });
});
