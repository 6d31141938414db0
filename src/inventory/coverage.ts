// Coverage of an assessment period (PCI DSS 11.6.1: a check at least weekly). Pure.
// A check is a snapshot being taken. A gap is a stretch of the period, longer than the
// interval, during which no check happened: from the last check before it (or the start of
// the period when there was none before it) to the next one (or the end of the period).
// The period is also cut into interval-long buckets (weeks by default) for the calendar.
import { UserError } from '../errors.js';
import type { SeriesMember } from './series.js';
import { durationMs } from './time.js';
import { plural } from '../plural.js';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** The shortest interval: checks more often than hourly are not a cadence an audit plans for. */
const HOUR_MS = 60 * 60 * 1000;
/** More buckets than this would not show as a calendar (a 1h interval over a year). */
const MAX_BUCKETS = 2000;

export function parseInterval(text: string): number {
  const ms = durationMs(text) ?? 0;
  if (ms < HOUR_MS) throw new UserError(`--interval ${text}: write a length of at least 1h, such as 7d (the default: weekly, as PCI DSS 11.6.1 asks), 1d or 2w`);
  return ms;
}

export interface SnapshotRef {
  file: string;
  takenAt: string;
}

export interface CoverageGap {
  /** The last check before the gap, or the start of the period. */
  from: string;
  /** The next check, or the end of the period. */
  to: string;
  durationMs: number;
  after?: SnapshotRef;
  before?: SnapshotRef;
}

export interface CoverageBucket {
  from: string;
  to: string;
  snapshots: number;
}

export interface Coverage {
  checks: number;
  buckets: CoverageBucket[];
  gaps: CoverageGap[];
  longestWithoutCheckMs: number;
}

export function coverage(members: readonly SeriesMember[], period: { from: number; to: number }, intervalMs: number): Coverage {
  const times = members.map((m) => ({ at: Date.parse(m.snapshot.takenAt), ref: { file: m.file, takenAt: m.snapshot.takenAt } }));
  const inside = times.filter((t) => t.at >= period.from && t.at <= period.to);
  const before = times.filter((t) => t.at < period.from).at(-1);
  const gaps: CoverageGap[] = [];
  let longest = 0;
  let last: { at: number; ref?: SnapshotRef } = before ?? { at: period.from };
  for (const next of [...inside, { at: period.to, ref: undefined }]) {
    const duration = next.at - last.at;
    longest = Math.max(longest, duration);
    if (duration > intervalMs) {
      gaps.push({
        from: new Date(last.at).toISOString(),
        to: new Date(next.at).toISOString(),
        durationMs: duration,
        ...(last.ref ? { after: last.ref } : {}),
        ...(next.ref ? { before: next.ref } : {}),
      });
    }
    last = next;
  }
  return { checks: inside.length, buckets: buckets(inside.map((t) => t.at), period, intervalMs), gaps, longestWithoutCheckMs: longest };
}

function buckets(checks: readonly number[], period: { from: number; to: number }, intervalMs: number): CoverageBucket[] {
  const count = Math.ceil((period.to - period.from) / intervalMs);
  if (count > MAX_BUCKETS) throw new UserError(`the period holds ${count} intervals; choose a longer --interval or a shorter period (at most ${MAX_BUCKETS})`);
  const out: CoverageBucket[] = [];
  for (let start = period.from; start < period.to; start += intervalMs) {
    const end = Math.min(start + intervalMs, period.to);
    const last = end === period.to;
    out.push({
      from: new Date(start).toISOString(),
      to: new Date(end).toISOString(),
      snapshots: checks.filter((t) => t >= start && (last ? t <= end : t < end)).length,
    });
  }
  return out;
}

/** `14 days`, `6 days 18 hours`, `5 hours`. */
export function describeDuration(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  const hours = Math.round((ms - days * DAY_MS) / (60 * 60 * 1000));
  if (days === 0) return plural(hours, 'hour');
  return hours === 0 ? plural(days, 'day') : `${plural(days, 'day')} ${plural(hours, 'hour')}`;
}
