// The words of a plan's rule lifetimes (docs/behaviour.md, "Rules with a lifetime"), shared by
// the text and Markdown renderers: which rules a lifetime changes within seven days, and why the
// plan changes the status of a rule its lifetime decides. Times are said in UTC, and how far
// ahead is counted from the moment the plan evaluated lifetimes at, not from when it is read.
import type { LifetimeEvent } from '../../plan/plan-value.js';
import type { ReviewedPlan } from './review.js';
import { timeAhead } from '../../semantics/lifetime.js';

export const LIFETIMES_HEADING = 'Rule lifetimes:';

/** One sentence per event, in the plan's order; names and paths unescaped (the caller makes them safe). */
export function lifetimeSentences({ plan, review }: ReviewedPlan): string[] {
  const lifetimes = review.lifetimes;
  if (lifetimes === undefined) return [];
  const now = Date.parse(lifetimes.evaluatedAt);
  const showApp = plan.apps.length > 1;
  return lifetimes.events.map((event) => `${showApp ? `app ${event.app}: ` : ''}${lifetimeSentence(event, now)} (${event.source.file}:${event.source.line}:${event.source.col})`);
}

function lifetimeSentence(event: LifetimeEvent, now: number): string {
  const rule = JSON.stringify(event.name);
  const at = utc(event.at);
  switch (event.kind) {
    case 'expires':
      return `${rule} expires ${timeAhead(Date.parse(event.at), now)}, at ${at}: the first apply after that pauses it`;
    case 'activates':
      return `${rule} becomes active ${timeAhead(Date.parse(event.at), now)}, at ${at}: the first apply after that activates it`;
    case 'expired':
      return `${rule} expired at ${at}: this plan pauses it`;
    case 'pending':
      return `${rule} is not active before ${at}: this plan pauses it until then`;
    case 'activated':
      return `${rule} became active at ${at}: this plan activates it`;
  }
}

/** `2026-11-30 00:00 UTC`: to the minute, which is how lifetimes are written. */
function utc(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
