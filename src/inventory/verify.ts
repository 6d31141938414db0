// Checking the chain of one scope's snapshots (`scripts verify`, and the evidence pack's
// chain state). Pure. The snapshots are walked oldest first; each one's recorded digest is
// compared with its content, and each link with the snapshot before it. A break is named by
// the snapshot it concerns: altered (content changed after it was sealed or linked to),
// removed (a linked snapshot is missing), inserted (a snapshot the chain does not pass
// through) or unlinked (a snapshot that starts a new chain in the middle of the series).
import type { SeriesMember } from './series.js';
import { plural } from '../plural.js';

export type ChainBreakKind = 'altered' | 'removed' | 'inserted' | 'unlinked';

export interface ChainBreak {
  kind: ChainBreakKind;
  /** The snapshot concerned; for `removed`, the one whose link points at the missing snapshot. */
  file: string;
  takenAt: string;
  message: string;
  /** For `removed`: the missing snapshot, as the link names it, and the one before the gap. */
  missing?: { takenAt: string; after?: string };
}

export interface ChainState {
  scope: string;
  snapshots: number;
  /** Snapshots written before the chain existed, accepted as its start. */
  legacy: string[];
  /** How the chain starts, in a sentence. */
  start: string;
  /** In series order: the first is the first snapshot altered, removed or inserted. */
  breaks: ChainBreak[];
  /** The newest snapshot and its digest: compare it with the one the last CI run printed. */
  head?: { file: string; takenAt: string; sha256: string };
}

export function verifyChain(scope: string, members: readonly SeriesMember[]): ChainState {
  const found: (ChainBreak & { position: number })[] = [];
  const report: Report = (position, kind, member, message, missing) => {
    if (found.some((b) => b.kind === kind && b.file === member.file)) return;
    found.push({ position, kind, file: member.file, takenAt: member.snapshot.takenAt, message, ...(missing ? { missing } : {}) });
  };
  const firstChained = members.findIndex((m) => m.snapshot.chain !== undefined);
  const legacy = (firstChained < 0 ? members : members.slice(0, firstChained)).map((m) => m.file);
  members.forEach((member, i) => {
    const chain = member.snapshot.chain;
    if (i < firstChained || firstChained < 0) return;
    if (!chain) {
      report(i, 'inserted', member, `carries no chain link, yet the chain began at ${members[firstChained]?.file ?? ''}: inserted, or written by an older botrules`);
      return;
    }
    if (chain.sha256 !== member.digest) report(i, 'altered', member, 'its content no longer matches the digest it recorded when it was written');
    if (i === firstChained) {
      checkFirstLink(i, member, members, report);
      return;
    }
    checkLink(i, member, members, report);
  });
  const head = members.at(-1);
  return {
    scope,
    snapshots: members.length,
    legacy,
    start: describeStart(members, firstChained, legacy.length),
    breaks: found.sort((a, b) => a.position - b.position).map(({ position: _p, ...rest }) => rest),
    ...(head ? { head: { file: head.file, takenAt: head.snapshot.takenAt, sha256: head.digest } } : {}),
  };
}

type Report = (position: number, kind: ChainBreakKind, member: SeriesMember, message: string, missing?: ChainBreak['missing']) => void;

/**
 * A break in a few words, for summaries: `series/b.json altered`; for a removed snapshot, which
 * is not there to name, when it was taken and between which files it is missing.
 */
export function breakSummary(b: ChainBreak): string {
  if (b.kind !== 'removed' || !b.missing) return `${b.file} ${b.kind}`;
  const where = b.missing.after ? `between ${b.missing.after} and ${b.file}` : `before ${b.file}`;
  return `the snapshot taken at ${b.missing.takenAt} is missing, ${where}`;
}

/** The first chained snapshot may link to the last one written before the chain, or to one not in DIR. */
function checkFirstLink(i: number, member: SeriesMember, members: readonly SeriesMember[], report: Report): void {
  const link = member.snapshot.chain?.previous;
  const before = members[i - 1];
  if (!link || !before) return;
  if (link.sha256 === before.digest) return;
  if (link.takenAt === before.snapshot.takenAt) {
    report(i - 1, 'altered', before, `its content changed after ${member.file} linked to it`);
  } else {
    report(i - 0.5, 'removed', member, `links to a snapshot taken at ${link.takenAt}, which is missing after ${before.file}`, { takenAt: link.takenAt, after: before.file });
  }
}

function checkLink(i: number, member: SeriesMember, members: readonly SeriesMember[], report: Report): void {
  const before = members[i - 1] as SeriesMember;
  const link = member.snapshot.chain?.previous;
  if (link === null || link === undefined) {
    report(i, 'unlinked', member, `starts a new chain instead of linking to ${before.file} (taken ${before.snapshot.takenAt}): inserted, or written without --previous`);
    return;
  }
  if (link.sha256 === before.digest) return;
  const linked = members.slice(0, i - 1).findIndex((m) => m.digest === link.sha256);
  if (linked >= 0) {
    for (let k = linked + 1; k < i; k++) {
      const skipped = members[k] as SeriesMember;
      report(k, 'inserted', skipped, `the chain does not pass through it: ${member.file} links to ${members[linked]?.file ?? ''}`);
    }
  } else if (before.snapshot.chain?.sha256 === link.sha256 || before.snapshot.takenAt === link.takenAt) {
    report(i - 1, 'altered', before, `its content changed after ${member.file} linked to it`);
  } else {
    report(i - 0.5, 'removed', member, `links to a snapshot taken at ${link.takenAt}, which is missing between ${before.file} and it`, { takenAt: link.takenAt, after: before.file });
  }
}

function describeStart(members: readonly SeriesMember[], firstChained: number, legacyCount: number): string {
  if (members.length === 0) return 'no snapshots';
  if (firstChained < 0) return `${plural(legacyCount, 'snapshot')} written before the chain existed (no digests to check); accepted as they are`;
  const first = members[firstChained] as SeriesMember;
  const parts: string[] = [];
  if (legacyCount > 0) parts.push(`${plural(legacyCount, 'snapshot')} written before the chain existed are accepted as its start`);
  const link = first.snapshot.chain?.previous;
  if (link && legacyCount === 0) parts.push(`the chain in this directory starts at ${first.file}, which links to a snapshot taken at ${link.takenAt} that is not here (accepted as the start)`);
  else if (!link) parts.push(`the chain starts at ${first.file}`);
  else parts.push(`the chain continues from them at ${first.file}`);
  return parts.join('; ');
}
