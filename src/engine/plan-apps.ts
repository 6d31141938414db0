// The shared start of plan and apply: given the project's config, load every app's rule files, make
// one client per app (each with its own token), LIST each app once (list-apps.ts) and plan it. Everything
// that can be wrong with the user's files or environment is reported before any request:
// all problems of all apps together, then a missing token by its variable's name.
import { setImmediate } from 'node:timers/promises';
import { ValidationError, type Problem } from '../errors.js';
import type { ProjectSelection, Runtime } from '../runtime.js';
import type { RulesApi } from '../api/types.js';
import type { AppConfig } from '../rules/config.js';
import type { Project } from './project.js';
import { loadAllRules } from '../rules/load.js';
import { planApp } from '../plan/planner.js';
import type { AppPlan } from '../plan/types.js';
import type { DeclaredRule, LiveRule } from '../semantics/model.js';
import { listApps, type ConnectApp } from './list-apps.js';
import { orderSteps, transitionRun, type TransitionRequest } from '../diff/order/stage.js';
import { plural } from '../plural.js';
import { definedFields } from '../defined.js';

/** One app, planned afresh from its rule files. */
export interface PlannedApp {
  app: AppConfig;
  api: RulesApi;
  declared: DeclaredRule[];
  /** The one LIST this run made of the app. */
  live: LiveRule[];
  plan: AppPlan;
}

/**
 * Validates, connects, lists and plans every selected app. The files of all apps are
 * checked before any client is made, and all clients (tokens) before any request; the
 * apps are then listed concurrently, one LIST each. With `transitions`, each app's steps
 * are put in the order the transition check chooses (src/diff/order/).
 */
export async function planApps(
  project: Project,
  selection: Pick<ProjectSelection, 'allowEmpty' | 'now'>,
  ctx: Runtime,
  connect?: ConnectApp,
  transitions?: TransitionRequest,
  /** Problems of other files that depend on the declared rules (a policy's decidedBy), reported with theirs before any request. */
  declaredChecks?: (declared: ReadonlyMap<string, readonly DeclaredRule[]>) => Problem[],
): Promise<PlannedApp[]> {
  const readingStarted = performance.now();
  const loaded = await loadAllRules(project, { cwd: ctx.cwd, allowEmpty: selection.allowEmpty === true, ...definedFields({ now: selection.now }) });
  const files = new Set([...loaded.byApp.values()].flatMap((rules) => rules.files)).size;
  ctx.debug(`read and checked ${plural(files, 'rule file')} in ${elapsed(readingStarted)}`);
  const dependent = loaded.problems.length > 0 || declaredChecks === undefined ? [] : declaredChecks(new Map([...loaded.byApp].map(([app, rules]) => [app, rules.rules])));
  if (loaded.problems.length > 0 || dependent.length > 0) throw new ValidationError([...loaded.problems, ...dependent]);
  const listed = await listApps(project.apps, ctx, connect, project.otherApps);
  // The plan (and the analyses after it) would otherwise run inside the HTTP client's callback
  // that delivered the last answer, whose frame holds that answer's raw bytes until it returns.
  await setImmediate();
  const planned: PlannedApp[] = [];
  const problems: Problem[] = [];
  const run = transitions === undefined ? undefined : transitionRun(transitions);
  listed.forEach(({ live, ...connection }) => {
    const declared = loaded.byApp.get(connection.app.name)?.rules ?? [];
    const planningStarted = performance.now();
    const result = planApp({ app: connection.app.name, declared, live, unmanaged: connection.app.unmanaged, ...definedFields({ service: connection.app.service }) });
    ctx.debug(`planned app ${connection.app.name} (${declared.length} declared, ${live.length} live rules) in ${elapsed(planningStarted)}`);
    problems.push(...result.problems);
    const orderingStarted = performance.now();
    const plan = result.problems.length > 0 ? result.plan : orderSteps(result.plan, live, run);
    if (plan.transitions !== undefined) ctx.debug(`checked the transitions of app ${connection.app.name} (${plan.steps.length} PATCH requests) in ${elapsed(orderingStarted)}`);
    planned.push({ ...connection, declared, live, plan });
  });
  if (problems.length > 0) throw new ValidationError(problems);
  return planned;
}

function elapsed(since: number): string {
  return `${Math.round(performance.now() - since)} ms`;
}
