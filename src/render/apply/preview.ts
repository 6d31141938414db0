// What apply shows before it asks: what the plan does to replayed traffic (apply --replay, or
// recorded by plan --replay --out), then the plan as text. Written synchronously, because
// apply's progress line starts right after it. When apply asks, the loosenings come again
// right above its question.
import type { Plan } from '../../plan/plan-value.js';
import type { ReviewedPlan } from '../plan/review.js';
import { sharePercent } from '../plan/refusals.js';
import { plural } from '../../plural.js';
import type { Colors, RenderOptions, Sink, StreamRenderers } from '../contract.js';
import { renderText, riskLines } from '../plan/text.js';
import { safeText } from '../sanitise.js';

export function renderApplyPreview(reviewed: ReviewedPlan, sink: Sink, options: RenderOptions): void {
  for (const line of trafficLines(reviewed.plan)) sink.write(`${line}\n`);
  renderText(reviewed, sink, options);
}

function trafficLines(plan: Plan): string[] {
  return plan.apps.flatMap(({ app, replay }) => {
    if (replay === undefined) return [];
    const share = replay.evaluated === 0 ? '' : ` (${sharePercent(replay.newlyBlocked / replay.evaluated)})`;
    return [safeText(`Replay for app ${app} of ${plural(replay.logs.length, 'log')}: ${replay.newlyBlocked} of ${plural(replay.evaluated, 'request')}${share} ` +
      'had no blocking outcome and would be blocked or challenged.')];
  });
}

/** Loosenings repeated right above apply's question, before "… and N more". */
const REMINDER_ITEMS = 5;

/**
 * What the plan loosens, again, as the last lines before apply asks: a long plan puts its
 * diffs and classes between the list under the summary and the question. Empty when nothing loosens.
 */
function loosensReminder(reviewed: ReviewedPlan, c: Colors): string {
  const { risks } = reviewed.review;
  if (risks.length === 0) return '';
  const lines = riskLines(reviewed, c).slice(0, REMINDER_ITEMS);
  const more = risks.length - REMINDER_ITEMS;
  if (more > 0) lines.push(`  … and ${more} more, listed under the summary above`);
  return `${c.bold(c.red(`Before you answer: this plan loosens ${plural(risks.length, 'rule')}:`))}\n${lines.join('\n')}\n`;
}

/** On stderr, beside the question apply asks there (stdout holds only the plan and the report). */
export const APPROVAL_REMINDER: StreamRenderers<ReviewedPlan> = {
  stderr: (reviewed, sink, { colors }) => {
    const reminder = loosensReminder(reviewed, colors);
    if (reminder !== '') sink.write(`\n${reminder}`);
  },
};
