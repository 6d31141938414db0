// The shared middle of plan, apply and apply --plan: one client per app (every token read
// before any request), one LIST per app (concurrently), and the refusal of two apps that are
// really one application: the same token value, or live rules with the same ruleIds. With
// `unmanaged: pause`, one such app's plan would pause the other's rules (docs/behaviour.md,
// "Apps that list the same rules").
import { UserError } from '../errors.js';
import { rulesClientFor } from '../api/index.js';
import type { RulesApi } from '../api/types.js';
import type { AppConfig } from '../rules/config.js';
import type { LiveRule } from '../rules/model.js';
import type { Runtime } from '../runtime.js';

/** Where an app's live rules come from: the service (the default) or a live snapshot. */
export type ConnectApp = (app: AppConfig) => RulesApi;

export interface ListedApp {
  app: AppConfig;
  api: RulesApi;
  /** The one LIST this run made of the app. */
  live: LiveRule[];
}

const NOTHING_SENT = 'Nothing was sent.';

/**
 * Connects and lists every app, in the order given. Against the service (no `connect`), two
 * apps whose token variables hold the same value are refused before any request.
 */
export async function listApps(apps: readonly AppConfig[], ctx: Runtime, connect?: ConnectApp): Promise<ListedApp[]> {
  if (connect === undefined) refuseSharedTokens(apps, ctx);
  const connections = apps.map((app) => ({ app, api: (connect ?? ((a: AppConfig) => rulesClientFor(a, ctx)))(app) }));
  const lives = await Promise.all(connections.map((c) => c.api.listRules()));
  const listed = connections.map((c, index) => ({ ...c, live: lives[index] as LiveRule[] }));
  refuseSharedRules(listed);
  return listed;
}

/** Two apps whose token variables hold the same value manage the same application's rules. */
export function refuseSharedTokens(apps: readonly AppConfig[], ctx: Pick<Runtime, 'env'>): void {
  const byToken = new Map<string, AppConfig>();
  for (const app of apps) {
    const token = ctx.env(app.tokenEnv);
    if (token === undefined) continue;
    const first = byToken.get(token);
    if (first !== undefined) {
      throw new UserError(
        `apps ${first.name} and ${app.name} use the same token: ${first.tokenEnv} and ${app.tokenEnv} hold the same value, ` +
          'so both would manage the same live rules',
        [`Give each app the server token of its own application. ${NOTHING_SENT}`],
      );
    }
    byToken.set(token, app);
  }
}

/** Two apps listing rules with the same ruleId (the same live fingerprint included) are one application. */
export function refuseSharedRules(listed: readonly { app: AppConfig; live: readonly LiveRule[] }[]): void {
  const owner = new Map<string, AppConfig>();
  for (const { app, live } of listed) {
    const shared = live.filter((rule) => owner.has(rule.ruleId) && owner.get(rule.ruleId) !== app);
    const [first] = shared;
    if (first !== undefined) {
      const other = owner.get(first.ruleId) as AppConfig;
      throw new UserError(
        `apps ${other.name} and ${app.name} list the same live rules (${shared.length} of ${live.length} with the same ruleId, ` +
          `for example "${first.name}" (${first.ruleId})): their tokens (${other.tokenEnv}, ${app.tokenEnv}) are for the same application`,
        [`Give each app the server token of its own application. ${NOTHING_SENT}`],
      );
    }
    for (const rule of live) if (!owner.has(rule.ruleId)) owner.set(rule.ruleId, app);
  }
}
