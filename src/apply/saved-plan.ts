// Applying a saved plan (docs/behaviour.md, "Saved plans"). A plan file is a claim, not an
// instruction: what apply shows and sends is planned again from the live rules, and the file
// is applied only when that gives exactly its steps. A forward plan is re-planned from the
// checked-out rule files; an undo plan from the rules it records as they were (`restore`).
// Anything else (a plan made from a live snapshot, a stale plan, a step added, removed or
// edited) is refused before any PATCH, naming the first difference.
import { resolve } from 'node:path';
import { UserError, ValidationError } from '../errors.js';
import { readCappedText } from '../io/capped-read.js';
import type { RulesApi } from '../api/types.js';
import type { AppConfig, ProjectConfig } from '../rules/config.js';
import { loadAllRules } from '../rules/load.js';
import { NO_CAPABILITIES, type DeclaredRule, type LiveRule } from '../semantics/model.js';
import { firstStepDifference } from '../plan/compare.js';
import { parsePlan, parsePlanText, type ParsedPlan } from '../plan/file-format.js';
import { planApp } from '../plan/planner.js';
import type { AppPlan } from '../plan/types.js';
import { restoredDeclared, undoPolicy } from '../plan/undo.js';
import type { ApplyWork } from './work.js';
import { refuseIfStale } from './stale.js';
import { orderSteps, type TransitionRun } from '../diff/order/stage.js';
import { noun } from '../plural.js';
import { definedFields } from '../defined.js';

const REPLAN_ADVICE = 'Nothing was sent. Run botrules plan --out FILE again, review it, and apply the new plan.';

interface SavedPlanInput {
  /** The plan file as the user named it (messages show it so). */
  file: string;
  cwd: string;
  /** The project's config, read once by the caller (with --app applied). */
  config: ProjectConfig;
  /** --app as given: only that app's part of the plan is applied. */
  app?: string;
  /** --now: the moment rule lifetimes are evaluated at (else the time of the apply). */
  now?: number;
}

/** A saved plan checked as far as it can be before any request: each app with its config and declared rules. */
interface LoadedSavedPlan {
  file: string;
  /** `stepsPointer`: where the app's steps are in the file (`/apps/0/steps`), for messages. */
  selected: { app: AppConfig; plan: AppPlan; stepsPointer: string }[];
  declared: ReadonlyMap<string, DeclaredRule[]>;
}

/**
 * Reads a saved plan and pairs each of its apps with the config's app of that name (for the
 * token and the rule files); the rule files of forward plans are checked here, before any
 * request, like plan and apply do. With --app only that app's part is kept.
 */
export async function loadSavedPlan(input: SavedPlanInput): Promise<LoadedSavedPlan> {
  const { file, cwd, config } = input;
  const saved = await readPlanFile(resolve(cwd, file), file);
  refuseSnapshotPlan(saved, file);
  const selected = selectedApps(saved, config, file, input.app);
  return { file, selected, declared: await declaredRules(config, selected, cwd, input.now) };
}

/**
 * The plans of a loaded saved plan, re-planned from the live rules just listed (one entry per
 * selected app, in the same order), once the live rules are the ones the plan was made from
 * and re-planning gives exactly its steps.
 */
export function replanSavedPlan(loaded: LoadedSavedPlan, listed: readonly { api: RulesApi; live: LiveRule[] }[], transitions?: TransitionRun): ApplyWork[] {
  const apps = loaded.selected.map((selected, index) => ({ ...selected, ...(listed[index] as { api: RulesApi; live: LiveRule[] }) }));
  refuseIfStale(apps);
  return apps.map(({ app, api, plan, live, stepsPointer }) => ({
    app, api, live, plan: replanned({ saved: plan, stepsPointer }, app, live, { declared: loaded.declared, file: loaded.file, transitions }),
  }));
}

async function readPlanFile(path: string, shown: string): Promise<ParsedPlan> {
  let text: string;
  try {
    // Size checked before reading: a crafted multi-gigabyte plan costs a stat (src/io/capped-read.ts).
    text = await readCappedText(path, `the plan file ${shown}`, 'a plan');
  } catch (err) {
    if (err instanceof UserError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UserError(`cannot read the plan file ${shown} (${code})`, ['Write one with: botrules plan --out FILE']);
  }
  return parsePlan(parsePlanText(text, shown), shown);
}

function refuseSnapshotPlan(saved: ParsedPlan, file: string): void {
  if (saved.snapshot === undefined) return;
  throw new UserError(
    `${file} was planned against a snapshot of the live rules taken at ${JSON.stringify(saved.snapshot.takenAt)} ` +
      '(plan --live), not against the live rules themselves; such a plan is for review and can never be applied',
    ['Nothing was sent. Apply from a trusted job: botrules plan --out FILE against the live rules, then botrules apply --plan FILE.'],
  );
}

function selectedApps(saved: ParsedPlan, config: ProjectConfig, file: string, only: string | undefined): { app: AppConfig; plan: AppPlan; stepsPointer: string }[] {
  const byName = new Map(config.apps.map((app) => [app.name, app]));
  const plans = only === undefined ? saved.apps : saved.apps.filter((p) => p.app === only);
  if (plans.length === 0) {
    throw new UserError(`${file} holds no plan for app ${only ?? ''}: it plans ${saved.apps.map((p) => p.app).join(', ') || 'no app'}`);
  }
  const unknown = plans.filter((p) => !byName.has(p.app)).map((p) => p.app);
  if (unknown.length > 0) {
    throw new UserError(`${file} plans ${noun(unknown.length, 'app')} ${unknown.join(', ')}, which the config does not name`, [
      'Apply the plan from the repository it was made in, with the same botrules.yaml.',
    ]);
  }
  return plans.map((plan) => ({ app: byName.get(plan.app) as AppConfig, plan, stepsPointer: `/apps/${saved.apps.indexOf(plan)}/steps` }));
}

/** The declared rules of every app with a forward plan; all problems together, before any request. */
async function declaredRules(config: ProjectConfig, selected: readonly { app: AppConfig; plan: AppPlan }[], cwd: string, now: number | undefined) {
  const forward = selected.filter(({ plan }) => plan.restore === undefined).map(({ app }) => app);
  const byApp = new Map<string, DeclaredRule[]>();
  if (forward.length === 0) return byApp;
  // The saved plan's own steps decide whether an empty rules directory was meant.
  // Lifetimes at the moment of this apply: a rule that expired since the plan was saved makes the plan stale.
  const loaded = await loadAllRules({ ...config, apps: forward }, { cwd, allowEmpty: true, ...definedFields({ now }) });
  if (loaded.problems.length > 0) throw new ValidationError(loaded.problems);
  for (const app of forward) byApp.set(app.name, loaded.byApp.get(app.name)?.rules ?? []);
  return byApp;
}

/**
 * The app's plan as planned again now: from the rule files (forward plan) or back to the
 * recorded rules (undo plan). Throws when it is not exactly the file's plan.
 */
function replanned(
  { saved, stepsPointer }: { saved: AppPlan; stepsPointer: string },
  app: AppConfig,
  live: LiveRule[],
  { declared, file, transitions }: { declared: ReadonlyMap<string, DeclaredRule[]>; file: string; transitions: TransitionRun | undefined },
): AppPlan {
  const undo = saved.restore !== undefined;
  const input = undo
    ? { declared: restoredDeclared(saved.restore ?? [], live, `rules recorded in ${file}`), unmanaged: undoPolicy(app.service ?? NO_CAPABILITIES) }
    : { declared: declared.get(app.name) ?? [], unmanaged: app.unmanaged };
  const { plan: planned, problems } = planApp({ app: app.name, live, ...input, ...definedFields({ service: app.service }) });
  // The file's order of the same steps, its transitions checked again here (never read from the
  // file): an undo plan's too, since its states are as live as any plan's.
  const plan = orderSteps(planned, live, transitions, saved.steps);
  const what = undo ? 'the undo plan' : 'the plan';
  const from = undo ? 'the rules it records' : 'the rule files';
  if (problems.length > 0) {
    throw new UserError(`${file} cannot be checked: re-planning app ${app.name} from ${from} fails`, [
      ...problems.map((p) => `${p.file}:${p.line}:${p.col}: ${p.message}`),
      REPLAN_ADVICE,
    ]);
  }
  const difference = firstStepDifference(saved.steps, plan.steps, stepsPointer);
  if (difference !== undefined) {
    throw new UserError(
      `${file} is not what re-planning app ${app.name} from ${from} against the live rules gives, so ${what} is refused: ${difference}`,
      [REPLAN_ADVICE],
    );
  }
  if (undo) return { ...plan, restore: saved.restore };
  // The replay verdict recorded at plan time (plan --replay --out) is checked against the traffic limit.
  return saved.replay === undefined ? plan : { ...plan, replay: saved.replay };
}
