// What apply works on, per app: its client, the live rules listed just now, and the plan to
// run. Either planned afresh from the rule files, or read from a saved plan and checked
// against the live rules it was computed from (a stale plan is refused).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UserError } from '../errors.js';
import { rulesClientFor } from '../api/index.js';
import type { RulesApi } from '../api/types.js';
import { loadProjectConfig, type AppConfig } from '../rules/config.js';
import { Plan } from '../plan/plan.js';
import type { AppPlan } from '../plan/types.js';
import type { LiveRule } from '../rules/model.js';
import type { CommandContext, GlobalArgs } from '../cli/context.js';
import { planApps } from './session.js';
import { refuseIfStale } from './stale.js';

export interface ApplyWork {
  app: AppConfig;
  api: RulesApi;
  /** The live rules the plan starts from (listed by this run). */
  live: LiveRule[];
  plan: AppPlan;
}

export async function workFromRuleFiles(args: GlobalArgs, ctx: CommandContext): Promise<ApplyWork[]> {
  const planned = await planApps(args, ctx);
  return planned.map(({ app, api, live, plan }) => ({ app, api, live, plan }));
}

/**
 * Reads a saved plan, pairs each of its apps with the config's app of that name (for the
 * token), lists them again and refuses if any changed since the plan. With --app only that
 * app's part of the plan is applied.
 */
export async function workFromSavedPlan(file: string, args: GlobalArgs, ctx: CommandContext): Promise<ApplyWork[]> {
  const saved = await readPlanFile(resolve(ctx.io.cwd, file), file);
  const config = await loadProjectConfig({ cwd: ctx.io.cwd, config: args.config, dir: args.dir, app: args.app });
  const byName = new Map(config.apps.map((app) => [app.name, app]));
  const selected = args.app === undefined ? saved.apps : saved.apps.filter((p) => p.app === args.app);
  if (selected.length === 0) {
    throw new UserError(`${file} holds no plan for app ${args.app ?? ''}: it plans ${saved.apps.map((p) => p.app).join(', ') || 'no app'}`);
  }
  const unknown = selected.filter((p) => !byName.has(p.app)).map((p) => p.app);
  if (unknown.length > 0) {
    throw new UserError(`${file} plans app${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}, which the config does not name`, [
      'Apply the plan from the repository it was made in, with the same botrules.yaml.',
    ]);
  }
  const connections = selected.map((plan) => {
    const app = byName.get(plan.app) as AppConfig;
    return { app, plan, api: rulesClientFor(app, ctx) };
  });
  const lives = await Promise.all(connections.map((c) => c.api.listRules()));
  const work = connections.map((c, index) => ({ ...c, live: lives[index] as LiveRule[] }));
  refuseIfStale(work);
  return work;
}

async function readPlanFile(path: string, shown: string): Promise<Plan> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UserError(`cannot read the plan file ${shown} (${code})`, ['Write one with: botrules plan --out FILE']);
  }
  return Plan.parse(text, shown);
}
