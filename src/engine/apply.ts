// `apply`: the work (planned afresh from the rule files, or a saved plan re-planned against
// the live rules), every app applied concurrently with verify-and-correct, the undo plan, and
// the verdict (docs/behaviour.md, "Plan semantics", "Saved plans"). Showing the plan and asking
// for approval stay with the command.
import { resolve } from 'node:path';
import { rulesClientFor } from '../api/index.js';
import type { RulesApi } from '../api/types.js';
import { applyAppPlan, type AppApplyResult } from '../apply/apply-app.js';
import type { StepOutcome } from '../apply/execute.js';
import { plural, totals, type ApplyTotals } from '../apply/report.js';
import { workFromSavedPlan } from '../apply/saved-plan.js';
import { unchangedUndo, undoForApp, writeUndoPlan } from '../apply/undo.js';
import type { ApplyWork } from '../apply/work.js';
import { RemoteError, UserError } from '../errors.js';
import { Plan } from '../plan/plan.js';
import type { AppPlan } from '../plan/types.js';
import type { AppConfig } from '../rules/config.js';
import type { ProjectSelection, Runtime } from '../runtime.js';
import { planApps } from './plan-apps.js';

export type { ApplyWork } from '../apply/work.js';
export type { AppApplyResult } from '../apply/apply-app.js';

/** Correction passes after the first (docs/behaviour.md, "Plan semantics"). */
export const MAX_CORRECTIONS = 2;

export interface ApplyRequest extends ProjectSelection {
  /** A saved plan (apply --plan) instead of planning afresh. */
  planFile?: string;
}

export interface PreparedApply {
  work: ApplyWork[];
  plan: Plan;
  /** What the live rules are brought to: 'the rule files' or 'the plan'. */
  target: string;
}

/** Everything before the first PATCH: the files, the tokens, one LIST per app, the plan. */
export async function prepareApply(request: ApplyRequest, ctx: Runtime): Promise<PreparedApply> {
  const clientFor = (app: AppConfig): RulesApi => rulesClientFor(app, ctx);
  const work =
    request.planFile === undefined
      ? (await planApps(request, ctx, clientFor)).map(({ app, api, live, plan }) => ({ app, api, live, plan }))
      : await workFromSavedPlan({ file: request.planFile, cwd: ctx.cwd, config: request.config, dir: request.dir, app: request.app, clientFor });
  return { work, plan: new Plan(work.map((w) => w.plan)), target: request.planFile === undefined ? 'the rule files' : 'the plan' };
}

/** --max-changes for every app, else each app's maxChanges from the config. */
export function changeLimits(maxChanges: number | undefined, work: readonly ApplyWork[]): number | Record<string, number | undefined> {
  if (maxChanges !== undefined) return maxChanges;
  return Object.fromEntries(work.map((w) => [w.app.name, w.app.maxChanges]));
}

export interface RunApplyOptions {
  /** Field-only updates in flight at once per app. */
  concurrency: number;
  /** Each step's outcome as it completes. */
  onOutcome?: (app: string, outcome: StepOutcome) => void;
}

/** Applies every app's plan at once, each verified and corrected on its own. */
export async function runApply(work: readonly ApplyWork[], options: RunApplyOptions): Promise<AppApplyResult[]> {
  return Promise.all(
    work.map((w) =>
      applyAppPlan(w.plan.app, w.plan.steps, w.live, w.api, {
        concurrency: options.concurrency,
        maxCorrections: MAX_CORRECTIONS,
        onOutcome: (outcome) => options.onOutcome?.(w.plan.app, outcome),
      }),
    ),
  );
}

export interface WrittenUndo {
  undo: Plan;
  /** Apps with no undo plan: their live rules could not be listed after the apply. */
  unlisted: string[];
}

/** Writes the undo plan of an apply (apply --undo-out); `results` absent when nothing was sent. */
export async function saveUndo(file: string, cwd: string, work: readonly ApplyWork[], results?: readonly AppApplyResult[]): Promise<WrittenUndo> {
  const apps: AppPlan[] = [];
  const unlisted: string[] = [];
  work.forEach((w, index) => {
    const result = results?.[index];
    const undo = result === undefined ? unchangedUndo(w.plan.app, w.live) : undoForApp({ plan: w.plan, before: w.live, result });
    if (undo === undefined) unlisted.push(w.plan.app);
    else apps.push(undo);
  });
  return { undo: await writeUndoPlan(resolve(cwd, file), apps, file), unlisted };
}

/**
 * The totals of a fully successful apply, or the error that explains why it did not fully
 * succeed: a PATCH failed, the verifying LIST failed, or the live rules still differ.
 */
export function applyVerdict(results: readonly AppApplyResult[], target: string): ApplyTotals {
  const sum = totals(results);
  const failedApps = results.filter((r) => r.passes.some((p) => p.some((o) => o.state === 'failed')));
  if (failedApps.length > 0) {
    throw new RemoteError(
      `apply failed: ${plural(sum.failed, 'PATCH request')} failed, ${sum.sent - sum.failed} applied, ${sum.notAttempted} not attempted ` +
        `(app${failedApps.length === 1 ? '' : 's'} ${failedApps.map((r) => r.app).join(', ')}); ` +
        'once the cause is fixed, run botrules apply again: it plans from the live rules and sends only what remains',
      { operation: 'applying the plan' },
    );
  }
  const unlisted = results.filter((r) => r.listError !== undefined);
  if (unlisted.length > 0) {
    const reasons = unlisted.map((r) => `app ${r.app}: ${r.listError?.message ?? ''}`).join('; ');
    throw new RemoteError(`applied ${plural(sum.sent, 'PATCH request')} but could not list the rules again to verify them: ${reasons}`, {
      operation: 'verifying the apply',
    });
  }
  const differing = results.filter((r) => !r.verified);
  if (differing.length > 0) {
    const details = differing.flatMap((r) => r.differences.map((d) => `app ${r.app}: ${d}`));
    throw new UserError(
      `the live rules still differ from ${target} after ${MAX_CORRECTIONS} correction passes ` +
        "(the service's priority semantics may not be list-move):",
      [...details, 'Nothing more was sent. Check the rules in the console, then run botrules plan.'],
    );
  }
  return sum;
}
