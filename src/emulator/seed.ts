// The state the emulator starts from: the state file when there is one, else seed data
// (rule files, given rules, generated rules and scripts). Tokens given explicitly or through
// the environment win over stored ones; missing tokens are generated and reported as such,
// so the CLI knows which ones it must print.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { UserError, ValidationError } from '../errors.js';
import { DEFAULT_APP } from '../rules/written-config.js';
import type { Rule } from '../semantics/model.js';
import { generateRules } from './generate-rules.js';
import { generateScripts } from './generate-scripts.js';
import { DEFAULT_SCRIPT_APP_ID, DEFAULT_SCRIPT_TLD, type EmulatorApp, type EmulatorOptions } from './options.js';
import { randomUuid, type Random } from './random.js';
import { STATE_VERSION, type EmulatorState, type StoredRule } from './state.js';

export interface GeneratedTokens {
  /** Apps whose token the emulator invented (now or on an earlier run). */
  apps: string[];
  api: boolean;
}

interface InitialState {
  state: EmulatorState;
  generated: GeneratedTokens;
  /** Tokens the emulator was given (flags, options, environment): never written to the state file. */
  givenTokens: string[];
}

export async function initialState(options: EmulatorOptions, stored: EmulatorState | undefined, random: Random): Promise<InitialState> {
  const env = (name: string) => (options.env?.[name] === '' ? undefined : options.env?.[name]);
  const generated: GeneratedTokens = { apps: [], api: false };
  const apps = options.apps ?? [defaultApp(env('BOTRULES_TOKEN'), stored, generated)];
  if (apps.length === 0) throw new UserError('the emulator needs at least one app');
  const givenApiToken = options.apiToken ?? env('BOTRULES_API_TOKEN') ?? env('BOTRULES_TOKEN');
  generated.api = givenApiToken === undefined;
  const state: EmulatorState = {
    version: STATE_VERSION,
    apps: { ...stored?.apps },
    // A stored token is "" when it was given rather than generated (see StateStore).
    apiToken: givenApiToken ?? (stored?.apiToken || newToken()),
    scripts: stored?.scripts ?? [],
  };
  for (const [index, app] of apps.entries()) {
    state.apps[app.name] = {
      token: app.token,
      rules: state.apps[app.name]?.rules ?? withIds(await seedRulesFor(app, index === 0, options, random), random),
    };
  }
  if (!stored) state.scripts = [...(options.seedScripts ?? []), ...generatedScripts(options, random)];
  const givenTokens = apps.filter((app) => !generated.apps.includes(app.name)).map((app) => app.token);
  if (givenApiToken !== undefined) givenTokens.push(givenApiToken);
  return { state, generated, givenTokens };
}

function defaultApp(envToken: string | undefined, stored: EmulatorState | undefined, generated: GeneratedTokens): EmulatorApp {
  if (envToken !== undefined) return { name: DEFAULT_APP, token: envToken };
  generated.apps.push(DEFAULT_APP);
  return { name: DEFAULT_APP, token: stored?.apps[DEFAULT_APP]?.token || newToken() };
}

function newToken(): string {
  return `emu_${randomBytes(24).toString('base64url')}`;
}

/** The first app gets the seed directory's rules, the given rules, then the generated ones. */
async function seedRulesFor(app: EmulatorApp, first: boolean, options: EmulatorOptions, random: Random): Promise<Rule[]> {
  const rules = [...(app.rules ?? [])];
  if (!first) return rules;
  if (options.seed !== undefined) rules.push(...(await rulesFromDirectory(options.seed, options.cwd ?? process.cwd())));
  rules.push(...(options.seedRules ?? []));
  rules.push(...generateRules(random, options.generateRules ?? 0));
  return rules;
}

async function rulesFromDirectory(dir: string, cwd: string): Promise<Rule[]> {
  // Loaded only when seeding from files: it brings the YAML parser and the schema validator.
  const { loadRules } = await import('../rules/load.js');
  const { rules, problems } = await loadRules(path.resolve(cwd, dir), { cwd });
  if (problems.length > 0) throw new ValidationError(problems);
  return rules.map(({ source: _source, ...rule }) => rule);
}

/** Keeps a rule's own ruleId (files written by `import` carry one), else draws one. */
function withIds(rules: readonly Rule[], random: Random): StoredRule[] {
  const seen = new Set<string>();
  return rules.map((rule) => {
    const ruleId = rule.ruleId ?? randomUuid(random);
    if (seen.has(ruleId)) throw new UserError(`two seed rules share the ruleId ${ruleId}`);
    seen.add(ruleId);
    return { ...structuredClone(rule), ruleId };
  });
}

function generatedScripts(options: EmulatorOptions, random: Random) {
  return generateScripts(random, {
    count: options.generateScripts ?? 0,
    appIds: options.scriptAppIds?.length ? options.scriptAppIds : [DEFAULT_SCRIPT_APP_ID],
    tlds: options.scriptTlds?.length ? options.scriptTlds : [DEFAULT_SCRIPT_TLD],
    now: (options.now ?? Date.now)(),
  });
}
