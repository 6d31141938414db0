// Rules with a lifetime (docs/behaviour.md, "Rules with a lifetime"): a rule file may give a rule
// `activeFrom` and `expires`, ISO 8601 date-times with an offset. They live in the files only and
// are never sent. Outside [activeFrom, expires) the rule is declared paused whatever its status;
// inside, its status holds. Everything here is pure: the moment is always passed in (`--now`, or
// the time the command started), so a run evaluates every lifetime at one instant and a test
// rehearses another moment without a clock.
import type { Problem } from '../errors.js';
import { plural } from '../plural.js';
import { matchRules } from './match.js';
import type { DeclaredRule, LifetimeBound, LiveRule, RuleLifetime, SourceLocation, Status } from './model.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How far ahead `plan` names the rules whose state a lifetime changes. */
const UPCOMING_HORIZON_MS = 7 * DAY_MS;

/** How long after its expiry `validate` warns that a rule is dead weight. */
const LONG_EXPIRED_MS = 30 * DAY_MS;

type LifetimePhase = 'before' | 'inside' | 'after';

// A date-time must carry its offset: without one the instant would depend on the machine's zone.
export const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * An ISO 8601 date-time with an offset as epoch milliseconds; undefined when the text is not one
 * or names no real instant (February 30th, 25:00).
 */
export function parseInstant(text: string): number | undefined {
  const match = DATE_TIME.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match.map(Number);
  const calendar = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 0));
  if (calendar.getUTCMonth() !== (month ?? 1) - 1 || calendar.getUTCDate() !== day) return undefined;
  if ((hour ?? 0) > 23 || (minute ?? 0) > 59 || (second ?? 0) > 59) return undefined;
  const ms = Date.parse(normalisedOffset(text.trim()));
  return Number.isNaN(ms) ? undefined : ms;
}

/** `+0100` → `+01:00`: Date.parse reads only the form with a colon everywhere. */
function normalisedOffset(text: string): string {
  return text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
}

/** Where `now` falls in the lifetime's window [activeFrom, expires). */
export function lifetimePhase(lifetime: RuleLifetime, now: number): LifetimePhase {
  if (lifetime.activeFrom !== undefined && now < lifetime.activeFrom.time) return 'before';
  if (lifetime.expires !== undefined && now >= lifetime.expires.time) return 'after';
  return 'inside';
}

/** The status a rule is declared with at `now`: paused outside its window, its own status inside. */
export function statusAt(lifetime: RuleLifetime, now: number): Status {
  return lifetimePhase(lifetime, now) === 'inside' ? lifetime.status : 'paused';
}

/** A change of declared state that a lifetime brings within the horizon. */
interface UpcomingChange {
  /** `activates`: the rule becomes active at `time`; `expires`: it becomes paused. */
  change: 'activates' | 'expires';
  time: number;
  at: SourceLocation;
}

/**
 * The next change of declared state the lifetime brings in (now, now + horizon], if any. A rule
 * whose file writes `status: paused` never changes state by its lifetime.
 */
export function upcomingChange(lifetime: RuleLifetime, now: number, horizonMs = UPCOMING_HORIZON_MS): UpcomingChange | undefined {
  if (lifetime.status !== 'active') return undefined;
  const within = (bound: LifetimeBound | undefined): bound is LifetimeBound => bound !== undefined && bound.time > now && bound.time <= now + horizonMs;
  const phase = lifetimePhase(lifetime, now);
  if (phase === 'before' && within(lifetime.activeFrom)) return { change: 'activates', time: lifetime.activeFrom.time, at: lifetime.activeFrom.at };
  if (phase === 'inside' && within(lifetime.expires)) return { change: 'expires', time: lifetime.expires.time, at: lifetime.expires.at };
  return undefined;
}

/** "in 3 days", "in 5 hours", "in 20 minutes": how far `time` lies ahead of `now`, rounded down. */
export function timeAhead(time: number, now: number): string {
  const ms = Math.max(0, time - now);
  const units: [number, string][] = [[DAY_MS, 'day'], [60 * 60 * 1000, 'hour'], [60 * 1000, 'minute']];
  for (const [size, unit] of units) {
    const count = Math.floor(ms / size);
    if (count >= 1) return `in ${plural(count, unit)}`;
  }
  return 'in less than a minute';
}

/** A declared rule that its lifetime, not its status, declares paused now. */
function pausedByLifetime(rule: DeclaredRule): boolean {
  return rule.lifetime !== undefined && rule.lifetime.status === 'active' && rule.status === 'paused';
}

/**
 * The live rules as `import --update` compares them with the files: a live rule matched by a
 * rule its lifetime pauses shows the declared status, so the update writes no status for it.
 * The file cannot say "paused" there without losing its own status, and the live status
 * (active until the next apply, paused after it) is the lifetime's doing, not a console edit
 * to bring back (docs/behaviour.md, "Rules with a lifetime").
 */
export function liveAsLifetimesDeclare(live: readonly LiveRule[], declared: readonly DeclaredRule[]): LiveRule[] {
  const paused = declared.filter(pausedByLifetime);
  if (paused.length === 0) return [...live];
  const { matches } = matchRules(paused, live, { missingRuleId: 'unmatched' });
  const statusOf = new Map(matches.map(({ declared: rule, live: match }) => [match.ruleId, rule.status]));
  return live.map((rule) => {
    const status = statusOf.get(rule.ruleId);
    return status === undefined || status === rule.status ? rule : { ...rule, status };
  });
}

/**
 * `validate`'s warning for rules whose lifetime ended more than LONG_EXPIRED_MS before `now`:
 * paused for good, they are weight the rule set carries (docs/behaviour.md, "Rules with a lifetime").
 */
export function longExpiredWarnings(rules: readonly DeclaredRule[], now: number): Problem[] {
  return rules.flatMap((rule) => {
    const expires = rule.lifetime?.expires;
    if (expires === undefined || now - expires.time <= LONG_EXPIRED_MS) return [];
    const days = Math.floor((now - expires.time) / DAY_MS);
    const message = `rule ${JSON.stringify(rule.name)} expired on ${new Date(expires.time).toISOString()} (${plural(days, 'day')} ago) and stays paused: ` +
      'delete it from the rule files, or move expires to keep it';
    return [{ ...expires.at, message }];
  });
}
