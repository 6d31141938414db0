// Plans for the Markdown renderer's tests: a reversal of n rules, with an allow rule the
// blocking rules end up below, a rule removed from the files and left active, and the change
// limit apply will enforce, as the engine would put them together.
import { Plan } from '../../src/plan/plan-value.js';
import { limitExcesses } from '../../src/plan/safety.js';
import { reviewOf, type ReviewedPlan } from '../../src/render/plan/review.js';
import { planApp } from '../../src/plan/planner.js';
import { planRisks } from '../../src/plan/risks.js';
import type { Rule } from '../../src/semantics/model.js';
import { declaredRules, liveRules, rule } from '../plan/fixtures.js';

/**
 * n live rules (rule 0 an allow rule, the others hardBlock), declared in reverse order, every
 * third with a new description; "Old rule" live but in no file, removed from the files.
 */
export function reviewPlan(n: number): ReviewedPlan {
  const named = (i: number, description = ''): Rule =>
    rule(`rule ${i}`, { description, actions: i === 0 ? ['allow'] : ['hardBlock'] });
  const live = liveRules([...Array.from({ length: n }, (_, i) => named(i)), rule('Old rule', { actions: ['hardBlock'] })]);
  const declared = declaredRules(Array.from({ length: n }, (_, k) => n - 1 - k).map((i) => named(i, i % 3 === 0 ? `changed ${i}` : '')));
  const app = planApp({ app: 'default', declared, live, unmanaged: 'keep' }).plan;
  const removed = { ...app, unmanaged: app.unmanaged.map((r) => ({ ...r, removedFromFiles: true })) };
  const plan = new Plan([removed]);
  return { plan, review: reviewOf({ risks: planRisks('default', live, plan.apps[0]!.steps), limitExcesses: limitExcesses(plan.apps) }) };
}
