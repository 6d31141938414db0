// Reading a directory of snapshots (CI artifacts downloaded into it, one folder per run or
// all side by side): every `.json` file below it that is a botrules snapshot, with its digest.
// The same snapshot downloaded twice (as one run's snapshot and the next run's "previous")
// is one member of the series.
import { readdir, stat } from 'node:fs/promises';
import { readCappedText } from '../io/capped-read.js';
import { jsonTooDeep } from '../io/json-depth.js';
import { join, relative } from 'node:path';
import { UserError } from '../errors.js';
import { scopeOf, snapshotDigest } from './chain.js';
import type { InventoryQuery, Snapshot } from './model.js';
import { parseSnapshot } from './snapshot.js';

/** Directories deeper than this are not searched (an artifact download is one or two levels). */
const MAX_DEPTH = 4;
/** More files than this in DIR is a mistake (the repository root, a home directory). */
const MAX_FILES = 20_000;

export interface SeriesMember {
  /** Relative to the directory read. */
  file: string;
  snapshot: Snapshot;
  /** The digest of the content as it is now. */
  digest: string;
  /** Other files holding exactly the same snapshot. */
  copies: string[];
}

export interface Series {
  dir: string;
  /** De-duplicated by digest, oldest first (takenAt, then file name). */
  members: SeriesMember[];
  /** JSON files that are not snapshots (an evidence pack, a policy export): left out. */
  skipped: string[];
  /** Files that look like snapshots but cannot be read as one: a finding, never skipped quietly. */
  unreadable: { file: string; reason: string }[];
}

export async function readSeries(dir: string, displayDir = dir): Promise<Series> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) throw new UserError(`${displayDir}: no such directory`);
  const files = (await jsonFiles(dir, 0)).sort();
  const byDigest = new Map<string, SeriesMember>();
  const skipped: string[] = [];
  const unreadable: { file: string; reason: string }[] = [];
  for (const path of files) {
    const file = join(displayDir, relative(dir, path));
    const read = await readMember(path, file);
    if (read.kind === 'skipped') skipped.push(file);
    else if (read.kind === 'unreadable') unreadable.push({ file, reason: read.reason });
    else {
      const same = byDigest.get(read.digest);
      if (same) same.copies.push(file);
      else byDigest.set(read.digest, { file, snapshot: read.snapshot, digest: read.digest, copies: [] });
    }
  }
  const members = [...byDigest.values()].sort(oldestFirst);
  return { dir: displayDir, members, skipped, unreadable };
}

/** The members of one scope, oldest first. */
export function scopeMembers(series: Series, scope: string): SeriesMember[] {
  return series.members.filter((member) => scopeOf(member.snapshot) === scope);
}

export function scopesIn(series: Series): string[] {
  return [...new Set(series.members.map((member) => scopeOf(member.snapshot)))].sort();
}

/** The scope string of a query, as scopeOf names a snapshot's. */
export function scopeOfQuery(query: Pick<InventoryQuery, 'appId' | 'tld'>): string {
  return scopeOf({ query: { appId: query.appId, tld: query.tld } } as Snapshot);
}

function oldestFirst(a: SeriesMember, b: SeriesMember): number {
  const byTime = Date.parse(a.snapshot.takenAt) - Date.parse(b.snapshot.takenAt);
  if (byTime !== 0 && !Number.isNaN(byTime)) return byTime;
  return a.file < b.file ? -1 : a.file > b.file ? 1 : 0;
}

type Read = { kind: 'member'; snapshot: Snapshot; digest: string } | { kind: 'skipped' } | { kind: 'unreadable'; reason: string };

async function readMember(path: string, file: string): Promise<Read> {
  let value: unknown;
  try {
    // The same caps as any snapshot read (src/io/capped-read.ts, json-depth.ts): a crafted
    // file costs a stat, not the heap.
    const text = await readCappedText(path, file, 'a script inventory snapshot');
    const tooDeep = jsonTooDeep(text);
    if (tooDeep) return { kind: 'unreadable', reason: `line ${tooDeep.line}, column ${tooDeep.col}: it ${tooDeep.message}` };
    value = JSON.parse(text);
  } catch (err) {
    if (err instanceof UserError) return { kind: 'unreadable', reason: err.message.startsWith(`${file} `) ? err.message.slice(file.length + 1) : err.message };
    return { kind: 'unreadable', reason: `not JSON (${(err as Error).message})` };
  }
  if (!looksLikeSnapshot(value)) return { kind: 'skipped' };
  try {
    const snapshot = parseSnapshot(value, `snapshot ${file}`);
    if (Number.isNaN(Date.parse(snapshot.takenAt))) return { kind: 'unreadable', reason: `takenAt ${JSON.stringify(snapshot.takenAt)} is not a time` };
    return { kind: 'member', snapshot, digest: snapshotDigest(snapshot) };
  } catch (err) {
    const details = err instanceof UserError ? err.details.filter((line) => line.startsWith('  ')).slice(0, 3).map((line) => line.trim()) : [];
    return { kind: 'unreadable', reason: ['not a valid snapshot', ...details].join('; ') };
  }
}

/** A botrules snapshot names its tool and carries a query and records; anything else is another file. */
function looksLikeSnapshot(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return 'query' in v && 'records' in v && (v.tool as { name?: unknown } | undefined)?.name === 'botrules';
}

async function jsonFiles(dir: string, depth: number): Promise<string[]> {
  if (depth > MAX_DEPTH) return [];
  const entries = await readdir(dir, { withFileTypes: true });
  const found: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    // Symbolic links are not followed: the series is what the directory itself holds.
    if (entry.isDirectory()) found.push(...(await jsonFiles(path, depth + 1)));
    else if (entry.isFile() && entry.name.endsWith('.json')) found.push(path);
    if (found.length > MAX_FILES) throw new UserError(`${dir}: more than ${MAX_FILES} JSON files; point at the directory that holds the snapshots`);
  }
  return found;
}
