// A saved plan is only valid for the live rules it was computed from. Before applying it,
// each app is listed again; a different fingerprint means someone changed the rules in the
// meantime (in the console, or another apply), and the plan's bodies and positions may now
// do the wrong thing. The refusal names the rules that changed.
import { UserError } from '../errors.js';
import { changedSince, fingerprintRules } from '../plan/fingerprint.js';
import type { AppPlan } from '../plan/types.js';
import type { LiveRule } from '../rules/model.js';

/** The sentence describing how an app's live rules drifted from the plan, or undefined when they did not. */
export function staleness(plan: AppPlan, live: readonly LiveRule[]): string | undefined {
  if (fingerprintRules(live) === plan.fingerprint) return undefined;
  const { changed, added, removed } = changedSince(plan, live);
  const parts = [
    ...changed.map((rule) => `${rule} changed`),
    ...added.map((rule) => `${rule} was added`),
    ...removed.map((rule) => `${rule} was removed`),
  ];
  const what = parts.length > 0 ? `: ${parts.join(', ')}` : ' (the plan does not record which rules)';
  return `the live rules of app ${plan.app} changed since the plan was made${what}.`;
}

/** Throws one UserError naming every app whose live rules changed since the plan. */
export function refuseIfStale(apps: readonly { plan: AppPlan; live: readonly LiveRule[] }[]): void {
  const stale = apps.map((a) => staleness(a.plan, a.live)).filter((s): s is string => s !== undefined);
  if (stale.length === 0) return;
  const [first, ...rest] = stale as [string, ...string[]];
  throw new UserError(first, [...rest, 'Run botrules plan again, review it, and apply the new plan.']);
}
