// The evidence pack of an assessment period (`scripts evidence`): coverage, the inventory at
// the end of the period with each script's approval, every change, who approved what, and
// the chain's state, with a verdict. Pure: the series, the policy and its git history come in.
import { periodChanges, type JudgedSnapshot, type PeriodChange } from './changes.js';
import { coverage, type Coverage, type CoverageGap, type SnapshotRef } from './coverage.js';
import { describeDuration, describeSpan, intervalName, utcInstant } from './duration.js';
import type { SnapshotRecord } from './model.js';
import type { PolicyHistory, PolicyCommit } from './policy-history.js';
import { compilePolicy, decidingEntry, entryLabel, entryUsage, expiryInstant, unmatchedWarning, type Policy } from './policy-match.js';
import { recordIdentity, recordLabel, riskRank } from './records.js';
import type { SeriesMember } from './series.js';
import { breakSummary, type ChainState } from './verify.js';
import { VERSION } from '../version.js';
import { plural, noun } from '../plural.js';

type ApprovalStatus = 'unapproved' | 'expired' | 'approved' | 'unknown';

export interface InventoryEntry {
  label: string;
  key?: string;
  vendor?: string;
  type?: string;
  risk?: { level?: string; reason?: string };
  pageTypes: string[];
  status: ApprovalStatus;
  approval?: { entry: string; justification: string; owner: string; expires?: string };
  note?: string;
  firstSeen?: string;
  lastSeen?: string;
  firstSnapshot: SnapshotRef;
  lastSnapshot: SnapshotRef;
}

type VerdictReason = 'no-snapshots' | 'coverage-gap' | 'chain-broken' | 'unapproved-scripts' | 'unreadable-files';

export interface EvidencePack {
  formatVersion: 1;
  kind: 'botrules-evidence';
  generatedAt: string;
  tool: { name: 'botrules'; version: string };
  scope: { appId: string[]; tld: string[] };
  period: { from: string; to: string; interval: string; intervalMs: number };
  verdict: { pass: boolean; reasons: { code: VerdictReason; message: string }[] };
  snapshots: (SnapshotRef & { scripts: number; unapproved?: number })[];
  coverage: Coverage;
  inventory: { snapshot?: SnapshotRef; approvalSource: string; scripts: InventoryEntry[] };
  changes: PeriodChange[];
  approvals: { git: boolean; note: string; policyFile?: string; unmatched?: string[]; entries: { entry: string; justification: string; owner: string; expires?: string; line: number; history: PolicyCommit[] }[] };
  chain: ChainState;
  unreadable: { file: string; reason: string }[];
  /** What the pack does not prove, said in the pack itself. */
  limitations: string[];
}

/**
 * PCI DSS 11.6.1 covers security-impacting HTTP headers of the payment pages as well as their
 * scripts; the service's scripts API lists scripts only, so the pack proves nothing about headers.
 */
const LIMITATIONS = [
  'Security-impacting HTTP headers of the payment pages (which PCI DSS 11.6.1 also covers) are outside this pack: it proves the script inventory only, so monitor and evidence headers separately.',
];

interface EvidenceInput {
  members: readonly SeriesMember[];
  scope: { appId: string[]; tld: string[] };
  period: { from: number; to: number };
  interval: { text: string; ms: number };
  policy?: Policy;
  history?: PolicyHistory;
  chain: ChainState;
  unreadable: { file: string; reason: string }[];
  now: number;
}

/** How a snapshot's approval mark names a lapsed approval (policy-match.ts, compilePolicy). */
const EXPIRED_ON = /\bexpired on (\d{4}-\d{2}-\d{2})\b/;
const STATUS_ORDER: Record<ApprovalStatus, number> = { unapproved: 0, expired: 1, unknown: 2, approved: 3 };

export function buildEvidence(input: EvidenceInput): EvidencePack {
  const { period } = input;
  const inPeriod = input.members.filter((m) => inside(m, period));
  const baseline = input.members.filter((m) => Date.parse(m.snapshot.takenAt) < period.from).at(-1);
  const judged = [...(baseline ? [baseline] : []), ...inPeriod].map((m) => judge(m, input.policy));
  const covered = coverage(input.members, period, input.interval.ms);
  const final = inPeriod.at(-1);
  const scripts = final ? inventoryAtEnd(judged, input.policy, period.to) : [];
  const pack: EvidencePack = {
    formatVersion: 1,
    kind: 'botrules-evidence',
    generatedAt: new Date(input.now).toISOString(),
    tool: { name: 'botrules', version: VERSION },
    scope: input.scope,
    period: { from: new Date(period.from).toISOString(), to: new Date(period.to).toISOString(), interval: input.interval.text, intervalMs: input.interval.ms },
    verdict: { pass: true, reasons: [] },
    snapshots: inPeriod.map((m, i) => ({ ...ref(m), scripts: m.snapshot.records.length, ...unapprovedCount(judged[baseline ? i + 1 : i] as JudgedSnapshot) })),
    coverage: covered,
    inventory: { ...(final ? { snapshot: ref(final) } : {}), approvalSource: approvalSource(final, input.policy), scripts },
    changes: periodChanges(judged, period.to),
    approvals: { ...approvals(input.policy, input.history), ...unmatched(input.policy, judged) },
    chain: input.chain,
    unreadable: input.unreadable,
    limitations: [...LIMITATIONS],
  };
  pack.verdict = verdict(pack);
  return pack;
}

function verdict(pack: EvidencePack): EvidencePack['verdict'] {
  const reasons: EvidencePack['verdict']['reasons'] = [];
  if (pack.snapshots.length === 0) reasons.push({ code: 'no-snapshots', message: 'no snapshot of these apps and domains was taken in the period' });
  for (const gap of pack.coverage.gaps) reasons.push({ code: 'coverage-gap', message: describeGap(gap, pack.period.intervalMs) });
  const broken = pack.chain.breaks[0];
  if (broken) reasons.push({ code: 'chain-broken', message: `the chain is broken: ${breakSummary(broken)} (${plural(pack.chain.breaks.length, 'break')})` });
  if (pack.unreadable.length > 0) reasons.push({ code: 'unreadable-files', message: `${plural(pack.unreadable.length, 'file')} in the directory could not be read as snapshots` });
  const unapproved = pack.inventory.scripts.filter((s) => s.status === 'unapproved' || s.status === 'expired');
  if (unapproved.length > 0) reasons.push({ code: 'unapproved-scripts', message: `${plural(unapproved.length, 'script is', 'scripts are')} not approved at the end of the period` });
  // Without marks or a policy nothing shows the scripts were authorised (6.4.3): that fails too.
  const unknown = pack.inventory.scripts.filter((s) => s.status === 'unknown').length;
  if (unknown > 0) reasons.push({ code: 'unapproved-scripts', message: `${plural(unknown, 'script has', 'scripts have')} no approval record: no policy marked or judged ${noun(unknown, 'it', 'them')}` });
  return { pass: reasons.length === 0, reasons };
}

/** `no snapshot in the interval 2026-01-19 to 2026-01-25: 14 days without one, from … to …, 7 days over the 7-day interval`. */
export function describeGap(gap: CoverageGap, intervalMs: number): string {
  const where = gap.intervals.count === 1 ? 'the interval' : `the ${plural(gap.intervals.count, 'interval')}`;
  const over = gap.overMs > 0 ? `${describeDuration(gap.overMs)} over` : 'the whole of';
  return `no snapshot in ${where} ${describeSpan(gap.intervals.from, gap.intervals.to)}: ${describeDuration(gap.durationMs)} without one, from ${gap.from} to ${gap.to}, ${over} the ${intervalName(intervalMs)} interval`;
}

function inside(member: SeriesMember, period: { from: number; to: number }): boolean {
  const at = Date.parse(member.snapshot.takenAt);
  return at >= period.from && at <= period.to;
}

function ref(member: SeriesMember): SnapshotRef {
  return { file: member.file, takenAt: member.snapshot.takenAt };
}

/** A snapshot's approvals: its own marks (the evidence as taken), else the policy judged at the time it was taken. */
function judge(member: SeriesMember, policy: Policy | undefined): JudgedSnapshot & { member: SeriesMember } {
  const snapshot = member.snapshot;
  const matcher = !snapshot.policy && policy ? compilePolicy(policy, Date.parse(snapshot.takenAt)) : undefined;
  const verdicts = new Map<SnapshotRecord, boolean>();
  const taken = Date.parse(snapshot.takenAt);
  return {
    member,
    ref: ref(member),
    records: snapshot.records,
    lapsedAt(record) {
      // The marks say which date the approval ran to; else the policy's entry, as judged then.
      const marked = EXPIRED_ON.exec(record.approvalNote ?? '')?.[1];
      const expires = marked ?? (policy && !snapshot.policy ? decidingEntry(policy, record, taken)?.entry.expires : undefined);
      return expires === undefined ? undefined : expiryInstant(expires);
    },
    approved(record) {
      if (snapshot.policy) return record.approved === true;
      if (!matcher) return undefined;
      let verdict = verdicts.get(record);
      if (verdict === undefined) verdicts.set(record, (verdict = matcher(record).approved));
      return verdict;
    },
  };
}

function unapprovedCount(step: JudgedSnapshot): { unapproved?: number } {
  const known = step.records.map((r) => step.approved(r));
  return known.some((v) => v === undefined) ? {} : { unapproved: known.filter((v) => v === false).length };
}

function approvalSource(final: SeriesMember | undefined, policy: Policy | undefined): string {
  if (final?.snapshot.policy) return `the approval marks ${final.file} was written with (policy ${final.snapshot.policy.file}); entries from ${policy?.file ?? 'no policy file given'}`;
  if (policy) return `${policy.file}, judged at each snapshot's time (the snapshots carry no approval marks)`;
  return 'none: the snapshots carry no approval marks and no policy file was given';
}

function inventoryAtEnd(judged: readonly (JudgedSnapshot & { member: SeriesMember })[], policy: Policy | undefined, end: number): InventoryEntry[] {
  const final = judged.at(-1) as JudgedSnapshot & { member: SeriesMember };
  const sightings = new Map<string, { first: SnapshotRef; last: SnapshotRef }>();
  for (const step of judged) {
    for (const record of step.records) {
      const id = recordIdentity(record);
      const seen = sightings.get(id);
      if (seen) seen.last = step.ref;
      else sightings.set(id, { first: step.ref, last: step.ref });
    }
  }
  const entries = final.records.map((record): InventoryEntry => {
    const approved = final.approved(record);
    const decided = policy ? decidingEntry(policy, record, end) : undefined;
    const expired = approved === false && (decided?.expired === true || /expired/.test(record.approvalNote ?? ''));
    const seen = sightings.get(recordIdentity(record)) ?? { first: final.ref, last: final.ref };
    return {
      label: recordLabel(record),
      ...(record.key ? { key: record.key } : {}),
      ...(record.vendor ? { vendor: record.vendor } : {}),
      ...(record.type ? { type: record.type } : {}),
      ...(record.risk ? { risk: { ...(record.risk.level ? { level: record.risk.level } : {}), ...(record.risk.reason ? { reason: record.risk.reason } : {}) } } : {}),
      pageTypes: record.page_types ?? [],
      status: approved === undefined ? 'unknown' : approved ? 'approved' : expired ? 'expired' : 'unapproved',
      ...(decided ? { approval: { entry: entryLabel(decided.entry), justification: decided.entry.justification, owner: decided.entry.owner, ...(decided.entry.expires ? { expires: decided.entry.expires } : {}) } } : {}),
      ...(record.approvalNote ? { note: record.approvalNote } : {}),
      ...(record.first_seen ? { firstSeen: utcInstant(record.first_seen) } : {}),
      ...(record.last_seen ? { lastSeen: utcInstant(record.last_seen) } : {}),
      firstSnapshot: seen.first,
      lastSnapshot: seen.last,
    };
  });
  return entries.sort(byAttention);
}

/** Unapproved first, then expired approvals; within each, the highest risk first, then by script. */
function byAttention(a: InventoryEntry, b: InventoryEntry): number {
  const risk = (e: InventoryEntry) => riskRank(e.risk?.level) ?? -1;
  return STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || risk(b) - risk(a) || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);
}

/** Policy entries that match no script of any snapshot walked (the period's, and the one before it). */
function unmatched(policy: Policy | undefined, judged: readonly JudgedSnapshot[]): { unmatched?: string[] } {
  if (!policy || judged.every((step) => step.records.length === 0)) return {};
  const usage = entryUsage(policy);
  for (const step of judged) for (const record of step.records) usage.note(record);
  const warnings = usage.unmatched().map((entry) => unmatchedWarning(entry, 'in the snapshots of the period'));
  return warnings.length > 0 ? { unmatched: warnings } : {};
}

function approvals(policy: Policy | undefined, history: PolicyHistory | undefined): EvidencePack['approvals'] {
  if (!policy) return { git: false, note: 'no policy file: scripts-policy.yaml is absent and --policy was not given', entries: [] };
  return {
    git: history?.git ?? false,
    note: history?.note ?? 'the git history was not read',
    policyFile: policy.file,
    entries: policy.entries.map((entry, i) => ({
      entry: entryLabel(entry),
      justification: entry.justification,
      owner: entry.owner,
      ...(entry.expires ? { expires: entry.expires } : {}),
      line: entry.source.line,
      history: history?.entries[i] ?? [],
    })),
  };
}
