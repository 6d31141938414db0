// The counts a plan summary shows, each derived from the typed steps and the unmanaged
// rules, never kept alongside them. "To move" counts PATCHes that carry a `priority`; the
// rules whose position changes are more than that, because every move shifts the rules it
// passes (a 40-rule reversal is 21 such PATCHes, and 39 rules end somewhere else), so the
// summary says both.
import { positionChange, type AppPlan, type PlanStep, type UnmanagedRule } from './types.js';

export interface PlanSummary {
  /** Requests: PATCH, and POST and DELETE when the service accepts them. */
  patches: number;
  blocked: number;
  /** Live rules no rule file declares. */
  unmanaged: number;
  /** PATCHes that change fields of a managed rule (some of them also move it). */
  updates: number;
  /** PATCHes that carry a `priority` (some of them also change fields). */
  moves: number;
  /** PATCHes that do both: counted in `updates` and in `moves`. */
  updatesAndMoves: number;
  /** PATCHes that pause an unmanaged rule. */
  pauses: number;
  /** POSTs that create a declared rule (service.create); present only when there are some. */
  creates?: number;
  /** DELETEs of unmanaged rules (service.delete, unmanaged: delete); present only when there are some. */
  deletes?: number;
  /** Live rules whose position once the plan has run differs from their position now. */
  positionChanges: number;
  /** Unmanaged rules left as they are (all of them under `keep`; the already paused under `pause`). */
  unmanagedKept: number;
  /** Unmanaged rules that the rules directory's history shows were declared once. */
  removed: number;
  /** Of those, the ones the plan leaves live and active. */
  removedActive: number;
}

/** What happens to a live rule that no rule file declares. */
export type UnmanagedFate = 'paused by this plan' | 'deleted by this plan' | 'stays live, paused' | 'stays live and ACTIVE';

export function unmanagedFate(app: AppPlan, rule: UnmanagedRule): UnmanagedFate {
  if (app.steps.some((step) => step.kind === 'pause-unmanaged' && step.ruleId === rule.ruleId)) return 'paused by this plan';
  if (app.steps.some((step) => step.kind === 'delete' && step.ruleId === rule.ruleId)) return 'deleted by this plan';
  return rule.status === 'paused' ? 'stays live, paused' : 'stays live and ACTIVE';
}

/** The removed rules (declared once, now in no file) that stay live and active. */
export function removedLeftActive(app: AppPlan): UnmanagedRule[] {
  return app.unmanaged.filter((rule) => rule.removedFromFiles === true && unmanagedFate(app, rule) === 'stays live and ACTIVE');
}

export function summarise(apps: readonly AppPlan[]): PlanSummary {
  const summary: PlanSummary = {
    patches: 0, blocked: 0, unmanaged: 0, updates: 0, moves: 0, updatesAndMoves: 0, pauses: 0,
    positionChanges: 0, unmanagedKept: 0, removed: 0, removedActive: 0,
  };
  for (const app of apps) {
    const counts = countSteps(app.steps);
    summary.patches += app.steps.length;
    summary.blocked += app.blocked.length;
    summary.unmanaged += app.unmanaged.length;
    summary.updates += counts.updates;
    summary.moves += counts.moves;
    summary.updatesAndMoves += counts.updatesAndMoves;
    summary.pauses += counts.pauses;
    // Only a plan that creates or deletes says so: every other summary is the one it always was.
    if (counts.creates > 0) summary.creates = (summary.creates ?? 0) + counts.creates;
    if (counts.deletes > 0) summary.deletes = (summary.deletes ?? 0) + counts.deletes;
    summary.positionChanges += positionChanges(app);
    summary.unmanagedKept += app.unmanaged.filter((rule) => !unmanagedFate(app, rule).endsWith('by this plan')).length;
    summary.removed += app.unmanaged.filter((rule) => rule.removedFromFiles === true).length;
    summary.removedActive += removedLeftActive(app).length;
  }
  return summary;
}

type StepCounts = Pick<PlanSummary, 'updates' | 'moves' | 'updatesAndMoves' | 'pauses'> & { creates: number; deletes: number };

/** One app's PATCH counts by what each PATCH does (see PlanSummary). */
export function countSteps(steps: readonly PlanStep[]): StepCounts {
  const counts = { updates: 0, moves: 0, updatesAndMoves: 0, pauses: 0, creates: 0, deletes: 0 };
  for (const step of steps) {
    if (step.kind === 'create') counts.creates += 1;
    if (step.kind === 'delete') counts.deletes += 1;
    if (step.kind === 'pause-unmanaged') counts.pauses += 1;
    if (step.kind === 'update' || step.kind === 'update-and-move') counts.updates += 1;
    if (step.kind === 'move' || step.kind === 'update-and-move') counts.moves += 1;
    if (step.kind === 'update-and-move') counts.updatesAndMoves += 1;
  }
  return counts;
}

/**
 * How many of the app's live rules end at another position: the moves replayed, in
 * execution order, on the list of live positions with the server's list-move semantics
 * (docs/behaviour.md, "Plan semantics"). A move's `before` is its rule's live position. A
 * deleted rule is gone, not moved; a created rule (-1 here) was at no position; a rule the
 * deletes and creates only shift does end elsewhere, and counts.
 */
export function positionChanges(app: AppPlan): number {
  const list = Array.from({ length: app.liveRules }, (_, index) => index);
  const deleted = new Set<number>();
  for (const step of app.steps) {
    if (step.kind === 'delete') {
      const at = list.indexOf(step.position);
      if (at >= 0) deleted.add(list.splice(at, 1)[0] as number);
      continue;
    }
    if (step.kind === 'create') {
      list.splice(Math.min(Math.max(step.body.priority ?? list.length, 0), list.length), 0, -1);
      continue;
    }
    const priority = step.body.priority;
    const position = positionChange(step);
    if (priority === undefined || position === undefined) continue;
    const at = list.indexOf(position.before);
    if (at < 0) continue;
    list.splice(at, 1);
    list.splice(Math.min(Math.max(priority, 0), list.length), 0, position.before);
  }
  return list.filter((livePosition, index) => livePosition >= 0 && livePosition !== index).length;
}
