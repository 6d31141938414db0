// Identity, field order and sort order of script records: what makes snapshots stable in git.
import { createHash } from 'node:crypto';
import type { ScriptRecord, SnapshotRecord } from './model.js';
import { definedFields } from '../defined.js';

/** Wire fields in the order of docs/service-api.md, "Script records", then the approval fields; unknown fields follow, sorted. */
const FIELD_ORDER = [
  'key', 'id', 'app_id', 'host_domain', 'type', 'vendor', 'first_seen', 'last_seen', 'risk', 'users_affected_percentage',
  'ack', 'page_types', 'approved', 'approvedBy', 'approvalNote'
] as const;
const KNOWN = new Set<string>(FIELD_ORDER);

/**
 * The identity records are de-duplicated and compared by: the server's `key`; a record
 * without one is identified by its location, app and host together, which is what makes
 * two sightings the same script.
 */
export function recordIdentity(record: ScriptRecord): string {
  if (typeof record.key === 'string' && record.key !== '') return record.key;
  return `${record.id ?? ''}\u0000${record.app_id ?? ''}\u0000${record.host_domain ?? ''}`;
}

/** Identities longer than this are remembered by their digest. */
const LONGEST_KEPT_IDENTITY = 44;

/**
 * What the duplicate check remembers of an identity: itself when short, else a 22-character
 * SHA-256 prefix (132 bits), so a hostile gateway's megabyte keys cost no more than short ones.
 * The prefixes keep the two kinds apart.
 */
export function rememberedIdentity(identity: string): string {
  if (identity.length <= LONGEST_KEPT_IDENTITY) return `=${identity}`;
  return `#${createHash('sha256').update(identity, 'utf8').digest('base64').slice(0, 22)}`;
}

/** A readable label for lists and messages: the script location, else the key. */
export function recordLabel(record: ScriptRecord): string {
  if (typeof record.id === 'string' && record.id !== '') return record.id;
  return record.key ?? '(record without id or key)';
}

/**
 * A copy with fields in a fixed order (and `risk` as level, reason), so files diff cleanly.
 * The copy has no prototype: a field named `__proto__` or `constructor` from the server is
 * kept as data, written to the snapshot like any other, and never changes the object.
 */
export function normaliseRecord<T extends ScriptRecord>(record: T): T {
  const source = record as unknown as Record<string, unknown>;
  const out = Object.create(null) as Record<string, unknown>;
  for (const field of FIELD_ORDER) {
    if (source[field] === undefined) continue;
    out[field] = wellFormed(field === 'risk' ? normaliseRisk(source[field]) : source[field]);
  }
  for (const field of Object.keys(source).filter((f) => !KNOWN.has(f)).sort()) {
    if (source[field] !== undefined) out[field] = wellFormed(source[field]);
  }
  return out as T;
}

/** Half a UTF-16 surrogate pair with no other half: not text, and RFC 8785 refuses it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The value with every lone surrogate in its strings replaced by U+FFFD, as a UTF-8 decoder
 * would: records become I-JSON, so their snapshot has an RFC 8785 digest (chain.ts).
 */
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(LONE_SURROGATE, '\uFFFD');
  if (Array.isArray(value)) return value.map(wellFormed);
  if (value === null || typeof value !== 'object') return value;
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, item] of Object.entries(value)) out[key.replace(LONE_SURROGATE, '\uFFFD')] = wellFormed(item);
  return out;
}

function normaliseRisk(risk: unknown): unknown {
  if (risk === null || typeof risk !== 'object') return risk;
  const { level, reason, ...rest } = risk as Record<string, unknown>;
  // Spread copies own properties as data, `__proto__` included, into a prototype-free object.
  return Object.assign(Object.create(null) as object, {
    ...definedFields({ level, reason }), ...rest,
  });
}

/** Code-unit order of identities: the same on every machine, unlike locale comparison. */
function compareRecords(a: ScriptRecord, b: ScriptRecord): number {
  const ka = recordIdentity(a);
  const kb = recordIdentity(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** Reading order for lists people read: by script location, then identity. */
export function compareForDisplay(a: ScriptRecord, b: ScriptRecord): number {
  const la = recordLabel(a);
  const lb = recordLabel(b);
  return la < lb ? -1 : la > lb ? 1 : compareRecords(a, b);
}

export function sortRecords<T extends ScriptRecord>(records: T[]): T[] {
  return records.sort(compareRecords);
}

/** Risk levels in order; anything else is "unknown" and never compares as up or down. */
export const RISK_SCALE = ['low', 'medium', 'high', 'critical'] as const;

export function riskRank(level: string | undefined): number | undefined {
  if (level === undefined) return undefined;
  const rank = (RISK_SCALE as readonly string[]).indexOf(level.toLowerCase());
  return rank === -1 ? undefined : rank;
}

/** High-risk: level high or critical (case-insensitive). */
export function isHighRisk(record: SnapshotRecord): boolean {
  const rank = riskRank(record.risk?.level);
  return rank !== undefined && rank >= 2;
}
