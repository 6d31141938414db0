// Plan renderers by format name (`plan --format NAME`).
import { UserError } from '../../errors.js';
import { renderJson } from './json.js';
import { renderMarkdown } from './markdown.js';
import { renderText } from './text.js';
import type { PlanRenderer } from './types.js';

export type { Colors, PlanRenderOptions, PlanRenderer, TextSink } from './types.js';
export { NO_CHANGES, summaryLine } from './describe.js';
export { MARKDOWN_LIMIT } from './markdown.js';

export const PLAN_FORMATS = ['text', 'json', 'markdown'] as const;
export type PlanFormat = (typeof PLAN_FORMATS)[number];

const RENDERERS: Record<PlanFormat, PlanRenderer> = {
  text: renderText,
  json: renderJson,
  markdown: renderMarkdown,
};

export function isPlanFormat(name: string): name is PlanFormat {
  return (PLAN_FORMATS as readonly string[]).includes(name);
}

export function getPlanRenderer(name: string): PlanRenderer {
  if (!isPlanFormat(name)) {
    throw new UserError(`unknown plan format "${name}": use one of ${PLAN_FORMATS.join(', ')}`);
  }
  return RENDERERS[name];
}
