// Plan renderers by format name (`plan --format NAME`), in the shape of every report's
// registry (../contract.ts). Each is loaded when it first writes: the text and Markdown
// renderers need the YAML and diff libraries, which JSON output does not.
import { UserError } from '../../errors.js';
import type { ReviewedPlan } from './review.js';
import { formatNames, type StreamRenderers } from '../contract.js';
import type { PlanRenderer } from './types.js';

export type { PlanRenderer } from './types.js';

const RENDERERS = {
  text: async () => (await import('./text.js')).renderText,
  json: async () => (await import('./json.js')).renderJson,
  markdown: async () => (await import('./markdown.js')).renderMarkdown,
} as const satisfies Record<string, () => Promise<PlanRenderer>>;

type PlanFormat = keyof typeof RENDERERS;
export const PLAN_FORMATS = formatNames(RENDERERS);

export const PLAN_OUTPUTS = Object.fromEntries(PLAN_FORMATS.map((name) => [name, {
  stdout: async (plan, sink, options) => (await RENDERERS[name]())(plan, sink, options),
} satisfies StreamRenderers<ReviewedPlan>])) as Record<PlanFormat, StreamRenderers<ReviewedPlan>>;

export async function loadPlanRenderer(name: string): Promise<PlanRenderer> {
  if (!(PLAN_FORMATS as readonly string[]).includes(name)) throw new UserError(`unknown plan format "${name}": use one of ${PLAN_FORMATS.join(', ')}`);
  return RENDERERS[name as PlanFormat]();
}
