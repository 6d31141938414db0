// The plan JSON (docs/behaviour.md, "Plan format"): what `plan --format json` prints and `plan --out` saves.
import type { ReviewedPlan } from './review.js';
import { planDocument } from './plan-file.js';
import { safeJson } from '../sanitise.js';
import { writeIndentedJson } from '../json-pieces.js';
import type { RenderOptions, Sink } from '../contract.js';

export function renderJson(reviewed: ReviewedPlan, out: Sink, _options?: RenderOptions): void {
  // Exact data; characters that would reorder a terminal's text are written as \u escapes (each
  // piece holds whole strings, and the characters escaped are single code points).
  writeIndentedJson(planDocument(reviewed.plan, reviewed.review), (piece) => out.write(safeJson(piece)));
  out.write('\n');
}
