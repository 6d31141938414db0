// Plan renderers by format name (`plan --format NAME`). Each is loaded when asked for: the
// text and Markdown renderers need the YAML and diff libraries, which JSON output does not.
import { UserError } from '../../errors.js';
import type { PlanRenderer } from './types.js';

export type { Colors, PlanRenderOptions, PlanRenderer, TextSink } from './types.js';

export const PLAN_FORMATS = ['text', 'json', 'markdown'] as const;
export type PlanFormat = (typeof PLAN_FORMATS)[number];

const RENDERERS: Record<PlanFormat, () => Promise<PlanRenderer>> = {
  text: async () => (await import('./text.js')).renderText,
  json: async () => (await import('./json.js')).renderJson,
  markdown: async () => (await import('./markdown.js')).renderMarkdown,
};

export function isPlanFormat(name: string): name is PlanFormat {
  return (PLAN_FORMATS as readonly string[]).includes(name);
}

export async function loadPlanRenderer(name: string): Promise<PlanRenderer> {
  if (!isPlanFormat(name)) {
    throw new UserError(`unknown plan format "${name}": use one of ${PLAN_FORMATS.join(', ')}`);
  }
  return RENDERERS[name]();
}
