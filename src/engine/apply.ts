// `apply` as one use case: the work (planned afresh from the rule files, or a saved plan
// re-planned against the live rules), the refusals (blocked rules, change limits), approval,
// every app applied concurrently with verify-and-correct, the undo plan, and the verdict
// (docs/behaviour.md, "Plan semantics", "Saved plans", "Verify, correct, and drift",
// "Interrupted applies"). The command shows the plan, asks, renders progress and the report,
// and chooses the exit code: `applyProject` returns one ApplyReport value.
import { resolve } from 'node:path';
import { applyAppPlan, type AppApplyResult } from '../apply/apply-app.js';
import type { StepOutcome } from '../apply/execute.js';
import { totals, type ApplyTotals } from '../apply/report.js';
import { loadSavedPlan, replanSavedPlan } from '../apply/saved-plan.js';
import type { ApplyWork } from '../apply/work.js';
import { UserError } from '../errors.js';
import { checkWritable } from '../io/atomic-write.js';
import { Plan } from '../plan/plan-value.js';
import { changeAllowance, type MaxChanges } from '../plan/safety.js';
import type { AppPlan, PlanStep } from '../plan/types.js';
import type { ProjectSelection, Runtime } from '../runtime.js';
import { applyVerdict, MAX_CORRECTIONS, unsupportedRequest } from './apply-verdict.js';
import { listApps } from './list-apps.js';
import { planApps } from './plan-apps.js';
import { everyApp, loadProject, type Project } from './project.js';
import { recogniseRemovals } from './removed-rules.js';
import { assembleReview } from './review.js';
import type { Review } from '../render/plan/review.js';
import { raiseIfBlocked, raiseIfUnsafe } from '../render/plan/refusals.js';
import { plannedBehaviourDiffs, type DiffRun } from './diff.js';
import { saveUndo, undoFileFor, type SavedUndo } from './apply-undo.js';
import { checkOneApp, onlyApp, replayedFiles, replayPlanned, type ReplayEngine } from './replay.js';
import type { LogReading } from '../replay/read.js';
import { trafficVerdict } from '../replay/verdict.js';
import { transitionRun, type TransitionRequest } from '../diff/order/stage.js';
import { policyReferenceProblems } from '../rules/policies.js';
import type { DeclaredRule } from '../semantics/model.js';
import { definedFields } from '../defined.js';
import { applyPolicies, applyPolicyFindings, raiseIfPolicyRefuses } from './apply-policies.js';
import { RefutationStore } from '../diff/refutations.js';

interface ApplyRequest extends ProjectSelection, TransitionRequest {
  /** A saved plan (apply --plan) instead of planning afresh. */
  planFile?: string;
  /** --max-changes: one limit for every app instead of each app's maxChanges. */
  maxChanges?: number;
  /** --force: apply a plan over its change limit. */
  force?: boolean;
  /** Field-only updates in flight at once per app (default 4). */
  concurrency?: number;
  /** --undo-out: where to write the undo plan. */
  undoOut?: string;
  /** --replay: request logs replayed against the plan, for the traffic limit (maxNewlyBlocked). */
  replayLogs?: string[];
  /** The replay's engine (docs/replay.md, "Engines"). */
  replayEngine?: ReplayEngine;
  /**
   * The exhaustive behaviour diff, shown with the plan as `plan` shows it (absent with
   * --no-behaviour-diff): worked out from the live rules just listed, never read from a saved plan.
   */
  behaviourDiff?: DiffRun;
  /** Seconds the policy checks may take in all (docs/behaviour.md, "Policies and apply"). */
  policyBudget?: number;
}

/** What happens as the apply runs, for progress output. */
export type ApplyProgress =
  | { kind: 'pass'; app: string; pass: number; steps: readonly PlanStep[] }
  | { kind: 'step'; app: string; pass: number; outcome: StepOutcome };

interface ApplyHooks {
  /** The plan and its review (with the policies' verdicts over what it leaves), before anything refuses it (the command prints them). */
  show?: (plan: Plan, review: Review, target: string) => void;
  /** Asked once the plan may be applied and changes something; false cancels (nothing sent). */
  approve: (plan: Plan, review: Review) => Promise<boolean>;
  onProgress?: (event: ApplyProgress) => void;
  /** An interrupt: no new request starts once it is aborted; the ones in flight finish. */
  signal?: AbortSignal;
  /**
   * True when the report can no longer reach its reader (stdout failed: a full disk). The undo
   * plan is then written to its default file as after an interrupt, since nobody saw what was sent.
   */
  outputLost?: () => boolean;
}

export interface ApplyReport {
  plan: Plan;
  /** What the live rules are brought to: 'the rule files' or 'the plan'. */
  target: string;
  /** no-changes: nothing to send; cancelled: not approved, or interrupted before the first PATCH; applied: steps were run. */
  outcome: 'no-changes' | 'cancelled' | 'applied';
  results: AppApplyResult[];
  totals: ApplyTotals;
  /** True when an interrupt stopped the apply (or cancelled it before it began). */
  interrupted: boolean;
  /** The undo plan written (--undo-out, or the default location after an interrupt). */
  undo?: SavedUndo;
  /** Why the undo plan could not be written where asked (it was written elsewhere, or is in the message). */
  undoError?: Error;
  /** Why the apply did not fully succeed: a failed PATCH, an unverified result, drift. Undefined when it did. */
  failure?: Error;
}

const DEFAULT_CONCURRENCY = 4;

export async function applyProject(request: ApplyRequest, ctx: Runtime, hooks: ApplyHooks): Promise<ApplyReport> {
  // Before any request: an apply must never send changes and then fail to write its undo plan.
  if (request.undoOut !== undefined) await checkWritable(resolve(ctx.cwd, request.undoOut), '--undo-out', request.undoOut);
  // With --replay, the log files are checked before the config is read.
  const replayFiles = request.replayLogs === undefined ? undefined : await replayedFiles(request.replayLogs, ctx.cwd);
  const config = await loadProject(request, ctx.cwd);
  const replay = replayFiles === undefined ? undefined : { files: replayFiles, reading: { ...checkOneApp(config, REPLAY_USAGE), ...definedFields({ engine: request.replayEngine }) } };
  const started = Date.now();
  // The policy files are checked before any request, as plan checks them.
  const policies = await applyPolicies(config, ctx.cwd);
  const allApps = everyApp(config).map((app) => app.name);
  // What the transition check's region searches prove, the behaviour diff's read (diff/refutations.ts): one store per apply.
  const refutations = new RefutationStore();
  const prepared = await prepareWork(config, { ...request, refutations }, ctx, (declared) => policyReferenceProblems(policies.policies, declared, allApps));
  // Which rules not in the files were removed from them, from the checkout's git history, never from a saved plan.
  const removals = await recogniseRemovals(prepared.work);
  const marked = prepared.work.map((w, index) => ({ ...w, plan: removals.apps[index] as AppPlan }));
  const target = prepared.target;
  const replayed = replay ?? (await recordedReplay(marked, config, request, ctx));
  const work = replayed === undefined ? marked : await withReplayVerdict(marked, replayed, ctx);
  const behaviourDiff = request.behaviourDiff === undefined
    ? undefined
    : plannedBehaviourDiffs(work.map((w) => ({ app: w.plan.app, live: w.live, steps: w.plan.steps })), { ...request.behaviourDiff, refutations });
  const plan = new Plan(work.map((w) => w.plan));
  // Proved again over what this apply sends, never read from a saved plan.
  const policyFindings = applyPolicyFindings(work, {
    policies: policies.policies, builtinLevels: config.builtinPolicies,
    ...definedFields({ declared: prepared.declared, planFile: request.planFile, budgetSeconds: request.policyBudget }),
  }, started);
  const limits = changeLimits(request.maxChanges, work);
  const enforced = {
    maxChanges: limits,
    maxDeletes: Object.fromEntries(work.map((w) => [w.app.name, w.app.maxDeletes])),
    maxNewlyBlocked: Object.fromEntries(work.map((w) => [w.app.name, w.app.maxNewlyBlocked])),
  };
  const review = assembleReview(plan, new Map(work.map((w) => [w.plan.app, w.live])), enforced, {
    notes: removals.notes, policies: policyFindings, ...definedFields({ behaviourDiff }),
  });
  hooks.show?.(plan, review, target);
  raiseIfBlocked(plan);
  raiseIfPolicyRefuses(policyFindings, request.force === true);
  raiseIfUnsafe(plan, { ...enforced, force: request.force === true });
  const report: ApplyReport = { plan, target, outcome: 'no-changes', results: [], totals: totals([]), interrupted: false };
  if (plan.summary.patches === 0) {
    // Nothing to restore: the undo plan is empty, pinned to the live rules as they are.
    if (request.undoOut !== undefined) report.undo = await saveUndo(request.undoOut, ctx.cwd, work);
    return report;
  }
  const aborted = (): boolean => hooks.signal?.aborted === true;
  const approved = !aborted() && (await hooks.approve(plan, review));
  if (!approved || aborted()) return { ...report, outcome: 'cancelled', interrupted: aborted() };

  const results = await runApply(work, limits, request, hooks);
  // An interrupt after the last step (while verifying) still counts: the user gets the undo plan.
  const interrupted = results.some((r) => r.interrupted) || aborted();
  const applied: ApplyReport = { ...report, outcome: 'applied', results, totals: totals(results), interrupted };
  // A service that refused a POST or DELETE stopped the apply part-way, as an interrupt does, and so
  // did output that could not be written: the undo is written either way.
  const undoFile = undoFileFor(request.undoOut, interrupted || unsupportedRequest(results) !== undefined || hooks.outputLost?.() === true);
  if (undoFile !== undefined) {
    try {
      // The undo's order gets a transition check of its own, with the same budget.
      const transitions = transitionRun(request);
      applied.undo = await saveUndo(undoFile.file, ctx.cwd, work, { results, chosen: undoFile.chosen, ...definedFields({ transitions }) });
    } catch (err) {
      applied.undoError = err instanceof Error ? err : new Error(String(err));
    }
  }
  if (!interrupted) {
    const failure = applyVerdict(results, target);
    if (failure !== undefined) applied.failure = failure;
  }
  return applied;
}

/** Everything before the first PATCH: the files, the tokens, one LIST per app, the plans (and the rule files read). */
async function prepareWork(
  config: Project,
  request: ApplyRequest,
  ctx: Runtime,
  declaredChecks: Parameters<typeof planApps>[5],
): Promise<{ work: ApplyWork[]; target: string; declared?: Map<string, DeclaredRule[]> }> {
  if (request.planFile === undefined) {
    const planned = await planApps(config, request, ctx, undefined, request, declaredChecks);
    const declared = new Map(planned.map((p) => [p.app.name, p.declared]));
    return { work: planned.map(({ app, api, live, plan }) => ({ app, api, live, plan })), target: 'the rule files', declared };
  }
  const saved = await loadSavedPlan({ file: request.planFile, cwd: ctx.cwd, config, ...definedFields({ app: request.app, now: request.now }) });
  const apps = saved.selected.map((s) => s.app);
  // The configured apps the plan (or --app) leaves out are compared too, without a request.
  const others = everyApp(config).filter((app) => !apps.includes(app));
  const listed = await listApps(apps, ctx, undefined, others);
  return { work: replanSavedPlan(saved, listed, transitionRun(request)), target: 'the plan' };
}

const REPLAY_USAGE = 'botrules apply --app NAME --replay LOG…';

/**
 * A saved plan's replay verdict is never taken from the file, which anyone could edit to hide
 * newly blocked traffic: the logs it names are replayed again against what apply will send (as
 * with --replay). Logs that cannot be read here are an error, before any change is sent.
 */
async function recordedReplay(work: readonly ApplyWork[], config: Project, request: ApplyRequest, ctx: Runtime): Promise<{ files: string[]; reading: LogReading } | undefined> {
  const recorded = work.map((w) => w.plan.replay as { logs?: unknown } | undefined).find((verdict) => verdict !== undefined);
  if (recorded === undefined || request.planFile === undefined) return undefined;
  const logs = Array.isArray(recorded.logs) ? recorded.logs.map(String) : [];
  const files = await replayedFiles(logs, ctx.cwd).catch((err: unknown) => {
    throw new UserError(`${request.planFile} records a replay verdict, which apply does not take from the file but replays again, and its logs cannot be read here: ${err instanceof Error ? err.message : String(err)}`, [
      'Run apply where the logs are (they are named relative to where the plan was made), give them with --replay LOG…, or plan again.',
    ]);
  });
  return { files, reading: checkOneApp(config, REPLAY_USAGE) };
}

/**
 * The one app's plan with the verdict of replaying the logs against exactly what apply will
 * send (it replaces a verdict a saved plan recorded at plan time).
 */
async function withReplayVerdict(work: ApplyWork[], replay: { files: string[]; reading: LogReading & { engine?: ReplayEngine } }, ctx: Runtime): Promise<ApplyWork[]> {
  const only = onlyApp(work, REPLAY_USAGE);
  const report = await replayPlanned(only, replay.files, replay.reading, ctx);
  return [{ ...only, plan: { ...only.plan, replay: trafficVerdict(report) } }];
}

/** --max-changes for every app, else each app's maxChanges from the config. */
function changeLimits(maxChanges: number | undefined, work: readonly ApplyWork[]): MaxChanges {
  if (maxChanges !== undefined) return maxChanges;
  return Object.fromEntries(work.map((w) => [w.app.name, w.app.maxChanges]));
}

/**
 * Applies every app's plan at once, each verified and corrected on its own. Corrections count
 * against the app's change limit (with --force, only the per-pass limit of the plan's own moves holds).
 */
async function runApply(work: readonly ApplyWork[], limits: MaxChanges, request: ApplyRequest, hooks: ApplyHooks): Promise<AppApplyResult[]> {
  return Promise.all(
    work.map((w) => {
      const app = w.plan.app;
      const budget = request.force === true ? Number.POSITIVE_INFINITY : changeAllowance(w.plan, limits) - w.plan.steps.length;
      return applyAppPlan(app, w.plan.steps, w.live, w.api, {
        concurrency: request.concurrency ?? DEFAULT_CONCURRENCY,
        // An order the transition check chose holds only when each step that changes behaviour runs alone, in order.
        ordered: w.plan.transitions !== undefined,
        maxCorrections: MAX_CORRECTIONS,
        correctionBudget: Math.max(0, budget),
        ...definedFields({ signal: hooks.signal }),
        onPass: (pass, steps) => hooks.onProgress?.({ kind: 'pass', app, pass, steps }),
        onOutcome: (outcome, pass) => hooks.onProgress?.({ kind: 'step', app, pass, outcome }),
      });
    }),
  );
}
