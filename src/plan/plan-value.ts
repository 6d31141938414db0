// The Plan value object (modelled on octoDNS's Plan): every app's steps, blocked and
// unmanaged rules, the counts a summary shows, and the checks `apply` runs before sending
// anything. It puts its own steps and changes in order, says the one sentence about blocked
// rules, and serialises to the plan JSON (docs/behaviour.md, "Plan format").
import { UserError } from '../errors.js';
import { PLAN_FORMAT_VERSION, parsePlan, parsePlanText, type PlanSnapshot, type SerialisedApp, type SerialisedPlan } from './file-format.js';
import { deleteExcessOf, excessOf, unknownFieldDrops, windowSentence, type MaxChanges, type MaxDeletes } from './safety.js';
import { trafficExcessOf, type MaxNewlyBlocked, type TrafficExcess } from './traffic-limit.js';
import { summarise, unmanagedFate, type PlanSummary } from './counts.js';
import type { Risk } from './risks.js';
import type { PlanLifetimes } from './lifetimes.js';
import { positionChange, RULE_FIELDS, type AppBehaviourDiff, type AppPlan, type BehaviourReport, type Change, type PlanStep } from './types.js';

export type { AppBehaviourDiff, AppPlan, BlockedRule, PlanStep, UnmanagedPolicy, UnmanagedRule } from './types.js';
export type { MaxChanges, MaxDeletes } from './safety.js';
export type { MaxNewlyBlocked, TrafficExcess, TrafficVerdict } from './traffic-limit.js';
export { countSteps, positionChanges, removedLeftActive, summarise, unmanagedFate, type PlanSummary, type UnmanagedFate } from './counts.js';
export type { PlanSnapshot, SerialisedPlan } from './file-format.js';
export type { Risk } from './risks.js';
export type { LifetimeEvent, LifetimeEventKind, PlanLifetimes } from './lifetimes.js';

/** The other way out of a blocked rule, when the service accepts POST (it is off by default: api.md shows list and PATCH only). */
export const CREATE_INSTEAD_ADVICE =
  'If your service accepts POST ("Create custom rule" in its API reference), `service.create: true` in botrules.yaml ' +
  'makes each a create step instead (docs/behaviour.md, "Creating and deleting rules").';

/** What to do about blocked rules, said once under their list. */
export const BLOCKED_ADVICE =
  'Create each in the console under the name shown, paused, at the position shown; then run `botrules import --update --pin` ' +
  `to pin its ruleId, and \`botrules plan\` shows only the remaining field changes (docs/behaviour.md, "Adding a rule"). ${CREATE_INSTEAD_ADVICE}`;

export interface PlanOptions {
  /** Set when the plan was computed from a live snapshot (`plan --live`): it can never be applied. */
  snapshot?: PlanSnapshot;
  /**
   * How the plan changes the outcome of the project's test requests. A review aid for text
   * and Markdown: saved plans do not carry it (apply does not depend on it).
   */
  behaviour?: BehaviourReport;
  /**
   * Every class of requests the plan decides differently, per app (docs/behaviour.md,
   * "Exhaustive behaviour diff"). A review aid: saved with the plan, ignored when read back.
   */
  behaviourDiff?: readonly AppBehaviourDiff[];
  /**
   * With plan --replay: the replay report (docs/replay.md, "The report"), JSON data this layer
   * does not read. A review aid: saved with the plan, ignored when read back.
   */
  replay?: object;
  /**
   * The policy checks of the planned rules (docs/behaviour.md, "Policies"), JSON data this layer
   * does not read. A review aid: saved with the plan, ignored when read back.
   */
  policies?: readonly object[];
  /**
   * What the plan loosens (risks.ts). Saved plans carry it, so a saved plan shows what a fresh
   * one does; apply works it out again from the live rules rather than trust the file.
   */
  risks?: readonly Risk[];
  /** One sentence per app whose plan exceeds its change limit: apply refuses it without --force. */
  excesses?: readonly string[];
  /** Said once with the plan, e.g. why rules removed from the files could not be recognised (saved, like risks). */
  notes?: readonly string[];
  /**
   * Rules whose lifetime changes their state within seven days, or explains a status this plan
   * changes (lifetimes.ts). A review aid, saved like notes; apply evaluates lifetimes afresh.
   */
  lifetimes?: PlanLifetimes;
}

export class Plan {
  readonly apps: readonly AppPlan[];
  readonly summary: PlanSummary;
  readonly snapshot?: PlanSnapshot;
  readonly behaviour?: BehaviourReport;
  readonly behaviourDiff?: readonly AppBehaviourDiff[];
  readonly replay?: object;
  readonly policies?: readonly object[];
  readonly risks: readonly Risk[];
  readonly limitExcesses: readonly string[];
  readonly notes: readonly string[];
  readonly lifetimes?: PlanLifetimes;

  constructor(apps: readonly AppPlan[], options: PlanOptions = {}) {
    // An order the transition check chose is kept as it is; any other is put in execution order.
    this.apps = apps.map((app) => ({ ...app, steps: app.transitions === undefined ? inExecutionOrder(app.steps) : app.steps.map(withOrderedChanges) }));
    this.summary = summarise(this.apps);
    if (options.snapshot !== undefined) this.snapshot = { ...options.snapshot };
    if (options.behaviour !== undefined) this.behaviour = options.behaviour;
    if (options.behaviourDiff !== undefined) this.behaviourDiff = options.behaviourDiff;
    if (options.replay !== undefined) this.replay = options.replay;
    if (options.policies !== undefined) this.policies = options.policies;
    this.risks = options.risks ?? [];
    this.limitExcesses = options.excesses ?? [];
    this.notes = options.notes ?? [];
    if (options.lifetimes !== undefined && options.lifetimes.events.length > 0) this.lifetimes = options.lifetimes;
  }

  /** Parsed JSON of a saved plan → Plan. Throws UserError naming `source` when it is not a valid plan. */
  static fromJSON(value: unknown, source = 'the plan file'): Plan {
    const parsed = parsePlan(value, source);
    return new Plan(parsed.apps, {
      ...(parsed.snapshot === undefined ? {} : { snapshot: parsed.snapshot }),
      ...(parsed.lifetimes === undefined ? {} : { lifetimes: parsed.lifetimes }),
      risks: parsed.risks,
      notes: parsed.notes,
    });
  }

  /** The text of a saved plan → Plan (JSON syntax errors are UserErrors too). */
  static parse(text: string, source = 'the plan file'): Plan {
    return Plan.fromJSON(parsePlanText(text, source), source);
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

  /** Every blocked rule as `app A: "Name" (file:line:col)`. */
  blockedDetails(): string[] {
    return this.apps.flatMap((app) =>
      app.blocked.map((rule) => {
        const where = rule.source ? ` (${rule.source.file}:${rule.source.line}:${rule.source.col})` : '';
        return `app ${app.app}: "${rule.name}"${where}`;
      }),
    );
  }

  /** Throws a UserError listing every blocked rule and what to do, before anything is sent. */
  raiseIfBlocked(): void {
    const sentence = this.blockedSentence();
    if (sentence === undefined) return;
    throw new UserError(`${sentence}; nothing was sent`, [...this.blockedDetails(), BLOCKED_ADVICE]);
  }

  /**
   * Throws a UserError when an app's plan changes more rules than its limit allows, or newly
   * blocks more of its replayed traffic than maxNewlyBlocked allows, unless `force` is set: the
   * configured limits, else the defaults (see safety.ts and traffic-limit.ts).
   */
  raiseIfUnsafe(options: { maxChanges?: MaxChanges; maxDeletes?: Readonly<Record<string, MaxDeletes | undefined>>; maxNewlyBlocked?: MaxNewlyBlocked; force: boolean }): void {
    if (options.force) return;
    const excesses = this.excesses(options.maxChanges, options.maxDeletes);
    // Steps that drop unknown fields, orders that open windows (safety.ts), and traffic
    // newly blocked beyond maxNewlyBlocked (traffic-limit.ts).
    const traffic = this.trafficExcesses(options.maxNewlyBlocked);
    const others = [...this.apps.flatMap(unknownFieldDrops), ...this.windowSentences(), ...traffic.map((excess) => excess.sentence)];
    const reasons = [...excesses, ...others];
    const details = traffic.flatMap((excess) => excess.details);
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

  /**
   * One sentence per app whose order opens windows: requests that the live rules and the rule
   * files both block or challenge get through between two PATCHes (safety.ts).
   */
  windowSentences(): string[] {
    return this.apps.flatMap((app) => {
      const sentence = app.transitions === undefined ? undefined : windowSentence(app.app, app.transitions);
      return sentence === undefined ? [] : [sentence];
    });
  }

  /** One sentence per app whose plan exceeds its change limit, or its limit of deletes (see safety.ts). */
  excesses(maxChanges?: MaxChanges, maxDeletes?: Readonly<Record<string, MaxDeletes | undefined>>): string[] {
    return this.apps
      .flatMap((app) => [excessOf(app, maxChanges), deleteExcessOf(app, maxDeletes?.[app.app])])
      .filter((e): e is string => e !== undefined);
  }

  /** The plan JSON (formatVersion in file-format.ts). */
  toJSON(): SerialisedPlan {
    return {
      formatVersion: PLAN_FORMAT_VERSION,
      ...(this.snapshot === undefined ? {} : { snapshot: { ...this.snapshot } }),
      ...(this.notes.length === 0 ? {} : { notes: [...this.notes] }),
      ...(this.lifetimes === undefined ? {} : { lifetimes: { evaluatedAt: this.lifetimes.evaluatedAt, events: [...this.lifetimes.events] } }),
      apps: this.apps.map((app) => serialiseApp(app, this.risks.filter((risk) => risk.app === app.app))),
      summary: {
        patches: this.summary.patches,
        blocked: this.summary.blocked,
        unmanaged: this.summary.unmanaged,
        updates: this.summary.updates,
        moves: this.summary.moves,
        updatesAndMoves: this.summary.updatesAndMoves,
        pauses: this.summary.pauses,
        ...(this.summary.creates === undefined ? {} : { creates: this.summary.creates }),
        ...(this.summary.deletes === undefined ? {} : { deletes: this.summary.deletes }),
        positionChanges: this.summary.positionChanges,
        removed: this.summary.removed,
        removedActive: this.summary.removedActive,
      },
      ...(this.behaviourDiff === undefined ? {} : { behaviourDiff: [...this.behaviourDiff] }),
      ...(this.replay === undefined ? {} : { replay: this.replay }),
      ...(this.policies === undefined ? {} : { policies: [...this.policies] }),
    };
  }
}

function serialiseApp(app: AppPlan, risks: readonly Risk[]): SerialisedApp {
  return {
    app: app.app,
    fingerprint: app.fingerprint,
    liveRules: app.liveRules,
    steps: app.steps.map((step) => ({
      ruleId: step.ruleId, name: step.name, kind: step.kind,
      // A DELETE sends no body; a POST's body is the whole rule and its priority.
      ...(step.kind === 'delete' ? {} : { body: step.body }),
      ...(step.kind === 'create' || step.kind === 'delete' ? { position: step.position } : {}),
      ...(step.dropsUnknown === undefined ? {} : { dropsUnknown: step.dropsUnknown }),
      changes: step.changes,
    })),
    blocked: app.blocked,
    unmanaged: app.unmanaged.map((rule) => ({ ...rule, fate: unmanagedFate(app, rule) })),
    ...(app.liveDigests === undefined ? {} : { liveDigests: app.liveDigests }),
    ...(app.restore === undefined ? {} : { restore: app.restore }),
    ...(risks.length === 0 ? {} : { risks: risks.map((risk) => ({ ruleId: risk.ruleId, name: risk.name, what: risk.what })) }),
    ...(app.replay === undefined ? {} : { replay: app.replay }),
    ...(app.transitions === undefined ? {} : { transitions: app.transitions }),
  };
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
