// The Plan value object: every app's steps, blocked and unmanaged rules, the counts a
// summary shows, and the safety checks `apply` runs before sending anything. It is built
// from freshly planned apps or from a saved plan file, and serialises to the contract §4
// JSON (display extras are never serialised).
import { UserError } from '../errors.js';
import { appPlansFromJSON, parsePlanText, PLAN_FORMAT_VERSION } from './plan-json.js';
import { isMove, isUnmanagedPause } from './types.js';
import type { AppPlan, PlanStep } from './types.js';

export type { AppPlan, BlockedRule, PlanStep, StepDisplay, UnmanagedPolicy, UnmanagedRule } from './types.js';
export { isMove, isUnmanagedPause } from './types.js';

/**
 * Counts over all apps. Each PATCH is counted once: `updates` change fields of a managed
 * rule (some also move it), `moves` only move one, `pauses` pause an unmanaged rule, so
 * updates + moves + pauses = patches.
 */
export interface PlanSummary {
  /** PATCH requests. */
  patches: number;
  blocked: number;
  /** Live rules no rule file declares. */
  unmanaged: number;
  updates: number;
  moves: number;
  pauses: number;
  /** Unmanaged rules left as they are (all of them under `keep`; the already paused under `pause`). */
  unmanagedKept: number;
}

/** Either one limit for every app (`--max-changes N`) or a limit per app name (config). */
export type MaxChanges = number | Readonly<Record<string, number | undefined>>;

export interface SerialisedPlan {
  formatVersion: typeof PLAN_FORMAT_VERSION;
  apps: {
    app: string;
    fingerprint: string;
    steps: Omit<PlanStep, 'display'>[];
    blocked: AppPlan['blocked'];
    unmanaged: AppPlan['unmanaged'];
    liveDigests?: Record<string, string>;
  }[];
  summary: Pick<PlanSummary, 'patches' | 'blocked' | 'unmanaged'>;
}

export class Plan {
  readonly apps: readonly AppPlan[];
  readonly summary: PlanSummary;

  constructor(apps: readonly AppPlan[]) {
    this.apps = [...apps];
    this.summary = summarise(this.apps);
  }

  /** Parsed JSON of a saved plan → Plan. Throws UserError naming `source` when it is not a valid plan. */
  static fromJSON(value: unknown, source = 'the plan file'): Plan {
    return new Plan(appPlansFromJSON(value, source));
  }

  /** The text of a saved plan → Plan (JSON syntax errors are UserErrors too). */
  static parse(text: string, source = 'the plan file'): Plan {
    return Plan.fromJSON(parsePlanText(text, source), source);
  }

  /** True when the live rules differ from the rule files: a PATCH to send or a blocked rule. */
  hasChanges(): boolean {
    return this.summary.patches > 0 || this.summary.blocked > 0;
  }

  /** A plan with blocked rules cannot be applied. */
  canApply(): boolean {
    return this.summary.blocked === 0;
  }

  /** Throws a UserError listing every blocked rule and what to do, before anything is sent. */
  raiseIfBlocked(): void {
    if (this.canApply()) return;
    const count = this.summary.blocked;
    const details = this.apps.flatMap((app) =>
      app.blocked.map((rule) => {
        const where = rule.source ? ` (${rule.source.file}:${rule.source.line}:${rule.source.col})` : '';
        return `app ${app.app}: "${rule.name}"${where}: ${rule.reason}`;
      }),
    );
    throw new UserError(
      `the plan cannot be applied: ${count === 1 ? '1 declared rule does' : `${count} declared rules do`} not exist ` +
        'live, and the API cannot create rules; nothing was sent',
      details,
    );
  }

  /**
   * Throws a UserError when an app's plan has more PATCH requests than its limit allows,
   * unless `force` is set. Apps without a limit are not checked.
   */
  raiseIfUnsafe(options: { maxChanges?: MaxChanges; force: boolean }): void {
    if (options.force || options.maxChanges === undefined) return;
    const limits = options.maxChanges;
    const excesses: string[] = [];
    for (const app of this.apps) {
      const limit = typeof limits === 'number' ? limits : limits[app.app];
      if (limit === undefined || app.steps.length <= limit) continue;
      const source = typeof limits === 'number' ? `--max-changes ${limit}` : `maxChanges ${limit} (set for this app)`;
      excesses.push(`plan for app ${app.app} has ${app.steps.length} PATCH requests, more than ${source} allows`);
    }
    const [first, ...rest] = excesses;
    if (first === undefined) return;
    const advice = 'review it and use --force to apply anyway';
    if (rest.length === 0) throw new UserError(`${first}; ${advice}`);
    throw new UserError(`${excesses.length} app plans exceed their change limits; review them and use --force to apply anyway`, excesses);
  }

  /** Contract §4 JSON. */
  toJSON(): SerialisedPlan {
    return {
      formatVersion: PLAN_FORMAT_VERSION,
      apps: this.apps.map((app) => ({
        app: app.app,
        fingerprint: app.fingerprint,
        steps: app.steps.map((step) => ({ ruleId: step.ruleId, name: step.name, reasons: step.reasons, body: step.body })),
        blocked: app.blocked,
        unmanaged: app.unmanaged,
        ...(app.liveDigests === undefined ? {} : { liveDigests: app.liveDigests }),
      })),
      summary: { patches: this.summary.patches, blocked: this.summary.blocked, unmanaged: this.summary.unmanaged },
    };
  }
}

export function summarise(apps: readonly AppPlan[]): PlanSummary {
  const summary: PlanSummary = { patches: 0, blocked: 0, unmanaged: 0, updates: 0, moves: 0, pauses: 0, unmanagedKept: 0 };
  for (const app of apps) {
    const counts = countSteps(app.steps);
    summary.patches += app.steps.length;
    summary.blocked += app.blocked.length;
    summary.unmanaged += app.unmanaged.length;
    summary.updates += counts.updates;
    summary.moves += counts.moves;
    summary.pauses += counts.pauses;
    summary.unmanagedKept += app.unmanaged.length - counts.pauses;
  }
  return summary;
}

/** One app's step counts, each step counted once (see PlanSummary). */
export function countSteps(steps: readonly PlanStep[]): Pick<PlanSummary, 'updates' | 'moves' | 'pauses'> {
  let updates = 0;
  let moves = 0;
  let pauses = 0;
  for (const step of steps) {
    if (isUnmanagedPause(step)) pauses += 1;
    else if (isMove(step) && Object.keys(step.body).length === 1) moves += 1;
    else updates += 1;
  }
  return { updates, moves, pauses };
}
