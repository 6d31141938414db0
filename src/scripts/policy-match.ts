// Matching script records against `scripts-policy.yaml` (docs/behaviour.md, "Script inventory"). Pure: `now` decides expiry.
import type { ScriptRecord, SnapshotRecord } from './model.js';

/** Where an entry was written, for messages. */
export interface EntrySource {
  file: string;
  line: number;
  col: number;
}

/**
 * One approved script, vendor or URL family. Exactly one matcher is set:
 *  - `id`: the script location exactly as the inventory reports it;
 *  - `pattern`: a URL glob where `*` matches any run of characters (including `/`), all else literal;
 *  - `vendor`: the vendor name, compared case-insensitively.
 */
export interface PolicyEntry {
  id?: string;
  pattern?: string;
  vendor?: string;
  justification: string;
  owner: string;
  /** YYYY-MM-DD; the approval holds through that day (UTC). */
  expires?: string;
  source: EntrySource;
}

export interface Policy {
  /** Relative to the working directory. */
  file: string;
  entries: PolicyEntry[];
}

export interface Verdict {
  approved: boolean;
  approvedBy?: string;
  approvalNote?: string;
}

/** `pattern: https://js.stripe.com/*` — how an entry is named in snapshots and reports. */
export function entryLabel(entry: PolicyEntry): string {
  if (entry.id !== undefined) return `id: ${entry.id}`;
  if (entry.pattern !== undefined) return `pattern: ${entry.pattern}`;
  return `vendor: ${entry.vendor ?? ''}`;
}

/** Compiles a URL glob: `*` is any run of characters; everything else matches itself. */
export function globToRegExp(glob: string): RegExp {
  const body = glob
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 's');
}

/** The first instant at which an approval with this `expires` date no longer holds. */
export function expiryInstant(expires: string): number {
  const [year, month, day] = expires.split('-').map(Number);
  return Date.UTC(year ?? 0, (month ?? 1) - 1, (day ?? 1) + 1);
}

/** A matcher compiled once per policy, so a 100k-record report does not rebuild regexes. */
export type PolicyMatcher = (record: ScriptRecord) => Verdict;

export function compilePolicy(policy: Policy, now: number): PolicyMatcher {
  const tests = policy.entries.map((entry) => ({ entry, matches: entryTest(entry), expired: isExpired(entry, now) }));
  return (record) => {
    let expiredMatch: PolicyEntry | undefined;
    for (const { entry, matches, expired } of tests) {
      if (!matches(record)) continue;
      if (!expired) return { approved: true, approvedBy: entryLabel(entry) };
      expiredMatch ??= entry;
    }
    if (expiredMatch) {
      return { approved: false, approvalNote: `approval (${entryLabel(expiredMatch)}) expired on ${expiredMatch.expires ?? ''}` };
    }
    return { approved: false };
  };
}

/** A copy of the record carrying the verdict (and no stale verdict from an earlier run). */
export function markRecord(record: ScriptRecord, matcher: PolicyMatcher): SnapshotRecord {
  const { approved: _a, approvedBy: _b, approvalNote: _n, ...rest } = record as SnapshotRecord;
  return { ...rest, ...matcher(record) };
}

function isExpired(entry: PolicyEntry, now: number): boolean {
  return entry.expires !== undefined && now >= expiryInstant(entry.expires);
}

function entryTest(entry: PolicyEntry): (record: ScriptRecord) => boolean {
  if (entry.id !== undefined) {
    const id = entry.id;
    return (record) => record.id === id;
  }
  if (entry.pattern !== undefined) {
    const regex = globToRegExp(entry.pattern);
    return (record) => record.id !== undefined && regex.test(record.id);
  }
  const vendor = (entry.vendor ?? '').trim().toLowerCase();
  return (record) => record.vendor !== undefined && record.vendor.trim().toLowerCase() === vendor;
}
