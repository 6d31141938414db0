// Lengths of time as the evidence pack writes them: "28 days", "6 days 18 hours",
// "2 hours 5 minutes", "7 seconds". Pure. Two units at most, the smaller one rounded, and the
// rounding carried into the larger one, so 27 days 23 hours 40 minutes reads "28 days", never
// "27 days 24 hours".
import { plural } from '../plural.js';
import { DAY_MS, HOUR_MS } from './time.js';

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;

/** Largest first; each unit is written with the next smaller one. */
const UNITS: readonly { name: string; ms: number }[] = [
  { name: 'day', ms: DAY_MS },
  { name: 'hour', ms: HOUR_MS },
  { name: 'minute', ms: MINUTE_MS },
  { name: 'second', ms: SECOND_MS },
];

/** `14 days`, `6 days 18 hours`, `5 hours`, `3 minutes 20 seconds`, `0 seconds`. */
export function describeDuration(ms: number): string {
  const length = Math.max(0, ms);
  for (const [i, unit] of UNITS.entries()) {
    const smaller = UNITS[i + 1];
    if (!smaller) break;
    // Rounded to the smaller unit first: whether it still reaches the larger one decides the pair.
    const count = Math.round(length / smaller.ms);
    if (count * smaller.ms < unit.ms) continue;
    const per = unit.ms / smaller.ms;
    const whole = Math.floor(count / per);
    const rest = count % per;
    return rest === 0 ? plural(whole, unit.name) : `${plural(whole, unit.name)} ${plural(rest, smaller.name)}`;
  }
  return plural(Math.round(length / SECOND_MS), 'second');
}

/** An interval as an adjective: `7-day`, `12-hour`; other lengths as `describeDuration` writes them. */
export function intervalName(ms: number): string {
  if (ms > 0 && ms % DAY_MS === 0) return `${ms / DAY_MS}-day`;
  if (ms > 0 && ms % HOUR_MS === 0) return `${ms / HOUR_MS}-hour`;
  return describeDuration(ms);
}

/**
 * A stretch of calendar, ends included: `2026-01-19 to 2026-01-25` when it runs from midnight
 * to midnight (UTC; `to` is exclusive, so its day is the one before), else the instants in UTC,
 * `2026-01-19 05:23 UTC to 2026-01-26 05:23 UTC`.
 */
export function describeSpan(from: string, to: string): string {
  const start = Date.parse(from);
  const end = Date.parse(to);
  if (start % DAY_MS === 0 && end % DAY_MS === 0 && end > start) {
    return `${from.slice(0, 10)} to ${new Date(end - DAY_MS).toISOString().slice(0, 10)}`;
  }
  return `${utcMinute(start)} to ${utcMinute(end)}`;
}

function utcMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A time from elsewhere (the service, git) in UTC, as the pack writes every time; text that is no time stays as it is. */
export function utcInstant(text: string): string {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? text : new Date(ms).toISOString();
}
