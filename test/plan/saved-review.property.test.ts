// What a saved plan shows a reviewer, for random plans (docs/behaviour.md, "Plan format",
// "Saved plans"): the file carries what the plan loosens and its notes, so text and Markdown
// render the saved plan exactly as the fresh one; and what apply works out again from the same
// live rules and the file's steps is exactly what the file carries.
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { Plan } from '../../src/plan/plan-value.js';
import { planApp } from '../../src/plan/planner.js';
import { planRisks, type Risk } from '../../src/plan/risks.js';
import { reviewOf } from '../../src/render/plan/review.js';
import { looseningWords } from '../../src/render/plan/reasons.js';
import { rendered, savedAgain } from './rendered.js';
import { scenarios } from './scenarios.js';

describe('a saved plan', () => {
  test('renders as the fresh plan did, and apply works out the same loosenings from its steps', () => {
    let loosening = 0;
    fc.assert(
      fc.property(scenarios({ maxRules: 30 }), fc.boolean(), (s, withNote) => {
        const planned = planApp({ app: 'default', declared: s.declared, live: s.live, unmanaged: s.policy }).plan;
        const risks = planRisks('default', s.live, planned.steps);
        if (risks.length > 0) loosening += 1;
        const fresh = { plan: new Plan([planned]), review: reviewOf({ risks, notes: withNote ? [{ kind: 'removals-unknown', why: 'log-failed' }] : [] }) };
        const saved = savedAgain(fresh);
        expect(rendered(saved, 'text')).toBe(rendered(fresh, 'text'));
        expect(rendered(saved, 'markdown')).toBe(rendered(fresh, 'markdown'));
        // apply re-plans to exactly the file's steps, then works the loosenings out from them: the file's words, exactly.
        const worded = (risks: readonly Risk[]) => risks.map((risk) => ({ ...risk, loosens: looseningWords(risk.loosens) }));
        expect(worded(planRisks('default', s.live, saved.plan.apps[0]?.steps ?? []))).toEqual(worded(saved.review.risks));
      }),
      { numRuns: 200 },
    );
    // The property is about plans that loosen something: enough of them were generated.
    expect(loosening).toBeGreaterThan(20);
  });
});
