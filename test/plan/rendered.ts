// A plan rendered to a string in text or Markdown, without colours, for tests that compare
// what two plans show a reviewer; a saved plan read back as a renderer of the file would show it.
import pc from 'picocolors';
import { Plan } from '../../src/plan/plan-value.js';
import { renderMarkdown } from '../../src/render/plan/markdown.js';
import { planDocument } from '../../src/render/plan/plan-file.js';
import { parsePlan, parsePlanText } from '../../src/plan/file-format.js';
import { reviewOf, type ReviewedPlan } from '../../src/render/plan/review.js';
import { definedFields } from '../../src/defined.js';
import { renderText } from '../../src/render/plan/text.js';

const renderers = { text: renderText, markdown: renderMarkdown };

/** A Plan alone is shown with an empty Review, as an undo plan is. */
export function reviewed(model: Plan | ReviewedPlan): ReviewedPlan {
  return model instanceof Plan ? { plan: model, review: reviewOf() } : model;
}

/** A saved plan's text → the Plan and the Review a renderer of the file shows (risks, notes, lifetimes). */
export function readReviewedPlan(text: string, source = 'the plan file'): ReviewedPlan {
  const parsed = parsePlan(parsePlanText(text, source), source);
  return {
    plan: new Plan(parsed.apps, parsed.snapshot === undefined ? {} : { snapshot: parsed.snapshot }),
    review: reviewOf({ risks: parsed.risks, notes: parsed.notes, ...definedFields({ lifetimes: parsed.lifetimes }) }),
  };
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
