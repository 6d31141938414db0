// Plan renderers by format name (`plan --format NAME`), in the shape of every report's
// registry (../contract.ts). Each is loaded when it first writes: the text and Markdown
// renderers need the YAML and diff libraries, which JSON output does not.
import type { ReviewedPlan } from './review.js';
import { formatNames, type OutputRegistry } from '../contract.js';

export const PLAN_OUTPUTS = {
  text: { stdout: async (model, sink, options) => (await import('./text.js')).renderText(model, sink, options) },
  json: { stdout: async (model, sink) => (await import('./json.js')).renderJson(model, sink) },
  markdown: { stdout: async (model, sink) => (await import('./markdown.js')).renderMarkdown(model, sink) },
} as const satisfies OutputRegistry<ReviewedPlan>;

export const PLAN_FORMATS = formatNames(PLAN_OUTPUTS);
