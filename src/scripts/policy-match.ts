// Matching script records against `scripts-policy.yaml` (docs/behaviour.md, "Script inventory"). Pure: `now` decides expiry.
import type { ScriptRecord, SnapshotRecord } from './model.js';
import type { SourceLocation } from '../semantics/model.js';

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
  /** Where the entry was written, for messages. */
  source: SourceLocation;
}

export interface Policy {
  /** Relative to the working directory. */
  file: string;
  entries: PolicyEntry[];
}

type ApprovalVerdict = Pick<SnapshotRecord, 'approvedBy' | 'approvalNote'> & { approved: boolean };

/** `pattern: https://js.stripe.com/*` — how an entry is named in snapshots and reports. */
export function entryLabel(entry: PolicyEntry): string {
  if (entry.id !== undefined) return `id: ${entry.id}`;
  if (entry.pattern !== undefined) return `pattern: ${entry.pattern}`;
  return `vendor: ${entry.vendor ?? ''}`;
}

/**
 * Compiles a URL glob: `*` is any run of characters; everything else matches itself.
 * Matched without regular expressions: a regex `^a.*b.*c.*d$` backtracks for minutes on a
 * long URL. Here the text between stars is found left to right, each at its first place
 * after the previous one, which is the whole search a star-only glob needs: one pass over
 * the URL per literal part (docs/security.md, "Bounded resources").
 */
export function compileGlob(glob: string): (text: string) => boolean {
  const parts = glob.split('*');
  const head = parts[0] ?? '';
  if (parts.length === 1) return (text) => text === head;
  const tail = parts[parts.length - 1] ?? '';
  const middle = parts.slice(1, -1).filter((part) => part !== '');
  return (text) => {
    if (text.length < head.length + tail.length || !text.startsWith(head) || !text.endsWith(tail)) return false;
    let position = head.length;
    const end = text.length - tail.length;
    for (const part of middle) {
      const found = text.indexOf(part, position);
      if (found < 0 || found + part.length > end) return false;
      position = found + part.length;
    }
    return true;
  };
}

/** The first instant at which an approval with this `expires` date no longer holds. */
export function expiryInstant(expires: string): number {
  const [year, month, day] = expires.split('-').map(Number);
  return Date.UTC(year ?? 0, (month ?? 1) - 1, (day ?? 1) + 1);
}

/** A matcher compiled once per policy, so a 100k-record report does not rebuild regexes. */
type PolicyMatcher = (record: ScriptRecord) => ApprovalVerdict;

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
    const matches = compileGlob(entry.pattern);
    return (record) => typeof record.id === 'string' && matches(record.id);
  }
  const vendor = (entry.vendor ?? '').trim().toLowerCase();
  return (record) => record.vendor !== undefined && record.vendor.trim().toLowerCase() === vendor;
}

/**
 * The entry that decides a record at `now`: the first one in force that matches, else the
 * first expired one that matches (the approval that lapsed), else none.
 */
export function decidingEntry(policy: Policy, record: ScriptRecord, now: number): { entry: PolicyEntry; expired: boolean } | undefined {
  let lapsed: PolicyEntry | undefined;
  for (const entry of policy.entries) {
    if (!entryTest(entry)(record)) continue;
    if (!isExpired(entry, now)) return { entry, expired: false };
    lapsed ??= entry;
  }
  return lapsed ? { entry: lapsed, expired: true } : undefined;
}

/**
 * Which entries matched at least one record, whether or not they decided it (an earlier entry
 * may have): an entry that matches nothing is most often a typo or a URL that changed, and
 * approves nothing while it looks like an approval. Each record is tested only against the
 * entries not matched yet, so a long inventory soon costs nothing.
 */
export function entryUsage(policy: Policy): { note(record: ScriptRecord): void; unmatched(): PolicyEntry[] } {
  const waiting = new Map(policy.entries.map((entry) => [entry, entryTest(entry)]));
  return {
    note(record) {
      for (const [entry, matches] of waiting) if (matches(record)) waiting.delete(entry);
    },
    unmatched: () => [...waiting.keys()],
  };
}

/** `scripts-policy.yaml:47:5: approved entry "id: …" matches no script in NEW; check its id`. */
export function unmatchedWarning(entry: PolicyEntry, where: string): string {
  const field = entry.id !== undefined ? 'id' : entry.pattern !== undefined ? 'pattern' : 'vendor';
  return `${entry.source.file}:${entry.source.line}:${entry.source.col}: approved entry "${entryLabel(entry)}" matches no script ${where}; check its ${field}, or remove the entry`;
}
