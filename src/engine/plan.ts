// `plan`: every selected app planned from its rule files, against the live rules listed now
// or against a live snapshot (docs/behaviour.md, "Live snapshots"), as one Plan; with rule
// tests, the requests whose outcome the plan changes (docs/evaluation.md, "Behaviour diff").
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ValidationError } from '../errors.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import { Plan, type TrafficExcess } from '../plan/plan-value.js';
import { loadProjectConfig } from '../rules/config.js';
import { behaviourReport } from '../requests/expectations/behaviour.js';
import { defaultTestsDir, loadTests, type RuleTest } from '../requests/expectations/load.js';
import { appProblems } from '../requests/expectations/run.js';
import type { ProjectSelection, Runtime } from '../runtime.js';
import { planRisks } from '../plan/risks.js';
import { plannedBehaviourDiffs, type DiffRun } from './behaviour-diff.js';
import { planApps, type ConnectApp } from './plan-apps.js';
import { trafficVerdict } from '../requests/traffic/verdict.js';
import { disagreementWarning } from '../requests/traffic/agreement.js';
import { checkOneApp, onlyApp, replayedFiles, replayPlanned, type ReplayEngine, type ReplayProgress, type ReplayReport } from './replay.js';
import { recogniseRemovals } from './removed-rules.js';
import { lifetimeEvents } from '../plan/lifetimes.js';
import type { TransitionRequest } from '../behaviour/transitions.js';
import { loadPolicies, policyReferenceProblems } from '../rules/policies.js';
import type { PolicyFinding } from '../render/policies/model.js';
import { DEFAULT_POLICY_BUDGET_SECONDS, plannedPolicyFindings, policyRun } from './policies.js';

export interface PlanRequest extends ProjectSelection, TransitionRequest {
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

export interface PlannedProject {
  plan: Plan;
  /** One sentence per app whose plan exceeds its change limit (apply refuses those without --force). */
  excesses: string[];
  /** One sentence per test the behaviour diff leaves out because its outcome is undecided (a pattern out of time). */
  undecided: string[];
  /** With replayLogs of a log recording production's decisions: the live rules disagree with it beyond replay.maxDisagreement. */
  modelWarnings?: string[];
  /** With replayLogs: what the plan does to the logged requests. */
  replay?: ReplayReport;
  /** With replayLogs: the app whose replayed traffic the plan newly blocks beyond maxNewlyBlocked (apply refuses it without --force). */
  trafficExcesses: TrafficExcess[];
  /** Every policy for every planned app over the rules as apply would leave them, and the built-in policies' findings. */
  policies: PolicyFinding[];
}

export async function planProject(given: PlanRequest, ctx: Runtime): Promise<PlannedProject> {
  const started = Date.now();
  // One moment for every rule lifetime of the plan (--now rehearses another).
  const now = given.now ?? started;
  const request = { ...given, now };
  const fromSnapshot = request.liveFile === undefined ? undefined : await loadSnapshot(request.liveFile, ctx.cwd);
  // Test files are checked with the rule files, before any request.
  const tests = await loadPlanTests(request, ctx);
  // Policy files too; whether a decidedBy names a rule is known once the rule files are read.
  const policyConfig = await loadProjectConfig({ cwd: ctx.cwd, config: request.config, dir: request.dir, app: request.app });
  const policies = await loadPolicies(policyConfig, ctx.cwd);
  if (policies.problems.length > 0) throw new ValidationError(policies.problems);
  const replayed = request.replayLogs === undefined ? undefined : await replayedFiles(request.replayLogs, ctx.cwd);
  const reading = replayed === undefined ? undefined : await checkOneApp(request, ctx, 'botrules plan --app NAME --replay LOG');
  // From a snapshot: the same planning, each app's live rules read from the file.
  const allApps = [...policyConfig.apps, ...(policyConfig.otherApps ?? [])].map((app) => app.name);
  const planned = await planApps(request, ctx, fromSnapshot?.source, request, (declared) => policyReferenceProblems(policies.policies, declared, allApps));
  const diff = tests === undefined
    ? undefined
    : behaviourReport(tests.tests, tests.apps, planned.map((p) => ({ app: p.app.name, live: p.live, steps: p.plan.steps })));
  const behaviour = diff?.report;
  const behaviourDiff = request.behaviourDiff === undefined
    ? undefined
    : plannedBehaviourDiffs(planned.map((p) => ({ app: p.app.name, live: p.live, steps: p.plan.steps })), request.behaviourDiff);
  const policyFindings = plannedPolicyFindings(
    policies.policies,
    planned.map((p) => ({ app: p.app.name, declared: p.declared, live: p.live, steps: p.plan.steps })),
    policyConfig.builtinPolicies,
    policyRun(request.policyBudget ?? DEFAULT_POLICY_BUDGET_SECONDS, started),
  );
  const removals = await recogniseRemovals(planned);
  const limits = Object.fromEntries(planned.map((p) => [p.app.name, p.app.maxChanges]));
  const risks = planned.flatMap((p) => planRisks(p.app.name, p.live, p.plan.steps));
  const maxDeletes = Object.fromEntries(planned.map((p) => [p.app.name, p.app.maxDeletes]));
  const excesses = new Plan(planned.map((p) => p.plan)).excesses(limits, maxDeletes);
  const replay = replayed === undefined
    ? undefined
    : await replayPlanned(onlyApp(planned, 'botrules plan --app NAME --replay LOG'), replayed, {
      ...(request.liveFile === undefined ? {} : { liveFile: request.liveFile }),
      ...reading,
      ...(request.onReplayProgress === undefined ? {} : { onProgress: request.onReplayProgress }),
      ...(request.replayEngine === undefined ? {} : { engine: request.replayEngine }),
    }, ctx);
  // The replay's verdict travels with the app's plan, into a saved plan too, for apply's traffic limit.
  const apps = replay === undefined ? removals.apps : removals.apps.map((app) => ({ ...app, replay: trafficVerdict(replay) }));
  const plan = new Plan(apps, {
    ...(fromSnapshot === undefined ? {} : { snapshot: { takenAt: fromSnapshot.takenAt } }),
    ...(behaviour === undefined ? {} : { behaviour }),
    ...(behaviourDiff === undefined ? {} : { behaviourDiff }),
    ...(replay === undefined ? {} : { replay }),
    ...(policyFindings.length === 0 ? {} : { policies: policyFindings }),
    risks,
    excesses,
    notes: removals.notes,
    lifetimes: { evaluatedAt: new Date(now).toISOString(), events: planned.flatMap((p) => lifetimeEvents(p.app.name, p.declared, p.plan.steps, now)) },
  });
  const trafficExcesses = plan.trafficExcesses(Object.fromEntries(planned.map((p) => [p.app.name, p.app.maxNewlyBlocked])));
  const modelWarnings = replay === undefined ? [] : replayWarnings(replay, reading?.maxDisagreement);
  return {
    plan, excesses, trafficExcesses, policies: policyFindings, undecided: diff?.undecided ?? [], ...(replay === undefined ? {} : { replay }),
    ...(modelWarnings.length === 0 ? {} : { modelWarnings }),
  };
}

/**
 * What the replayed traffic cannot vouch for: requests undecided for lack of fields (the traffic
 * limit counts only decided requests), and live rules that disagree with production's decisions.
 */
function replayWarnings(replay: ReplayReport, maxDisagreement: number | undefined): string[] {
  const warnings: string[] = [];
  const undecided = replay.coverage?.undecided ?? 0;
  if (undecided > 0) {
    warnings.push(`${undecided} of the ${replay.evaluated} replayed requests are undecided for lack of fields the changed rules read ` +
      '(see the replay report): the traffic limit counts only decided requests');
  }
  const disagreement = replay.production === undefined ? undefined : disagreementWarning(replay.production, maxDisagreement);
  if (disagreement !== undefined) warnings.push(disagreement);
  return warnings;
}

/** Saves a plan as JSON for apply --plan (docs/behaviour.md, "Plan format"). */
export async function savePlan(plan: Plan, file: string, cwd: string): Promise<void> {
  await writeFileAtomic(resolve(cwd, file), `${JSON.stringify(plan.toJSON(), null, 2)}\n`, '--out', file);
}

/** Loaded only for --live, so a plan against the service never loads the snapshot reader. */
async function loadSnapshot(file: string, cwd: string): Promise<{ takenAt: string; source: ConnectApp }> {
  const [{ readLiveSnapshotFile }, { snapshotSource }] = await Promise.all([import('../live/file.js'), import('../live/snapshot.js')]);
  const snapshot = await readLiveSnapshotFile(resolve(cwd, file), file);
  return { takenAt: snapshot.takenAt, source: snapshotSource(snapshot, file) };
}

/** The project's rule tests, for the behaviour diff; undefined without tests. */
async function loadPlanTests(request: PlanRequest, ctx: Runtime): Promise<{ tests: RuleTest[]; apps: string[] } | undefined> {
  const cwd = ctx.cwd;
  const config = await loadProjectConfig({ cwd, config: request.config, dir: request.dir });
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
