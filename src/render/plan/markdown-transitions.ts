// The transition check in the Markdown plan (markdown.ts): an order that opens windows is a
// caution alert among the first lines, each window with its PATCH requests, outcomes and
// witness (the first few; `botrules plan --live` lists them all); an order without is one line
// beside the moves. Every string goes through markdownText.
import type { Plan } from '../../plan/plan-value.js';
import type { AppPlan } from '../../plan/types.js';
import { markdownText } from '../markdown.js';
import { transitionText } from './transitions.js';

/** Classes of requests listed in the alert before "… and N more": the alerts must fit the first screen. */
const ALERT_CLASSES = 5;

export function transitionAlerts(plan: Plan): string[] {
  const lines: string[] = [];
  for (const app of plan.apps) {
    const text = transitionText(app);
    if (text === undefined || !text.risky) continue;
    const of = plan.apps.length > 1 ? `${markdownText(app.app)}: ` : '';
    lines.push('> [!CAUTION]', `> **${of}${markdownText(text.headline)}**`, '>');
    const classes = text.windows.flatMap((window) => window.classes.map((open) => ({ window, open })));
    for (const { window, open } of classes.slice(0, ALERT_CLASSES)) {
      lines.push(`> - ${markdownText(window.title)}: ${markdownText(open.requests)}<br>${markdownText(open.outcomes)}<br>${markdownText(open.example)}`);
    }
    const more = classes.length - ALERT_CLASSES;
    if (more > 0) lines.push(`> - … and ${more} more; \`botrules plan --live live.json\` (a snapshot from \`botrules live\`, no token) lists them all`);
    for (const note of text.notes) lines.push('>', `> ${markdownText(note)}`);
    lines.push('');
  }
  return lines;
}

/** The headline of an order without windows, and what was not checked, as one paragraph. */
export function transitionNote(app: AppPlan, showApp: boolean): string {
  const text = transitionText(app);
  if (text === undefined || text.risky) return '';
  const of = showApp ? `${markdownText(app.app)}: ` : '';
  // The headline is a sentence without its full stop (the alert shows it bold, alone).
  return `_${of}${[`${text.headline}.`, ...text.notes].map(markdownText).join(' ')}_\n\n`;
}
