// The Plan value object (modelled on octoDNS's Plan): every app's steps, blocked and
// unmanaged rules, the counts a summary shows, and the checks `apply` runs before sending
// anything, as data (src/render/plan/refusals.ts words them). It puts its own steps and changes
// in order and says the one sentence about blocked rules; src/render/plan/plan-file.ts writes
// it as the plan JSON (docs/behaviour.md, "Plan format").
import type { PlanSnapshot } from './file-format.js';
import { limitExcesses, type LimitExcess, type MaxChanges, type MaxDeletes } from './safety.js';
import { trafficExcessOf, type MaxNewlyBlocked, type TrafficExcess } from './traffic-limit.js';
import { summarise, type PlanSummary } from './counts.js';
import { positionChange, RULE_FIELDS, type AppPlan, type Change, type PlanStep, type UnknownFieldDrop } from './types.js';

export { countSteps, positionChanges, removedLeftActive, unmanagedFate, type PlanSummary } from './counts.js';
export type { LifetimeEvent } from './lifetimes.js';

/** The limits apply enforces without --force, per app or for all. */
export interface SafetyLimits {
  maxChanges?: MaxChanges;
  maxDeletes?: Readonly<Record<string, MaxDeletes | undefined>>;
  maxNewlyBlocked?: MaxNewlyBlocked;
}

/**
 * One thing apply refuses without --force: a limit exceeded; a step that would remove fields
 * botrules does not know from a live rule (docs/behaviour.md, "Unknown fields"); an order of
 * requests that opens windows (the transition check); replayed traffic newly blocked.
 */
export type Refusal =
  | { kind: 'limit'; excess: LimitExcess }
  | { kind: 'drops-unknown'; app: string; rule: string; ruleId: string; drops: readonly UnknownFieldDrop[] }
  | { kind: 'windows'; app: string; windows: number }
  | { kind: 'traffic'; excess: TrafficExcess };

export class Plan {
  readonly apps: readonly AppPlan[];
  readonly summary: PlanSummary;
  readonly snapshot?: PlanSnapshot;

  /** `snapshot`: the plan was computed from a live snapshot (`plan --live`), so it can never be applied. */
  constructor(apps: readonly AppPlan[], options: { snapshot?: PlanSnapshot } = {}) {
    // An order the transition check chose is kept as it is; any other is put in execution order.
    this.apps = apps.map((app) => ({ ...app, steps: app.transitions === undefined ? inExecutionOrder(app.steps) : app.steps.map(withOrderedChanges) }));
    this.summary = summarise(this.apps);
    if (options.snapshot !== undefined) this.snapshot = { ...options.snapshot };
  }

  /**
   * True when the live rules differ from the rule files: a PATCH to send, a blocked rule, or
   * a rule removed from the files that stays live and active (the service cannot delete it,
   * so the plan is not "no changes": docs/behaviour.md, "Removed rules").
   */
  hasChanges(): boolean {
    return this.summary.patches > 0 || this.summary.blocked > 0 || this.summary.removedActive > 0;
  }

  /**
   * What apply refuses without --force, as data in the order it is said (src/render/plan/refusals.ts
   * words it): an app's plan changing or deleting more rules than its limit allows (see safety.ts),
   * steps that drop unknown fields, orders that open windows, and replayed traffic newly blocked
   * beyond maxNewlyBlocked (traffic-limit.ts); the configured limits, else the defaults.
   */
  refusals(limits: SafetyLimits): Refusal[] {
    return [
      ...limitExcesses(this.apps, limits.maxChanges, limits.maxDeletes).map((excess): Refusal => ({ kind: 'limit', excess })),
      ...this.apps.flatMap((app) => app.steps.flatMap((step): Refusal[] =>
        (step.dropsUnknown?.length ? [{ kind: 'drops-unknown', app: app.app, rule: step.name, ruleId: step.ruleId, drops: step.dropsUnknown }] : []))),
      ...this.apps.flatMap((app): Refusal[] => (app.transitions?.windows.length ? [{ kind: 'windows', app: app.app, windows: app.transitions.windows.length }] : [])),
      ...this.trafficExcesses(limits.maxNewlyBlocked).map((excess): Refusal => ({ kind: 'traffic', excess })),
    ];
  }

  /** Per app whose replayed traffic (plan --replay) is newly blocked beyond its limit: what and by which rules. */
  trafficExcesses(maxNewlyBlocked?: MaxNewlyBlocked): TrafficExcess[] {
    return this.apps.map((app) => trafficExcessOf(app.app, app.replay, maxNewlyBlocked)).filter((e): e is TrafficExcess => e !== undefined);
  }
}

const KIND_ORDER = { delete: -1, create: 0, move: 0, 'update-and-move': 0, update: 1, 'pause-unmanaged': 2 } as const;

/**
 * Deletes first, then moves and creates in ascending target position (each body's priority is
 * computed for that order), then field-only updates, then pauses; each step's changes in RULE_FIELDS order,
 * its position last. The planner emits this order already; a Plan keeps it whatever it is
 * built from.
 */
function inExecutionOrder(steps: readonly PlanStep[]): PlanStep[] {
  const keyed = steps.map((step, index) => ({ step: withOrderedChanges(step), index }));
  keyed.sort((a, b) => KIND_ORDER[a.step.kind] - KIND_ORDER[b.step.kind] || target(a.step) - target(b.step) || a.index - b.index);
  return keyed.map(({ step }) => step);
}

function target(step: PlanStep): number {
  if (step.kind === 'create') return step.position;
  return positionChange(step)?.after ?? 0;
}

const CHANGE_ORDER: readonly Change['field'][] = [...RULE_FIELDS, 'priority'];

function withOrderedChanges<S extends PlanStep>(step: S): S {
  const changes = [...step.changes].sort((a, b) => CHANGE_ORDER.indexOf(a.field) - CHANGE_ORDER.indexOf(b.field));
  return { ...step, changes } as S;
}
