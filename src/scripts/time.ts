// `--from`/`--to` parsing (docs/behaviour.md, "Commands", "Script inventory"). Pure: the caller passes `now`, so the window is
// resolved exactly once per report and every page asks for the same period.
import { UserError } from '../errors.js';
import { DATE_TIME } from '../semantics/lifetime.js';

/** Lengths of time in milliseconds, for every reader and writer of the inventory's times (the emulator's too). */
export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60 * 1000, h: HOUR_MS, d: DAY_MS, w: 7 * DAY_MS };

const EPOCH_MS = /^\d+$/;
// One grammar for every length the tool reads (--from/--to, --interval): whole units, s to w.
// Not the `ms` package: it reads a bare number as milliseconds (here a bare number is an
// epoch instant), and fractions, years and words ("1.5h", "1y", "2 days") the contract never
// promised and a typo would land in.
const DURATION = /^(\d+)([smhdw])$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

export const TIME_FORMATS_HINT =
  'use epoch milliseconds (1735689600000), an ISO 8601 date (2025-01-01) or date-time with offset ' +
  '(2025-01-01T08:00:00Z), or a duration back from now (90m, 24h, 7d, 2w)';

/** The length `text` writes (`90m`, `24h`, `7d`, `2w`) in milliseconds, or undefined when it is not one. */
export function durationMs(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  return match ? Number(match[1]) * (UNIT_MS[match[2] ?? ''] ?? 0) : undefined;
}

/**
 * Parses one time argument to epoch milliseconds. `flag` names the option in error messages.
 * A date without a time is midnight UTC; a duration counts back from `now`.
 */
export function parseTimeArg(value: string, now: number, flag = '--from'): number {
  const text = value.trim();
  if (text === 'now') return now;
  if (EPOCH_MS.test(text)) {
    const ms = Number(text);
    if (!Number.isSafeInteger(ms)) throw new UserError(`${flag} ${value}: the number is too large for epoch milliseconds`);
    // Ten digits or fewer is a 1970 instant in milliseconds but "now" in seconds: ask rather than guess.
    if (ms > 0 && text.length <= 10) {
      throw new UserError(`${flag} ${value}: looks like epoch seconds; the tool takes epoch milliseconds (${text}000)`);
    }
    return ms;
  }
  const duration = durationMs(text);
  if (duration !== undefined) return now - duration;
  const date = DATE_ONLY.exec(text);
  if (date) {
    checkCalendarDate(date[1], date[2], date[3], value, flag);
    return Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]));
  }
  const dateTime = DATE_TIME.exec(text);
  if (dateTime) {
    checkCalendarDate(dateTime[1], dateTime[2], dateTime[3], value, flag);
    checkClock(dateTime[4], dateTime[5], dateTime[6], value, flag);
    const ms = Date.parse(text);
    if (!Number.isNaN(ms)) return ms;
  }
  if (/^\d{4}-\d{2}-\d{2}T[\d:.]+$/.test(text)) {
    throw new UserError(`${flag} ${value}: a date-time needs a UTC offset (Z or +02:00) so it means the same instant everywhere`);
  }
  throw new UserError(`${flag} ${value}: not a time`, [TIME_FORMATS_HINT]);
}

/**
 * Resolves the report window. Defaults as the service's (docs/service-api.md, "Get scripts"): `to` = now, `from` = 24 hours before `to`.
 * A `from` after `to` is an error rather than an empty report.
 */
export function resolveWindow(args: { from?: string; to?: string }, now: number): { from: number; to: number } {
  const to = args.to === undefined ? now : parseTimeArg(args.to, now, '--to');
  const from = args.from === undefined ? to - DAY_MS : parseTimeArg(args.from, now, '--from');
  if (from > to) {
    throw new UserError(`--from (${new Date(from).toISOString()}) is after --to (${new Date(to).toISOString()})`);
  }
  return { from, to };
}

function checkCalendarDate(year = '', month = '', day = '', value: string, flag: string): void {
  const probe = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const valid = probe.getUTCMonth() === Number(month) - 1 && probe.getUTCDate() === Number(day);
  if (!valid) throw new UserError(`${flag} ${value}: no such calendar date`);
}

function checkClock(hours = '', minutes = '', seconds = '0', value: string, flag: string): void {
  if (Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 59) {
    throw new UserError(`${flag} ${value}: no such time of day`);
  }
}
