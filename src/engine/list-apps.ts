// The shared middle of plan, apply and apply --plan: one client per app (every token read
// before any request), one LIST per app (concurrently), and the refusal of two apps that are
// really one application: the same token value, or live rules with the same ruleIds. With
// `unmanaged: pause`, one such app's plan would pause the other's rules (docs/behaviour.md,
// "Apps that list the same rules"). The configured apps a run does not list (--app, or a saved
// plan of fewer apps) are compared too, without a request: their token values, and the ruleIds
// their rule files pin.
import { UserError } from '../errors.js';
import { rulesClientFor } from '../api/index.js';
import type { RulesApi } from '../api/types.js';
import type { AppConfig } from '../rules/config.js';
import { loadRules } from '../rules/load.js';
import type { DeclaredRule, LiveRule } from '../semantics/model.js';
import type { Runtime } from '../runtime.js';

/** Where an app's live rules come from: the service (the default) or a live snapshot. */
export type ConnectApp = (app: AppConfig) => RulesApi;

interface ListedApp {
  app: AppConfig;
  api: RulesApi;
  /** The one LIST this run made of the app. */
  live: LiveRule[];
}

const NOTHING_SENT = 'Nothing was sent.';

/**
 * Connects and lists every app, in the order given. Against the service (no `connect`), two
 * apps whose token variables hold the same value are refused before any request. `others`
 * are the configured apps this run does not list.
 */
export async function listApps(apps: readonly AppConfig[], ctx: Runtime, connect?: ConnectApp, others: readonly AppConfig[] = []): Promise<ListedApp[]> {
  if (connect === undefined) refuseSharedTokens(apps, ctx, others);
  const connections = apps.map((app) => ({ app, api: (connect ?? ((a: AppConfig) => rulesClientFor(a, ctx)))(app) }));
  const lives = await Promise.all(connections.map((c) => c.api.listRules()));
  const listed = connections.map((c, index) => ({ ...c, live: lives[index] as LiveRule[] }));
  refuseSharedRules(listed);
  if (others.length > 0) refuseRulesPinnedElsewhere(listed, await pinnedRules(others, listed, ctx));
  return listed;
}

/**
 * Two apps whose token variables hold the same value manage the same application's rules.
 * `others` (not listed in this run) are compared with `apps` only, where their variables are set.
 */
function refuseSharedTokens(apps: readonly AppConfig[], ctx: Pick<Runtime, 'env'>, others: readonly AppConfig[] = []): void {
  const byToken = new Map<string, AppConfig>();
  const compare = (app: AppConfig, remember: boolean): void => {
    const token = ctx.env(app.tokenEnv);
    if (token === undefined) return;
    const first = byToken.get(token);
    if (first !== undefined) {
      throw new UserError(
        `apps ${first.name} and ${app.name} use the same token: ${first.tokenEnv} and ${app.tokenEnv} hold the same value, ` +
          'so both would manage the same live rules',
        [`Give each app the server token of its own application. ${NOTHING_SENT}`],
      );
    }
    if (remember) byToken.set(token, app);
  };
  for (const app of apps) compare(app, true);
  // What two apps left out share is the concern of the run that lists them.
  for (const app of others) compare(app, false);
}

type PinnedRule = DeclaredRule & { ruleId: string; app: AppConfig };

/**
 * The rules that the other apps' files pin by ruleId (import writes it, import --update --pin
 * adds it), first one per ruleId. Another app whose rules directory is a listed app's own is
 * skipped: those are the listed app's files. A directory that cannot be read is that app's
 * run's problem, not this one's.
 */
async function pinnedRules(others: readonly AppConfig[], listed: readonly ListedApp[], ctx: Runtime): Promise<Map<string, PinnedRule>> {
  const ownDirs = new Set(listed.map(({ app }) => app.rulesDir));
  const pinned = new Map<string, PinnedRule>();
  for (const app of others.filter((other) => !ownDirs.has(other.rulesDir))) {
    // Rules with problems are left out (loadRules keeps only rules that passed every check).
    const rules = await loadRules(app.rulesDir, { cwd: ctx.cwd }).then((loaded) => loaded.rules, (err: unknown) => {
      ctx.debug(`not compared with app ${app.name}: its rule files could not be read (${err instanceof Error ? err.message : String(err)})`);
      return [];
    });
    for (const rule of rules) if (rule.ruleId !== undefined && !pinned.has(rule.ruleId)) pinned.set(rule.ruleId, { ...rule, ruleId: rule.ruleId, app });
  }
  return pinned;
}

/**
 * A listed app whose live rules another app's files pin by ruleId lists that app's application:
 * its token is the other app's (a copy-paste in CI secrets, where each job holds only its own).
 */
function refuseRulesPinnedElsewhere(listed: readonly ListedApp[], pinned: ReadonlyMap<string, PinnedRule>): void {
  for (const { app, live } of listed) {
    const shared = live.filter((rule) => pinned.has(rule.ruleId));
    const [first] = shared;
    if (first === undefined) continue;
    const owner = pinned.get(first.ruleId) as PinnedRule;
    const where = `${owner.source.file}:${owner.source.line}:${owner.source.col}`;
    throw new UserError(
      `apps ${app.name} and ${owner.app.name} list the same live rules: ${shared.length} of the ${live.length} live rules of app ${app.name} ` +
        `are pinned by ruleId in the rule files of app ${owner.app.name}, for example "${first.name}" (${first.ruleId}) at ${where}: ` +
        `the token in ${app.tokenEnv} is for the application of app ${owner.app.name}`,
      [`Give each app the server token of its own application. ${NOTHING_SENT}`],
    );
  }
}

/** Two apps listing rules with the same ruleId (the same live fingerprint included) are one application. */
function refuseSharedRules(listed: readonly { app: AppConfig; live: readonly LiveRule[] }[]): void {
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
