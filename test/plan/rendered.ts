// A plan rendered to a string in text or Markdown, without colours, for tests that compare
// what two plans show a reviewer.
import pc from 'picocolors';
import type { Plan } from '../../src/plan/plan-value.js';
import { loadPlanRenderer } from '../../src/render/plan/index.js';

const renderers = { text: await loadPlanRenderer('text'), markdown: await loadPlanRenderer('markdown') };

export function rendered(plan: Plan, format: keyof typeof renderers): string {
  let out = '';
  renderers[format](plan, { write: (chunk: string) => (out += chunk) }, { colors: pc.createColors(false) });
  return out;
}
