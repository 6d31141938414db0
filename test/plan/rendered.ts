// A plan rendered to a string in text or Markdown, without colours, for tests that compare
// what two plans show a reviewer.
import pc from 'picocolors';
import { Plan } from '../../src/plan/plan-value.js';
import { loadPlanRenderer } from '../../src/render/plan/index.js';
import { planDocument } from '../../src/render/plan/plan-file.js';
import { readReviewedPlan, reviewOf, type ReviewedPlan } from '../../src/render/plan/review.js';

const renderers = { text: await loadPlanRenderer('text'), markdown: await loadPlanRenderer('markdown') };

/** A Plan alone is shown with an empty Review, as an undo plan is. */
export function reviewed(model: Plan | ReviewedPlan): ReviewedPlan {
  return model instanceof Plan ? { plan: model, review: reviewOf() } : model;
}

/** The model as a saved plan file holds it, read back. */
export function savedAgain(model: Plan | ReviewedPlan, source = 'plan.json'): ReviewedPlan {
  return readReviewedPlan(JSON.stringify(planDocument(reviewed(model).plan, reviewed(model).review)), source);
}

export function rendered(plan: Plan | ReviewedPlan, format: keyof typeof renderers): string {
  let out = '';
  renderers[format](reviewed(plan), { write: (chunk: string) => (out += chunk) }, { colors: pc.createColors(false) });
  return out;
}
