// Every change of an assessment period, walked snapshot by snapshot. Pure. A change is named
// by the snapshot that first showed it; for a script that was unapproved when it changed,
// how long it stayed so: until a later snapshot showed it approved or gone, else to the end
// of the period.
import type { SnapshotRef } from './coverage.js';
import type { SnapshotRecord } from './model.js';
import { recordIdentity, recordLabel, riskRank } from './records.js';
import { definedFields } from '../defined.js';

type ChangeKind = 'added' | 'removed' | 'risk-raised' | 'approval-lapsed';

interface UnapprovedStretch {
  since: string;
  /** The snapshot that showed it approved or gone; absent while it stayed unapproved to the end. */
  until?: string;
  resolution: 'approved' | 'removed' | 'open';
  durationMs: number;
}

export interface PeriodChange {
  kind: ChangeKind;
  label: string;
  key?: string;
  vendor?: string;
  risk?: string;
  /** For risk-raised: the level before. */
  riskBefore?: string;
  note?: string;
  snapshot: SnapshotRef;
  unapproved?: UnapprovedStretch;
}

/** One snapshot of the walk: its records, each with its approval as judged for that snapshot. */
export interface JudgedSnapshot {
  ref: SnapshotRef;
  records: readonly SnapshotRecord[];
  /** undefined: no approval known (no marks and no policy). */
  approved(record: SnapshotRecord): boolean | undefined;
  /** For a record whose approval expired: the instant it stopped holding (the day after `expires`, UTC). */
  lapsedAt?(record: SnapshotRecord): number | undefined;
}

const CHANGE_ORDER: Record<ChangeKind, number> = { added: 0, 'risk-raised': 1, 'approval-lapsed': 2, removed: 3 };

/**
 * `steps[0]` is the baseline (the last snapshot before the period, else the period's first);
 * changes are reported for every later step, in time order, then by kind and script.
 */
export function periodChanges(steps: readonly JudgedSnapshot[], periodEnd: number): PeriodChange[] {
  const maps = steps.map((step) => new Map(step.records.map((r) => [recordIdentity(r), r])));
  const changes: PeriodChange[] = [];
  for (let i = 1; i < steps.length; i++) {
    const step = steps[i] as JudgedSnapshot;
    const before = maps[i - 1] as Map<string, SnapshotRecord>;
    const after = maps[i] as Map<string, SnapshotRecord>;
    const prev = steps[i - 1] as JudgedSnapshot;
    const found: PeriodChange[] = [];
    for (const [id, record] of after) {
      const then = before.get(id);
      if (!then) {
        found.push(change('added', record, step, stretch(steps, maps, i, id, periodEnd)));
        continue;
      }
      const from = riskRank(then.risk?.level);
      const to = riskRank(record.risk?.level);
      if (from !== undefined && to !== undefined && to > from) {
        found.push({ ...change('risk-raised', record, step, stretch(steps, maps, i, id, periodEnd)), ...(then.risk?.level ? { riskBefore: then.risk.level } : {}) });
      }
      if (prev.approved(then) === true && step.approved(record) === false) {
        const lapsed = lapseInstant(step, record, Date.parse(prev.ref.takenAt));
        found.push({ ...change('approval-lapsed', record, step, stretch(steps, maps, i, id, periodEnd, lapsed)), ...(record.approvalNote ? { note: record.approvalNote } : {}) });
      }
    }
    for (const [id, record] of before) if (!after.has(id)) found.push(change('removed', record, step, undefined));
    changes.push(...found.sort((a, b) => CHANGE_ORDER[a.kind] - CHANGE_ORDER[b.kind] || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0)));
  }
  return changes;
}

function change(kind: ChangeKind, record: SnapshotRecord, step: JudgedSnapshot, unapproved: UnapprovedStretch | undefined): PeriodChange {
  return {
    kind,
    label: recordLabel(record),
    ...(record.key ? { key: record.key } : {}),
    ...(record.vendor ? { vendor: record.vendor } : {}),
    ...(record.risk?.level ? { risk: record.risk.level } : {}),
    snapshot: step.ref,
    ...definedFields({ unapproved }),
  };
}

/**
 * When an approval that held at the snapshot before (taken at `after`) lapsed: its expiry,
 * when the approval says one in between; else the snapshot that first showed it lapsed.
 */
function lapseInstant(step: JudgedSnapshot, record: SnapshotRecord, after: number): number | undefined {
  const at = step.lapsedAt?.(record);
  return at !== undefined && at > after && at <= Date.parse(step.ref.takenAt) ? at : undefined;
}

/**
 * From step `i` (or from `lapsed`, when an approval's expiry says when it stopped holding),
 * while the script is present and unapproved; undefined when it was approved at `i`.
 */
function stretch(steps: readonly JudgedSnapshot[], maps: readonly Map<string, SnapshotRecord>[], i: number, id: string, periodEnd: number, lapsed?: number): UnapprovedStretch | undefined {
  const first = maps[i]?.get(id);
  const start = steps[i] as JudgedSnapshot;
  if (!first || start.approved(first) !== false) return undefined;
  const since = lapsed ?? Date.parse(start.ref.takenAt);
  const sinceText = new Date(since).toISOString();
  for (let k = i + 1; k < steps.length; k++) {
    const step = steps[k] as JudgedSnapshot;
    const record = maps[k]?.get(id);
    if (record && step.approved(record) === false) continue;
    const until = Date.parse(step.ref.takenAt);
    return { since: sinceText, until: step.ref.takenAt, resolution: record ? 'approved' : 'removed', durationMs: until - since };
  }
  return { since: sinceText, resolution: 'open', durationMs: Math.max(0, periodEnd - since) };
}
