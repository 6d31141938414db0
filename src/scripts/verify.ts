// Checking the chain of one scope's snapshots (`scripts verify`, and the evidence pack's
// chain state). Pure. The snapshots are walked oldest first; each one's recorded digest is
// compared with its content, and each link with the snapshot before it. A break is named by
// the snapshot it concerns: altered (content changed after it was sealed or linked to),
// removed (a linked snapshot is missing), inserted (a snapshot the chain does not pass
// through), unlinked (a snapshot that starts a new chain in the middle of the series),
// stripped (no chain, yet written by a botrules that writes one), unchained (no snapshot of
// the scope carries a chain, so nothing is checked) or unanchored (the head recorded elsewhere
// is not among them).
//
// What this proves: the chain has no key, so it shows only that the snapshots present agree
// with each other. Removing the newest snapshots, or editing snapshots and sealing them again,
// leaves a consistent chain; only an anchor kept elsewhere (a head digest the CI run recorded,
// `--anchor`) shows that the series reaches the head it had.
import type { SeriesMember } from './series.js';
import { plural } from '../plural.js';
import { definedFields } from '../defined.js';
import { writesChain } from './chain.js';

type ChainBreakKind = 'altered' | 'removed' | 'inserted' | 'unlinked' | 'stripped' | 'unchained' | 'unanchored';

/** A head digest recorded outside the series (`--anchor FILE|DIGEST`). */
export interface ChainAnchor {
  sha256: string;
  /** Where it was read: the file, or `the digest given`. */
  source: string;
}

interface ChainBreak {
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
  /** What the check proves: the anchor it was held against, or that it had none. */
  anchor: string;
}

/**
 * `anchor`: the head recorded elsewhere that this scope must reach; `null` when one was given
 * but belongs to another scope of the directory; undefined when none was given.
 */
export function verifyChain(scope: string, members: readonly SeriesMember[], anchor?: ChainAnchor | null): ChainState {
  const found: (ChainBreak & { position: number })[] = [];
  const report: Report = (position, kind, member, message, missing) => {
    if (found.some((b) => b.kind === kind && b.file === member.file)) return;
    found.push({ position, kind, file: member.file, takenAt: member.snapshot.takenAt, message, ...definedFields({ missing }) });
  };
  const firstChained = members.findIndex((m) => m.snapshot.chain !== undefined);
  const legacy = (firstChained < 0 ? members : members.slice(0, firstChained)).map((m) => m.file);
  members.forEach((member, i) => {
    const chain = member.snapshot.chain;
    // A snapshot without a chain may start the series only when its botrules wrote none.
    if (!chain && writesChain(member.snapshot.tool.version)) {
      report(i, 'stripped', member, `carries no chain link, yet botrules ${member.snapshot.tool.version} (which wrote it) writes one: its chain was removed`);
      return;
    }
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
  if (head && firstChained < 0 && found.length === 0) {
    report(members.length, 'unchained', head, `no snapshot of ${scope} carries a chain: nothing shows they are as they were written (take the next report with --previous)`);
  }
  const anchored = checkAnchor(members, anchor);
  if (anchored.broken && head) report(members.length + 1, 'unanchored', head, anchored.broken);
  return {
    scope,
    snapshots: members.length,
    legacy,
    start: describeStart(members, firstChained, legacy.length),
    breaks: found.sort((a, b) => a.position - b.position).map(({ position: _p, ...rest }) => rest),
    ...(head ? { head: { file: head.file, takenAt: head.snapshot.takenAt, sha256: head.digest } } : {}),
    anchor: anchored.text,
  };
}

const UNANCHORED = 'not anchored: the chain shows only that the snapshots present agree with each other; ' +
  'removing the newest, or editing snapshots and sealing them again, would not show without a head digest recorded elsewhere (--anchor)';

/** Whether the recorded head is one of the members, by the digest of its content now. */
function checkAnchor(members: readonly SeriesMember[], anchor: ChainAnchor | null | undefined): { text: string; broken?: string } {
  if (anchor === undefined) return { text: UNANCHORED };
  if (anchor === null) return { text: `${UNANCHORED}; the anchor given belongs to another scope` };
  const at = members.findIndex((m) => m.digest === anchor.sha256);
  const named = `the anchor ${anchor.sha256} (${anchor.source})`;
  if (at < 0) {
    return {
      text: `${named} matches no snapshot here`,
      broken: `${named} matches no snapshot here: the snapshot it names was removed, or edited and sealed again`,
    };
  }
  const after = members.length - 1 - at;
  const member = members[at] as SeriesMember;
  return { text: `anchored: ${named} is ${member.file} (taken ${member.snapshot.takenAt})${after === 0 ? ', the newest' : `; ${plural(after, 'snapshot')} after it`}` };
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
  if (firstChained < 0) return `${plural(legacyCount, 'snapshot')} without a chain (no digests to check)`;
  const first = members[firstChained] as SeriesMember;
  const parts: string[] = [];
  if (legacyCount > 0) parts.push(`${plural(legacyCount, 'snapshot')} written before the chain existed are accepted as its start`);
  const link = first.snapshot.chain?.previous;
  if (link && legacyCount === 0) parts.push(`the chain in this directory starts at ${first.file}, which links to a snapshot taken at ${link.takenAt} that is not here (accepted as the start)`);
  else if (!link) parts.push(`the chain starts at ${first.file}`);
  else parts.push(`the chain continues from them at ${first.file}`);
  return parts.join('; ');
}
