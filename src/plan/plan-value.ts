// The Plan value object (modelled on octoDNS's Plan): every app's steps, blocked and
// unmanaged rules, the counts a summary shows, and the checks `apply` runs before sending
// anything. It puts its own steps and changes in order and says the one sentence about blocked
// rules; src/render/plan/plan-file.ts writes it as the plan JSON (docs/behaviour.md, "Plan format").
import { UserError } from '../errors.js';
import type { PlanSnapshot } from './file-format.js';
import { excessSentence, limitExcesses, unknownFieldDrops, windowSentences, type MaxChanges, type MaxDeletes } from './safety.js';
import { trafficExcessDetails, trafficExcessOf, trafficExcessSentence, type MaxNewlyBlocked, type TrafficExcess } from './traffic-limit.js';
import { summarise, type PlanSummary } from './counts.js';
import { positionChange, RULE_FIELDS, type AppPlan, type Change, type PlanStep } from './types.js';

export { countSteps, positionChanges, removedLeftActive, unmanagedFate, type PlanSummary } from './counts.js';
export type { LifetimeEvent } from './lifetimes.js';

/** The other way out of a blocked rule, when the service accepts POST (it is off by default: api.md shows list and PATCH only). */
export const CREATE_INSTEAD_ADVICE =
  'If your service accepts POST ("Create custom rule" in its API reference), `service.create: true` in botrules.yaml ' +
  'makes each a create step instead (docs/behaviour.md, "Creating and deleting rules").';

/** What to do about blocked rules, said once under their list. */
export const BLOCKED_ADVICE =
  'Create each in the console under the name shown, paused, at the position shown; then run `botrules import --update --pin` ' +
  `to pin its ruleId, and \`botrules plan\` shows only the remaining field changes (docs/behaviour.md, "Adding a rule"). ${CREATE_INSTEAD_ADVICE}`;

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

  /** A plan with blocked rules cannot be applied. */
  canApply(): boolean {
    return this.summary.blocked === 0;
  }

  /** The one sentence about blocked rules, or undefined when there are none. */
  blockedSentence(): string | undefined {
    const count = this.summary.blocked;
    if (count === 0) return undefined;
    const rules = count === 1 ? '1 declared rule does' : `${count} declared rules do`;
    return `${rules} not exist live, and the API cannot create rules: the plan cannot be applied`;
  }

  /** Throws a UserError listing every blocked rule (`app A: "Name" (file:line:col)`) and what to do, before anything is sent. */
  raiseIfBlocked(): void {
    const sentence = this.blockedSentence();
    if (sentence === undefined) return;
    const blocked = this.apps.flatMap((app) => app.blocked.map((rule) =>
      `app ${app.app}: "${rule.name}"${rule.source ? ` (${rule.source.file}:${rule.source.line}:${rule.source.col})` : ''}`));
    throw new UserError(`${sentence}; nothing was sent`, [...blocked, BLOCKED_ADVICE]);
  }

  /**
   * Throws a UserError when an app's plan changes more rules than its limit allows, or newly
   * blocks more of its replayed traffic than maxNewlyBlocked allows, unless `force` is set: the
   * configured limits, else the defaults (see safety.ts and traffic-limit.ts).
   */
  raiseIfUnsafe(options: { maxChanges?: MaxChanges; maxDeletes?: Readonly<Record<string, MaxDeletes | undefined>>; maxNewlyBlocked?: MaxNewlyBlocked; force: boolean }): void {
    if (options.force) return;
    const excesses = limitExcesses(this.apps, options.maxChanges, options.maxDeletes).map(excessSentence);
    // Steps that drop unknown fields, orders that open windows, traffic newly blocked beyond maxNewlyBlocked.
    const traffic = this.trafficExcesses(options.maxNewlyBlocked);
    const others = [...this.apps.flatMap(unknownFieldDrops), ...this.apps.flatMap(windowSentences), ...traffic.map(trafficExcessSentence)];
    const reasons = [...excesses, ...others];
    const details = traffic.flatMap(trafficExcessDetails);
    const [first, ...rest] = reasons;
    if (first === undefined) return;
    const advice = 'review it and use --force to apply anyway; nothing was sent';
    if (rest.length === 0) throw new UserError(`${first}; ${advice}`, details);
    if (others.length === 0) throw new UserError(`${excesses.length} app plans exceed their change limits; review them and use --force to apply anyway`, excesses);
    throw new UserError(`${reasons.length} parts of the plan need --force; review them and use --force to apply anyway; nothing was sent`, [...reasons, ...details]);
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
