// `plan`: every selected app planned from its rule files, against the live rules listed now
// or against a live snapshot (docs/behaviour.md, "Live snapshots"), as one Plan; with rule
// tests, the requests whose outcome the plan changes (docs/evaluation.md, "Behaviour diff").
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ValidationError } from '../errors.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import { Plan } from '../plan/plan-value.js';
import { behaviourReport } from '../tests/behaviour.js';
import { defaultTestsDir, loadTests, type RuleTest } from '../tests/load.js';
import { appProblems } from '../tests/run.js';
import type { ProjectSelection, Runtime } from '../runtime.js';
import { plannedBehaviourDiffs, type DiffRun } from './diff.js';
import { planApps } from './plan-apps.js';
import { selectApp } from '../rules/config.js';
import { everyApp, loadEveryApp, type Project } from './project.js';
import { assembleReview } from './review.js';
import type { ReviewedPlan } from '../render/plan/review.js';
import { planDocument } from '../render/plan/plan-file.js';
import { trafficVerdict } from '../replay/verdict.js';
import { checkOneApp, liveSnapshotSource, onlyApp, replayedFiles, replayPlanned, type ReplayEngine, type ReplayProgress } from './replay.js';
import { recogniseRemovals } from './removed-rules.js';
import { lifetimeEvents } from '../plan/lifetimes.js';
import type { TransitionRequest } from '../diff/order/stage.js';
import { loadPolicies, policyReferenceProblems } from '../rules/policies.js';
import { DEFAULT_POLICY_BUDGET_SECONDS, plannedPolicyFindings, policyRun } from './policies.js';
import { definedFields } from '../defined.js';
import { RefutationStore } from '../diff/refutations.js';

interface PlanRequest extends ProjectSelection, TransitionRequest {
  /** A live snapshot file (plan --live) to plan against instead of listing: no token, no request. */
  liveFile?: string;
  /** The rule tests' directory (plan --tests); else the default tests directory when it exists. */
  testsDir?: string;
  /** Request logs to replay against the plan (plan --replay; docs/replay.md). */
  replayLogs?: string[];
  /** The replay's engine (docs/replay.md, "Engines"). */
  replayEngine?: ReplayEngine;
  /** The replay's progress, for a progress line. */
  onReplayProgress?: (progress: ReplayProgress) => void;
  /** Compute the exhaustive behaviour diff (docs/behaviour.md, "Exhaustive behaviour diff"), within this budget. */
  behaviourDiff?: DiffRun;
  /** Seconds the policy checks may take in all (docs/behaviour.md, "Policies"). */
  policyBudget?: number;
}

/** The Plan of every selected app, and its Review (engine/review.ts). */
export async function planProject(given: PlanRequest, ctx: Runtime): Promise<ReviewedPlan> {
  const started = Date.now();
  // One moment for every rule lifetime of the plan (--now rehearses another).
  const now = given.now ?? started;
  const request = { ...given, now };
  const fromSnapshot = request.liveFile === undefined ? undefined : await liveSnapshotSource(request.liveFile, ctx.cwd);
  const every = await loadEveryApp(request, ctx.cwd);
  // Test files are checked with the rule files, before any request (and before an unknown --app).
  const tests = await loadPlanTests(every, request, ctx);
  const project = selectApp(every, request.app);
  // Policy files too; whether a decidedBy names a rule is known once the rule files are read.
  const policies = await loadPolicies(project, ctx.cwd);
  if (policies.problems.length > 0) throw new ValidationError(policies.problems);
  const replayed = request.replayLogs === undefined ? undefined : await replayedFiles(request.replayLogs, ctx.cwd);
  const reading = replayed === undefined ? undefined : checkOneApp(project, 'botrules plan --app NAME --replay LOG');
  // From a snapshot: the same planning, each app's live rules read from the file.
  const allApps = everyApp(project).map((app) => app.name);
  // What the transition check's region searches prove, the behaviour diff's read (diff/refutations.ts): one store per plan.
  const refutations = new RefutationStore();
  const planned = await planApps(project, request, ctx, fromSnapshot?.source, { ...request, refutations }, (declared) => policyReferenceProblems(policies.policies, declared, allApps));
  const steps = planned.map((p) => ({ app: p.app.name, declared: p.declared, live: p.live, steps: p.plan.steps }));
  const diff = tests === undefined ? undefined : behaviourReport(tests.tests, tests.apps, steps);
  const behaviourDiff = request.behaviourDiff === undefined ? undefined : plannedBehaviourDiffs(steps, { ...request.behaviourDiff, refutations });
  const policyFindings = plannedPolicyFindings(policies.policies, steps, project.builtinPolicies, policyRun(request.policyBudget ?? DEFAULT_POLICY_BUDGET_SECONDS, started));
  const removals = await recogniseRemovals(planned);
  const replay = replayed === undefined
    ? undefined
    : await replayPlanned(onlyApp(planned, 'botrules plan --app NAME --replay LOG'), replayed, {
      ...reading, ...definedFields({ liveFile: request.liveFile, onProgress: request.onReplayProgress, engine: request.replayEngine }),
    }, ctx);
  // The replay's verdict travels with the app's plan, into a saved plan too, for apply's traffic limit.
  const apps = replay === undefined ? removals.apps : removals.apps.map((app) => ({ ...app, replay: trafficVerdict(replay) }));
  const plan = new Plan(apps, fromSnapshot === undefined ? {} : { snapshot: { takenAt: fromSnapshot.takenAt } });
  const review = assembleReview(plan, new Map(planned.map((p) => [p.app.name, p.live])), {
    maxChanges: Object.fromEntries(planned.map((p) => [p.app.name, p.app.maxChanges])),
    maxDeletes: Object.fromEntries(planned.map((p) => [p.app.name, p.app.maxDeletes])),
    maxNewlyBlocked: Object.fromEntries(planned.map((p) => [p.app.name, p.app.maxNewlyBlocked])),
  }, {
    ...(diff === undefined ? {} : { behaviour: diff.report, undecided: diff.undecided }),
    ...definedFields({ behaviourDiff }),
    ...(replay === undefined ? {} : { replay, ...definedFields({ maxDisagreement: reading?.maxDisagreement }) }),
    ...(policyFindings.length === 0 ? {} : { policies: policyFindings }),
    notes: removals.notes,
    lifetimes: { evaluatedAt: new Date(now).toISOString(), events: planned.flatMap((p) => lifetimeEvents(p.app.name, p.declared, p.plan.steps, now)) },
  });
  return { plan, review };
}

/** Saves a plan and its review as JSON for apply --plan (docs/behaviour.md, "Plan format"). */
export async function savePlan(reviewed: ReviewedPlan, file: string, cwd: string): Promise<void> {
  await writeFileAtomic(resolve(cwd, file), `${JSON.stringify(planDocument(reviewed.plan, reviewed.review), null, 2)}\n`, '--out', file);
}

/** The project's rule tests, for the behaviour diff; undefined without tests. */
async function loadPlanTests(config: Project, request: PlanRequest, ctx: Runtime): Promise<{ tests: RuleTest[]; apps: string[] } | undefined> {
  const cwd = ctx.cwd;
  const dir = request.testsDir ?? defaultTestsDir(config.file, cwd);
  if (request.testsDir === undefined && !(await isDirectory(resolve(cwd, dir)))) return undefined;
  const loaded = await loadTests(dir, { cwd });
  const apps = config.apps.map((app) => app.name);
  const problems = [...loaded.problems, ...appProblems(loaded.tests, apps)];
  if (problems.length > 0) throw new ValidationError(problems);
  ctx.debug(`read ${loaded.tests.length} rule tests from ${loaded.files.length} files`);
  return { tests: loaded.tests, apps };
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then((found) => found.isDirectory(), () => false);
}
