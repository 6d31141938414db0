// How many changes a plan may make before apply wants --force (docs/behaviour.md, "Safety
// limits"). Modelled on octoDNS's update threshold: a configured `maxChanges` (or
// `--max-changes`) is an absolute limit per app; without one, a plan is refused when it
// changes more than 30 % of an app's live rules and more than 10 of them, which catches an
// empty or mistaken rules directory while leaving small, everyday plans alone.
import type { AppPlan } from './types.js';
import type { MaxDeletes } from '../semantics/model.js';

/** The default share of an app's live rules one plan may delete (docs/behaviour.md, "Creating and deleting rules"). */
export const DEFAULT_MAX_DELETE_SHARE = 0.3;
/** Apps with fewer live rules than this are not held to the default share of deletes. */
export const DEFAULT_DELETE_MIN_RULES = 10;

export type { MaxDeletes } from '../semantics/model.js';

/** The default share of an app's live rules one plan may change. */
export const DEFAULT_MAX_SHARE = 0.3;
/** A plan changing at most this many rules never trips the default limit. */
export const DEFAULT_MIN_CHANGES = 10;

/** Either one limit for every app (`--max-changes N`) or a limit per app name (config). */
export type MaxChanges = number | Readonly<Record<string, number | undefined>>;

/** Where a limit came from: `--max-changes`, the app's config, or the default share. */
type LimitSource = { from: 'flag' | 'config'; limit: number } | { from: 'default' };

/**
 * How an app's plan exceeds a limit apply enforces, as data (src/render/plan/refusals.ts words it). Every
 * request counts against the change limit: each changes one rule (its fields, its position,
 * its status), or creates or deletes one.
 */
export type LimitExcess =
  | { app: string; kind: 'changes'; requests: number; liveRules: number; lifecycle: boolean; limit: LimitSource }
  | { app: string; kind: 'deletes'; deletes: number; liveRules: number; limit: { from: 'config'; written: string } | { from: 'default' } };

/** How `app` exceeds its change limit, or undefined when it does not. */
function excessOf(app: AppPlan, maxChanges: MaxChanges | undefined): LimitExcess | undefined {
  const requests = app.steps.length;
  const limit = typeof maxChanges === 'number' ? maxChanges : maxChanges?.[app.app];
  const over = limit === undefined ? requests > DEFAULT_MIN_CHANGES && requests > DEFAULT_MAX_SHARE * app.liveRules : requests > limit;
  if (!over) return undefined;
  const source: LimitSource = limit === undefined ? { from: 'default' } : { from: typeof maxChanges === 'number' ? 'flag' : 'config', limit };
  // POSTs and DELETEs count like PATCHes (docs/behaviour.md, "Creating and deleting rules").
  return { app: app.app, kind: 'changes', requests, liveRules: app.liveRules, lifecycle: app.steps.some((step) => step.kind === 'create' || step.kind === 'delete'), limit: source };
}

/** Every app's excess of its change limit and of its limit of deletes, in app order. */
export function limitExcesses(apps: readonly AppPlan[], maxChanges?: MaxChanges, maxDeletes?: Readonly<Record<string, MaxDeletes | undefined>>): LimitExcess[] {
  return apps.flatMap((app) => [excessOf(app, maxChanges), deleteExcessOf(app, maxDeletes?.[app.app])]).filter((e): e is LimitExcess => e !== undefined);
}

/**
 * How many PATCH requests one apply of `app` may send in all, verification's corrections
 * included: the configured limit, else the most the default share allows.
 */
export function changeAllowance(app: AppPlan, maxChanges: MaxChanges | undefined): number {
  const limit = typeof maxChanges === 'number' ? maxChanges : maxChanges?.[app.app];
  if (limit !== undefined) return limit;
  return Math.max(DEFAULT_MIN_CHANGES, Math.floor(DEFAULT_MAX_SHARE * app.liveRules));
}

/**
 * How `app` deletes more live rules than allowed, or undefined. Without a configured
 * maxDeletes, an app with at least 10 live rules may lose at most 30 % of them in one apply:
 * the first adoption of a project with many unmanaged rules must not wipe them.
 */
function deleteExcessOf(app: AppPlan, maxDeletes: MaxDeletes | undefined): LimitExcess | undefined {
  const deletes = app.steps.filter((step) => step.kind === 'delete').length;
  if (deletes === 0) return undefined;
  const excess = { app: app.app, kind: 'deletes' as const, deletes, liveRules: app.liveRules };
  if (maxDeletes !== undefined) {
    const limit = 'count' in maxDeletes ? maxDeletes.count : Math.floor(maxDeletes.share * app.liveRules);
    if (deletes <= limit) return undefined;
    const written = 'count' in maxDeletes ? `${maxDeletes.count}` : `${+(maxDeletes.share * 100).toFixed(4)}%`;
    return { ...excess, limit: { from: 'config', written } };
  }
  if (app.liveRules < DEFAULT_DELETE_MIN_RULES || deletes <= DEFAULT_MAX_DELETE_SHARE * app.liveRules) return undefined;
  return { ...excess, limit: { from: 'default' } };
}
