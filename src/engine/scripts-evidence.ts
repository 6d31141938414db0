// The tamper-evident series and the evidence pack (docs/behaviour.md, "Script inventory"):
// which snapshot a new report links to, `scripts verify DIR` and `scripts evidence DIR`.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UserError } from '../errors.js';
import { plural } from '../plural.js';
import { scopeOf } from '../scripts/chain.js';
import { buildEvidence, type EvidencePack } from '../scripts/evidence.js';
import type { InventoryQuery, Snapshot } from '../scripts/model.js';
import { policyHistory } from '../scripts/policy-history.js';
import { findPolicy } from '../scripts/policy.js';
import { readSeries, scopeMembers, scopeOfQuery, scopesIn, type Series } from '../scripts/series.js';
import { readInventorySnapshotFile } from '../scripts/snapshot.js';
import { verifyChain, type ChainAnchor } from '../scripts/verify.js';
import { readAnchor } from '../scripts/anchor.js';
import type { Runtime } from '../runtime.js';
import type { VerifyModel } from '../render/scripts/evidence.js';
import { definedFields } from '../defined.js';

interface PreviousSnapshot {
  snapshot?: Snapshot;
  /** What was linked to (or why nothing was), for stderr. */
  note: string;
  /** Snapshots passed over (taken after this report), said as warnings. */
  warnings: string[];
}

/**
 * `--previous FILE|DIR`: a snapshot file of the same scope, or the newest snapshot of the same
 * scope in a directory (what the scheduled workflow downloads) taken before `now`. An empty
 * directory, or one without that scope, starts the chain. A file in DIR that cannot be read is
 * an error: it may be the snapshot this one should link to. One taken after `now` (a clock
 * that ran ahead, or a forged date) is passed over with a warning rather than blocking every
 * report until that date; `scripts verify` then reports the fork.
 */
export async function findPrevious(option: string, query: Pick<InventoryQuery, 'appId' | 'tld'>, cwd: string, now: number): Promise<PreviousSnapshot> {
  const path = resolve(cwd, option);
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory()) return newestBefore(await readSeries(path, option), option, scopeOfQuery(query), now);
  const snapshot = await readInventorySnapshotFile(path, '--previous');
  if (!(Date.parse(snapshot.takenAt) < now)) {
    throw new UserError(`--previous ${option} was taken at ${snapshot.takenAt}, not before this report (${new Date(now).toISOString()}), so it cannot be its predecessor`, [
      'A clock that ran ahead, or a forged date: name an earlier snapshot, or a directory (its newest snapshot taken before now is used).',
    ]);
  }
  // Checked before any request: the link would be refused after the whole export otherwise.
  if (scopeOf(snapshot) !== scopeOfQuery(query)) {
    throw new UserError(`--previous ${option} covers other apps or domains, so it cannot be this report's predecessor`, [
      `${option}: ${scopeOf(snapshot)}`,
      `this report: ${scopeOfQuery(query)}`,
    ]);
  }
  return { snapshot, note: `linked to ${option} (taken ${snapshot.takenAt})`, warnings: [] };
}

function newestBefore(series: Series, option: string, scope: string, now: number): PreviousSnapshot {
  if (series.unreadable.length > 0) {
    throw new UserError(`--previous ${option}: ${plural(series.unreadable.length, 'file')} cannot be read as a snapshot, and one may be the snapshot to link to`, [
      ...series.unreadable.map((u) => `  ${u.file}: ${u.reason}`),
      'Remove or replace them, or name the previous snapshot as --previous FILE.',
    ]);
  }
  const members = scopeMembers(series, scope);
  const later = members.filter((m) => Date.parse(m.snapshot.takenAt) >= now);
  const warnings = later.map((m) => `--previous ${option}: ${m.file} was taken at ${m.snapshot.takenAt}, not before this report (${new Date(now).toISOString()}): a clock that ran ahead, or a forged date; not linked to, so scripts verify will report the chain forking there`);
  const newest = members.filter((m) => !later.includes(m)).at(-1);
  if (!newest) return { note: `no earlier snapshot of ${scope} in ${option}: this snapshot starts the chain`, warnings };
  return { snapshot: newest.snapshot, note: `linked to ${newest.file} (taken ${newest.snapshot.takenAt})`, warnings };
}

/** `anchorOption`: `--anchor FILE|DIGEST`, the head recorded outside the series. */
export async function verifySeries(dir: string, ctx: Runtime, anchorOption?: string): Promise<VerifyModel> {
  const anchor = anchorOption === undefined ? undefined : await readAnchor(anchorOption, resolve(ctx.cwd, anchorOption));
  const series = await readSeries(resolve(ctx.cwd, dir), dir);
  const scopes = scopesIn(series);
  const anchoredScope = anchor ? scopeHolding(series, scopes, anchor) : undefined;
  const states = scopes.map((scope) => verifyChain(scope, scopeMembers(series, scope), anchorFor(scope, anchor, anchoredScope)));
  return { dir, scopes: states, unreadable: series.unreadable, skipped: series.skipped };
}

/** The scope whose snapshot the anchor names; undefined when none does (then every scope is held to it). */
function scopeHolding(series: Series, scopes: readonly string[], anchor: ChainAnchor): string | undefined {
  return scopes.find((scope) => scopeMembers(series, scope).some((m) => m.digest === anchor.sha256));
}

function anchorFor(scope: string, anchor: ChainAnchor | undefined, anchoredScope: string | undefined): ChainAnchor | null | undefined {
  if (anchor === undefined) return undefined;
  return anchoredScope === undefined || anchoredScope === scope ? anchor : null;
}

interface EvidenceRequest {
  dir: string;
  from: number;
  to: number;
  interval: { text: string; ms: number };
  policyFile?: string;
  /** Chooses the scope when the directory holds several. */
  appId?: string[];
  tld?: string[];
  /** `--anchor FILE|DIGEST`: the head recorded outside the series. */
  anchor?: string;
  now: number;
}

export async function evidencePack(request: EvidenceRequest, ctx: Runtime): Promise<EvidencePack> {
  const policy = await findPolicy(request.policyFile, ctx.cwd);
  const anchor = request.anchor === undefined ? undefined : await readAnchor(request.anchor, resolve(ctx.cwd, request.anchor));
  const series = await readSeries(resolve(ctx.cwd, request.dir), request.dir);
  const scope = chooseScope(series, request);
  const members = scopeMembers(series, scope);
  const first = members[0]?.snapshot.query;
  const history = policy ? await policyHistory(policy, ctx.cwd) : undefined;
  ctx.debug(`evidence: ${members.length} snapshots of ${scope} in ${request.dir}${policy ? `, policy ${policy.file}` : ''}`);
  return buildEvidence({
    members,
    scope: { appId: [...new Set(first?.appId ?? request.appId ?? [])].sort(), tld: [...new Set(first?.tld ?? request.tld ?? [])].sort() },
    period: { from: request.from, to: request.to },
    interval: request.interval,
    ...definedFields({ policy, history }),
    chain: verifyChain(scope, members, anchor),
    unreadable: series.unreadable,
    now: request.now,
  });
}

function chooseScope(series: Series, request: EvidenceRequest): string {
  const scopes = scopesIn(series);
  if (request.appId && request.tld) return scopeOfQuery({ appId: request.appId, tld: request.tld });
  const [only, ...others] = scopes;
  if (only !== undefined && others.length === 0) return only;
  if (only === undefined) {
    throw new UserError(`${request.dir} holds no botrules snapshot`, ['Snapshots are written by `botrules scripts report --format json`; download the CI artifacts into one directory.']);
  }
  throw new UserError(`${request.dir} holds snapshots of ${scopes.length} different scopes; choose one with --app-id and --tld`, scopes.map((s) => `  ${s}`));
}

