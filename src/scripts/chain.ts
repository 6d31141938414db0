// The tamper-evident series (docs/behaviour.md, "Script inventory"): each json
// snapshot records the SHA-256 of its own canonical content and the digest of the previous
// snapshot of the same scope (apps and domains), over RFC 8785 canonical JSON so that anyone can
// recompute it with any tool (docs/inventory-chain.md). Editing a snapshot afterwards changes its
// digest, so either its own record or the link in the next snapshot no longer matches.
// Pure: digests are computed from parsed values, exactly as a reader sees the file.
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { UserError } from '../errors.js';
import type { ChainLink, Snapshot } from './model.js';

/** `sha256:` and 64 lowercase hex digits. */
export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** How the chain's digests serialise a snapshot, recorded in `chain.canonical` (docs/inventory-chain.md). */
const CANONICAL_JSON = 'rfc8785';

/**
 * RFC 8785 canonical JSON (the `canonicalize` package): keys sorted by UTF-16 code unit, no
 * whitespace, strings and numbers as ECMAScript writes them. Chains written before
 * `chain.canonical` existed hashed sorted-key JSON built the same way, which is the same text
 * for any value read from JSON (test/scripts/chain-canonical.e2e.test.ts holds both).
 */
export function rfc8785Json(value: unknown): string {
  let text: string | undefined;
  try {
    text = canonicalize(value);
  } catch (err) {
    // A lone surrogate (never in text botrules writes: records are made well-formed) or a non-finite number.
    throw new UserError(`the snapshot is not canonical JSON (RFC 8785): ${(err as Error).message}`);
  }
  if (text === undefined) throw new UserError('the snapshot is not canonical JSON (RFC 8785): nothing to serialise');
  return text;
}

/**
 * The digest of a snapshot: SHA-256 of its canonical JSON without `chain.sha256` (the field
 * that holds the result), so the link to the previous snapshot is covered too. Any snapshot
 * has one, including those written before the chain existed.
 */
export function snapshotDigest(snapshot: Snapshot): string {
  // A round trip through JSON: the digest is of the data a reader of the file gets back.
  const value = JSON.parse(JSON.stringify(snapshot)) as Record<string, unknown>;
  const chain = value.chain as Record<string, unknown> | undefined;
  if (chain && typeof chain === 'object') delete chain.sha256;
  return `sha256:${createHash('sha256').update(rfc8785Json(value), 'utf8').digest('hex')}`;
}

/**
 * The last release that wrote no chain. Its snapshots (and older ones) may start a series
 * unchained; a snapshot of any later version without a chain had it removed. The version is
 * part of the sealed content, so changing it in a chained snapshot breaks the chain too.
 */
const LAST_VERSION_WITHOUT_CHAIN = '0.1.0';

/** Whether botrules `version` writes a chain into every json snapshot (anything it cannot read as x.y.z does). */
export function writesChain(version: string): boolean {
  const parts = /^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(version);
  if (!parts) return true;
  const last = LAST_VERSION_WITHOUT_CHAIN.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const difference = Number(parts[i + 1]) - (last[i] ?? 0);
    if (difference !== 0) return difference > 0;
  }
  return false;
}

/** The scope a chain runs within: the sorted, de-duplicated apps and domains. */
export function scopeOf(snapshot: Snapshot): string {
  const sorted = (values: readonly string[]) => [...new Set(values)].sort().join(',');
  return `appId ${sorted(snapshot.query.appId)}; tld ${sorted(snapshot.query.tld)}`;
}

/** The link a new snapshot records to its predecessor. */
function linkTo(previous: Snapshot): ChainLink {
  return { takenAt: previous.takenAt, sha256: snapshotDigest(previous) };
}

/**
 * Seals a snapshot: records the link (null when it starts a chain) and its own digest.
 * The previous snapshot must be of the same scope and taken earlier.
 */
export function sealSnapshot(snapshot: Snapshot, previous: Snapshot | null): Snapshot {
  if (previous) checkPredecessor(previous, snapshot);
  const linked: Snapshot = { ...snapshot, chain: { previous: previous ? linkTo(previous) : null, canonical: CANONICAL_JSON } };
  return { ...linked, chain: { ...linked.chain!, sha256: snapshotDigest(linked) } };
}

function checkPredecessor(previous: Snapshot, next: Snapshot): void {
  if (scopeOf(previous) !== scopeOf(next)) {
    throw new UserError('--previous: that snapshot covers other apps or domains, so it cannot be this one\'s predecessor', [
      `previous: ${scopeOf(previous)}`,
      `this report: ${scopeOf(next)}`,
    ]);
  }
  if (Date.parse(previous.takenAt) >= Date.parse(next.takenAt)) {
    throw new UserError(`--previous: that snapshot was taken at ${previous.takenAt}, not before this report (${next.takenAt})`);
  }
}
