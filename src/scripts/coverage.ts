// Coverage of an assessment period (PCI DSS 11.6.1: a check at least weekly). Pure.
// A check is a snapshot being taken. Coverage is judged by calendar interval: the period is cut
// into interval-long buckets from its start, and each must hold a check, so a weekly job that
// starts a few seconds late each week still has one snapshot in every week. The last bucket
// may be shorter than the interval (the period is not a whole number of them): without a check
// it is missed only when more than the interval passed since the last check, else it is not
// due yet. A gap is a run of missed buckets; the calendar and the verdict both read `buckets`,
// so they cannot disagree. Each gap also names the stretch without a check around it: from the
// last check before it (or the start of the period) to the next one (or the end of the period).
import { UserError } from '../errors.js';
import type { SeriesMember } from './series.js';
import { durationMs, HOUR_MS } from './time.js';
import { definedFields } from '../defined.js';

/** More buckets than this would not show as a calendar (a 1h interval over a year). */
const MAX_BUCKETS = 2000;

export function parseInterval(text: string): number {
  const ms = durationMs(text) ?? 0;
  // The shortest interval: checks more often than hourly are not a cadence an audit plans for.
  if (ms < HOUR_MS) throw new UserError(`--interval ${text}: write a length of at least 1h, such as 7d (the default: weekly, as PCI DSS 11.6.1 asks), 1d or 2w`);
  return ms;
}

export interface SnapshotRef {
  file: string;
  takenAt: string;
}

export type BucketState = 'covered' | 'missed' | 'not-due';

interface CoverageBucket {
  from: string;
  to: string;
  snapshots: number;
  state: BucketState;
}

export interface CoverageGap {
  /** The missed buckets: the start of the first and the end of the last. */
  intervals: { from: string; to: string; count: number };
  /** The last check before the gap, or the start of the period. */
  from: string;
  /** The next check, or the end of the period. */
  to: string;
  durationMs: number;
  /** How much longer than the interval the stretch without a check was. */
  overMs: number;
  after?: SnapshotRef;
  before?: SnapshotRef;
}

export interface Coverage {
  checks: number;
  buckets: CoverageBucket[];
  gaps: CoverageGap[];
  longestWithoutCheckMs: number;
}

interface Check {
  at: number;
  ref: SnapshotRef;
}

export function coverage(members: readonly SeriesMember[], period: { from: number; to: number }, intervalMs: number): Coverage {
  const times: Check[] = members.map((m) => ({ at: Date.parse(m.snapshot.takenAt), ref: { file: m.file, takenAt: m.snapshot.takenAt } }));
  const inside = times.filter((t) => t.at >= period.from && t.at <= period.to);
  const baseline = times.filter((t) => t.at < period.from).at(-1);
  const cut = buckets(inside, baseline, period, intervalMs);
  return { checks: inside.length, buckets: cut, gaps: gaps(cut, inside, baseline, period, intervalMs), longestWithoutCheckMs: longestStretch(inside, baseline, period) };
}

function buckets(inside: readonly Check[], baseline: Check | undefined, period: { from: number; to: number }, intervalMs: number): CoverageBucket[] {
  const count = Math.ceil((period.to - period.from) / intervalMs);
  if (count > MAX_BUCKETS) throw new UserError(`the period holds ${count} intervals; choose a longer --interval or a shorter period (at most ${MAX_BUCKETS})`);
  const out: CoverageBucket[] = [];
  for (let start = period.from; start < period.to; start += intervalMs) {
    const end = Math.min(start + intervalMs, period.to);
    const last = end === period.to;
    const snapshots = inside.filter((t) => t.at >= start && (last ? t.at <= end : t.at < end)).length;
    const lastCheck = inside.filter((t) => t.at < start).at(-1)?.at ?? baseline?.at ?? period.from;
    const state: BucketState = snapshots > 0 ? 'covered' : end - start === intervalMs || end - lastCheck > intervalMs ? 'missed' : 'not-due';
    out.push({ from: new Date(start).toISOString(), to: new Date(end).toISOString(), snapshots, state });
  }
  return out;
}

/** Each run of missed buckets, with the stretch without a check that holds it. */
function gaps(cut: readonly CoverageBucket[], inside: readonly Check[], baseline: Check | undefined, period: { from: number; to: number }, intervalMs: number): CoverageGap[] {
  const out: CoverageGap[] = [];
  for (let i = 0; i < cut.length; i++) {
    if (cut[i]?.state !== 'missed') continue;
    let j = i;
    while (cut[j + 1]?.state === 'missed') j++;
    const start = Date.parse(cut[i]?.from ?? '');
    const end = Date.parse(cut[j]?.to ?? '');
    const after = inside.filter((t) => t.at < start).at(-1) ?? baseline;
    const before = inside.find((t) => t.at >= end);
    const from = after?.at ?? period.from;
    const to = before?.at ?? period.to;
    out.push({
      intervals: { from: new Date(start).toISOString(), to: new Date(end).toISOString(), count: j - i + 1 },
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      durationMs: to - from,
      overMs: Math.max(0, to - from - intervalMs),
      ...definedFields({ after: after?.ref, before: before?.ref }),
    });
    i = j;
  }
  return out;
}

/** The longest stretch of the period without a check, for information: the verdict reads the buckets. */
function longestStretch(inside: readonly Check[], baseline: Check | undefined, period: { from: number; to: number }): number {
  let longest = 0;
  let last = baseline?.at ?? period.from;
  for (const at of [...inside.map((t) => t.at), period.to]) {
    longest = Math.max(longest, at - last);
    last = at;
  }
  return longest;
}
