// Which live rules were declared once and are now in no rule file (docs/behaviour.md,
// "Removed rules"). The service cannot delete rules, so removing a file leaves the rule
// live; the plan must say so by name. What was declared is read from git: the name and
// ruleId of every rule of every version of the app's rule files in the history of HEAD, each
// read by the rule-file parser (rule-file-versions.ts). It works locally and in a pull request's checkout
// with full history; without git, outside a repository, or in a shallow clone the plan
// says it could not tell, and lists the undeclared rules all the same.
import { gitOrUndefined } from '../io/git.js';
import type { AppPlan } from '../plan/types.js';
import type { AppConfig } from '../rules/config.js';
import type { PlanNote } from '../render/plan/reasons.js';
import { ruleFileVersions, WHOLE_FILE_CONTEXT } from './rule-file-versions.js';

interface DeclaredOnce {
  ruleIds: ReadonlySet<string>;
  names: ReadonlySet<string>;
}

type History = { known: true; declared: DeclaredOnce; shallow: boolean } | { known: false; why: 'no-repository' | 'log-failed' };

/** Generous: every version of a rules directory's files, whole. */
const MAX_HISTORY_BYTES = 256 * 1024 * 1024;
const GIT_TIMEOUT_MS = 30_000;

/**
 * Marks the unmanaged rules the rules directories' git history shows were declared once, and
 * says once why that could not be told (plan, apply and apply --plan alike). Git is asked only
 * when an app has unmanaged rules, once per directory. An undo plan is left as it is: it
 * restores recorded rules, and what the files once declared says nothing about it.
 */
export async function recogniseRemovals(planned: readonly { app: Pick<AppConfig, 'rulesDir'>; plan: AppPlan }[]): Promise<{ apps: AppPlan[]; notes: PlanNote[] }> {
  const histories = new Map<string, Promise<History>>();
  const historyOf = (dir: string): Promise<History> => {
    const known = histories.get(dir) ?? declaredInHistory(dir);
    histories.set(dir, known);
    return known;
  };
  const apps = await Promise.all(
    planned.map(async (p) => (p.plan.unmanaged.length === 0 || p.plan.restore !== undefined ? p.plan : markRemoved(p.plan, await historyOf(p.app.rulesDir)))),
  );
  const notes = new Map<string, PlanNote>();
  for (const history of histories.values()) {
    const note = historyNote(await history);
    if (note !== undefined) notes.set(JSON.stringify(note), note);
  }
  return { apps, notes: [...notes.values()] };
}

/** Marks each unmanaged rule of `app` that `history` shows was declared once. */
export function markRemoved(app: AppPlan, history: History): AppPlan {
  if (!history.known || app.unmanaged.length === 0) return app;
  const { ruleIds, names } = history.declared;
  const unmanaged = app.unmanaged.map((rule) =>
    ruleIds.has(rule.ruleId) || names.has(rule.name) ? { ...rule, removedFromFiles: true } : rule,
  );
  return { ...app, unmanaged };
}

/** The note a plan shows when removed rules could not be recognised, or undefined. */
function historyNote(history: History): PlanNote | undefined {
  if (!history.known) return { kind: 'removals-unknown', why: history.why };
  return history.shallow ? { kind: 'shallow-history' } : undefined;
}

/** Reads what the rules directory `dir` ever declared, from git. */
export async function declaredInHistory(dir: string): Promise<History> {
  const inside = await git(dir, ['rev-parse', '--is-inside-work-tree', '--is-shallow-repository']);
  if (inside === undefined) return { known: false, why: 'no-repository' };
  const shallow = inside.split('\n')[1]?.trim() === 'true';
  const hasHead = (await git(dir, ['rev-parse', '--verify', '--quiet', 'HEAD'])) !== undefined;
  const log = hasHead
    ? await git(dir, ['log', '-p', '--format=%x00commit %H', '--relative', '--no-renames', '--no-color', WHOLE_FILE_CONTEXT, 'HEAD', '--', '.'])
    : '';
  if (log === undefined) return { known: false, why: 'log-failed' };
  const ruleIds = new Set<string>();
  const names = new Set<string>();
  for (const { identities } of ruleFileVersions(log)) {
    for (const identity of identities) {
      if (identity.name !== undefined) names.add(identity.name.value);
      if (identity.ruleId !== undefined) ruleIds.add(identity.ruleId.value);
    }
  }
  return { known: true, declared: { ruleIds, names }, shallow };
}

/** stdout of a git command run in `dir`, or undefined when it failed or git is missing. */
function git(dir: string, args: string[]): Promise<string | undefined> {
  return gitOrUndefined(args, { cwd: dir, maxBytes: MAX_HISTORY_BYTES, timeoutMs: GIT_TIMEOUT_MS });
}
