// The plan JSON (docs/behaviour.md, "Plan format"): what `plan --format json` prints and `plan --out` saves.
import type { ReviewedPlan } from './review.js';
import { planDocument } from './plan-file.js';
import { safeJson } from '../sanitise.js';
import type { RenderOptions, Sink } from '../contract.js';

export function renderJson(reviewed: ReviewedPlan, out: Sink, _options?: RenderOptions): void {
  // Exact data; characters that would reorder a terminal's text are written as \u escapes.
  out.write(`${safeJson(JSON.stringify(planDocument(reviewed.plan, reviewed.review), null, 2))}\n`);
}
