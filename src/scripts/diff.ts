// Comparing two snapshots (docs/behaviour.md, "Commands", "Exit codes"). Pure.
// Different time windows are the normal case (last week against this week); different apps
// or domains are not comparable and are refused.
import { UserError } from '../errors.js';
import type { Snapshot, SnapshotRecord } from './model.js';
import { compareForDisplay, isHighRisk, recordIdentity, recordLabel, riskRank } from './records.js';
import { definedFields } from '../defined.js';

type RiskDirection = 'up' | 'down' | 'changed';

interface ValueChange {
  from?: string;
  to?: string;
}

/** A script present in both snapshots whose risk, vendor, type or page types differ. */
export interface ScriptChange {
  label: string;
  record: SnapshotRecord;
  risk?: ValueChange & { direction: RiskDirection };
  vendor?: ValueChange;
  type?: ValueChange;
  pageTypes?: { added: string[]; removed: string[] };
  /** `checkout` is among the page types now and was not before. */
  newlyOnCheckout: boolean;
}

export interface SnapshotSide {
  takenAt: string;
  from: string;
  to: string;
  count: number;
}

export interface SnapshotDiff {
  appId: string[];
  tld: string[];
  old: SnapshotSide;
  new: SnapshotSide;
  added: SnapshotRecord[];
  removed: SnapshotRecord[];
  changed: ScriptChange[];
  unchanged: number;
}

export const FAIL_ON_CONDITIONS = ['new', 'risk-up', 'unapproved', 'high-risk'] as const;
export type FailOnCondition = (typeof FAIL_ON_CONDITIONS)[number];

export interface FailOnMatch {
  condition: FailOnCondition;
  /** Labels of the scripts that matched. */
  scripts: string[];
}

const CHECKOUT_PAGE_TYPE = 'checkout';

export function diffSnapshots(older: Snapshot, newer: Snapshot): SnapshotDiff {
  assertSameInventory(older, newer);
  const before = new Map(older.records.map((r) => [recordIdentity(r), r]));
  const after = new Map(newer.records.map((r) => [recordIdentity(r), r]));
  const added = [...after].filter(([id]) => !before.has(id)).map(([, r]) => r);
  const removed = [...before].filter(([id]) => !after.has(id)).map(([, r]) => r);
  const changed: ScriptChange[] = [];
  let unchanged = 0;
  for (const [id, now] of after) {
    const then = before.get(id);
    if (!then) continue;
    const change = compareRecord(then, now);
    if (change) changed.push(change);
    else unchanged += 1;
  }
  return {
    appId: sortedSet(newer.query.appId),
    tld: sortedSet(newer.query.tld),
    old: side(older),
    new: side(newer),
    added: added.sort(compareForDisplay),
    removed: removed.sort(compareForDisplay),
    changed: changed.sort((a, b) => compareForDisplay(a.record, b.record)),
    unchanged,
  };
}

/** Parses `--fail-on` values: repeated flags and comma-separated lists both work. */
export function parseFailOn(values: readonly string[]): FailOnCondition[] {
  const names = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  const unknown = names.filter((n) => !(FAIL_ON_CONDITIONS as readonly string[]).includes(n));
  if (unknown.length > 0) {
    throw new UserError(`--fail-on: unknown condition ${unknown.join(', ')}; choose from ${FAIL_ON_CONDITIONS.join(', ')}`);
  }
  return [...new Set(names as FailOnCondition[])];
}

/**
 * Evaluates the `--fail-on` conditions. `unapproved` and `high-risk` look at every record of
 * the new snapshot (`newRecords`, already re-marked when a policy was given on the command line).
 */
export function evaluateFailOn(diff: SnapshotDiff, newRecords: readonly SnapshotRecord[], conditions: readonly FailOnCondition[]): FailOnMatch[] {
  const matches: FailOnMatch[] = [];
  for (const condition of conditions) {
    const scripts = matchingScripts(condition, diff, newRecords).map(recordLabel);
    if (scripts.length > 0) matches.push({ condition, scripts });
  }
  return matches;
}

/** True when at least one record carries an approval verdict (the report ran with a policy). */
export function hasApprovalMarks(records: readonly SnapshotRecord[]): boolean {
  return records.some((r) => typeof r.approved === 'boolean');
}

function matchingScripts(condition: FailOnCondition, diff: SnapshotDiff, newRecords: readonly SnapshotRecord[]): SnapshotRecord[] {
  switch (condition) {
    case 'new':
      return diff.added;
    case 'risk-up':
      return diff.changed.filter((c) => c.risk?.direction === 'up').map((c) => c.record);
    case 'high-risk':
      return [...newRecords].filter(isHighRisk).sort(compareForDisplay);
    case 'unapproved':
      return [...newRecords].filter((r) => r.approved !== true).sort(compareForDisplay);
  }
}

function compareRecord(then: SnapshotRecord, now: SnapshotRecord): ScriptChange | undefined {
  const change: ScriptChange = { label: recordLabel(now), record: now, newlyOnCheckout: false };
  const risk = riskChange(then.risk?.level, now.risk?.level);
  if (risk) change.risk = risk;
  if (then.vendor !== now.vendor) change.vendor = valueChange(then.vendor, now.vendor);
  if (then.type !== now.type) change.type = valueChange(then.type, now.type);
  const oldPages = new Set(then.page_types ?? []);
  const newPages = new Set(now.page_types ?? []);
  const pagesAdded = [...newPages].filter((p) => !oldPages.has(p)).sort();
  const pagesRemoved = [...oldPages].filter((p) => !newPages.has(p)).sort();
  if (pagesAdded.length > 0 || pagesRemoved.length > 0) change.pageTypes = { added: pagesAdded, removed: pagesRemoved };
  change.newlyOnCheckout = pagesAdded.includes(CHECKOUT_PAGE_TYPE);
  const differs = change.risk || change.vendor || change.type || change.pageTypes;
  return differs ? change : undefined;
}

/** Levels compare case-insensitively on low < medium < high < critical; unknown levels only "change". */
function riskChange(from: string | undefined, to: string | undefined): (ValueChange & { direction: RiskDirection }) | undefined {
  if ((from ?? '').toLowerCase() === (to ?? '').toLowerCase()) return undefined;
  const a = riskRank(from);
  const b = riskRank(to);
  const direction: RiskDirection = a === undefined || b === undefined ? 'changed' : b > a ? 'up' : 'down';
  return { ...valueChange(from, to), direction };
}

function valueChange(from: string | undefined, to: string | undefined): ValueChange {
  return { ...definedFields({ from, to }) };
}

function assertSameInventory(older: Snapshot, newer: Snapshot): void {
  const describe = (s: Snapshot) => `appId ${sortedSet(s.query.appId).join(',')}, tld ${sortedSet(s.query.tld).join(',')}`;
  if (describe(older) !== describe(newer)) {
    throw new UserError('the snapshots cover different apps or domains and cannot be compared', [
      `OLD: ${describe(older)}`,
      `NEW: ${describe(newer)}`,
      'Compare two reports taken with the same --app-id and --tld (their time windows may differ).',
    ]);
  }
}

function sortedSet(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

function side(snapshot: Snapshot): SnapshotSide {
  return { takenAt: snapshot.takenAt, from: snapshot.query.from, to: snapshot.query.to, count: snapshot.records.length };
}
