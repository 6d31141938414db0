// The project config (docs/behaviour.md, "Configuration and environment"): which apps this repository manages, where their rules
// live, and which environment variable holds each app's token. Tokens never live in files.
// `--config FILE` names it; otherwise botrules.yaml in the working directory if present;
// otherwise one app "default" with its rules in ./rules (or --dir) and BOTRULES_TOKEN.
import { lstat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { UserError, ValidationError } from '../errors.js';
import { definedFields } from '../defined.js';
import { configFileMessages } from './config-messages.js';
import { displayPath } from './display-path.js';
import { schemaValidator } from './schemas.js';
import { loadYamlFile } from '../io/yaml-source.js';
import { linkPlacement, placementMessage } from '../io/project-path.js';
import type { MaxDeletes, ServiceCapabilities, UnmanagedPolicy } from '../semantics/model.js';
import {
  configChecks, confinedRulesDirs, DEFAULT_APP, DEFAULT_RULES_DIR, DEFAULT_TOKEN_ENV, serviceOf, writtenApps,
  type BuiltinPolicyId, type BuiltinPolicyLevel, type WrittenApp, type WrittenConfig, type WrittenShare,
} from './written-config.js';

export interface AppConfig {
  name: string;
  /** Absolute path of the app's rules directory. */
  rulesDir: string;
  /** Name of the environment variable that holds the app's server token. */
  tokenEnv: string;
  unmanaged: UnmanagedPolicy;
  maxChanges?: number;
  /** Share (0..1) of replayed traffic one plan may newly block (docs/replay.md, "A limit in traffic"). */
  maxNewlyBlocked?: number;
  /** What the app's service accepts besides list and PATCH (docs/behaviour.md, "Creating and deleting rules"); absent: nothing. */
  service?: ServiceCapabilities;
  /** Most live rules one apply may delete: a count, or a share (0..1) of the live rules. */
  maxDeletes?: MaxDeletes;
}

export interface ProjectConfig {
  /** The config file as given or found, relative to the working directory; absent without one. */
  file?: string;
  apps: AppConfig[];
  /** The config names no apps (or there is none): the project is the one app "default". */
  oneApp?: true;
  /**
   * The configured apps --app left out (absent without --app). plan and apply still compare
   * the selected app with them, without a request (docs/behaviour.md, "Apps that list the same rules").
   */
  otherApps?: AppConfig[];
  /** replay.fields: where NDJSON logs keep each request field (docs/replay.md, "Log formats"). */
  replayFields?: Record<string, string>;
  /** replay.secretNames: header and parameter names masked beside the built-in ones (docs/replay.md, "Secrets in logs"). */
  replaySecretNames?: string[];
  /** replay.ipField: which Data Export address is a request's `ip` (docs/replay.md, "Presets: the logs users have"). */
  replayIpField?: 'client_ip' | 'true_ip';
  /** replay.maxDisagreement: share (0..1) of compared requests on which the live rules may disagree with production before plan --replay warns. */
  replayMaxDisagreement?: number;
  /** replay.decision: where a JSON log records production's decision (docs/replay.md, "Production's own decisions"). */
  replayDecision?: { type: string; origin?: string; filterId?: string; simulatedBlock?: string };
  /** shadowMaxAge in days: validate warns about a rule in shadow longer (docs/replay.md, "Shadow rules"). */
  shadowMaxAgeDays?: number;
  /** policiesDir, absolute; absent: `policies` beside the config file (docs/behaviour.md, "Policies"). */
  policiesDir?: string;
  /** Where policiesDir is written in the config file, so that a missing directory is reported there. */
  policiesDirAt?: { file: string; line: number; col: number };
  /** builtinPolicies: the level of each built-in policy the config sets (default warning). */
  builtinPolicies?: Partial<Record<BuiltinPolicyId, BuiltinPolicyLevel>>;
}

const CONFIG_FILE = 'botrules.yaml';
export async function loadProjectConfig(options: { cwd: string; config?: string; dir?: string; app?: string }): Promise<ProjectConfig> {
  const configPath = await findConfigFile(options.cwd, options.config);
  if (configPath === undefined) {
    if (options.dir === undefined) await refuseSubdirectory(options.cwd);
    const app: AppConfig = {
      name: DEFAULT_APP,
      rulesDir: resolve(options.cwd, options.dir ?? DEFAULT_RULES_DIR),
      tokenEnv: DEFAULT_TOKEN_ENV,
      unmanaged: 'keep',
    };
    return { apps: selectApps([app], options.app, undefined), oneApp: true };
  }
  const file = displayPath(options.cwd, configPath);
  if (options.dir !== undefined) {
    throw new UserError(`--dir is for use without a config file; ${file} names the rules directory of each app`, [
      'Change rulesDir in the config, or use --app NAME to work on one app.',
    ]);
  }
  const where = linkPlacement(configPath, options.cwd);
  if (where !== 'inside') throw new ValidationError([{ file, line: 1, col: 1, message: placementMessage(where, 'the config file') }]);
  const source = await loadYamlFile(configPath, { displayPath: file, validate: schemaValidator('config'), messages: configFileMessages });
  const policies = policiesDirOf(source.problems.length === 0 ? (source.value as WrittenConfig).policiesDir : undefined, dirname(configPath), options.cwd);
  const policiesOutside = policies.outside === undefined ? [] : [source.problemAt(['policiesDir'], policies.outside)];
  const problems = [...source.problems, ...(source.problems.length === 0 ? [...configChecks(source), ...confinedRulesDirs(source, dirname(configPath), options.cwd), ...policiesOutside] : [])];
  if (problems.length > 0) throw new ValidationError(problems);
  const written = source.value as WrittenConfig;
  const { replay } = written;
  return selectApp({
    file,
    apps: writtenApps(written).map((app) => toAppConfig(app, written, dirname(configPath))),
    ...definedFields({
      oneApp: written.apps === undefined ? (true as const) : undefined,
      replayFields: replay?.fields, replaySecretNames: replay?.secretNames, replayIpField: replay?.ipField,
      replayMaxDisagreement: replay?.maxDisagreement === undefined ? undefined : shareOf(replay.maxDisagreement),
      replayDecision: replay?.decision,
      shadowMaxAgeDays: written.shadowMaxAge === undefined ? undefined : Number(written.shadowMaxAge.slice(0, -1)),
      policiesDir: policies.dir,
      policiesDirAt: policies.dir === undefined ? undefined : { file, ...source.locate(['policiesDir']) },
      builtinPolicies: written.builtinPolicies && { ...written.builtinPolicies },
    }),
  }, options.app);
}

async function findConfigFile(cwd: string, explicit: string | undefined): Promise<string | undefined> {
  const candidate = resolve(cwd, explicit ?? CONFIG_FILE);
  const found = await lstat(candidate).then((s) => s.isFile() || s.isSymbolicLink(), () => false);
  if (found) return candidate;
  if (explicit !== undefined) throw new UserError(`config file "${explicit}" does not exist`);
  return undefined;
}

/**
 * Run from a subdirectory of a project (no botrules.yaml and no rules/ here, a botrules.yaml
 * above): say where the project is rather than report a missing rules directory. botrules works
 * on the directory it runs in, as Terraform does (paths in messages, files inside the project),
 * so it names the directory to run from instead of moving there on its own.
 */
async function refuseSubdirectory(cwd: string): Promise<void> {
  if (await isDirectoryAt(resolve(cwd, DEFAULT_RULES_DIR))) return;
  for (let dir = dirname(cwd), below = cwd; dir !== below; below = dir, dir = dirname(dir)) {
    const candidate = resolve(dir, CONFIG_FILE);
    if (!(await lstat(candidate).then((s) => s.isFile(), () => false))) continue;
    const up = relative(cwd, dir) || '.';
    throw new UserError(`there is no ${CONFIG_FILE} and no ${DEFAULT_RULES_DIR}/ directory here, but ${relative(cwd, candidate)} is the config of the project in ${dir}`, [
      `botrules works on the directory it runs in: run it there (cd ${up}), or name a rules directory with --dir.`,
    ]);
  }
}

async function isDirectoryAt(path: string): Promise<boolean> {
  return lstat(path).then((s) => s.isDirectory() || s.isSymbolicLink(), () => false);
}

function toAppConfig(app: WrittenApp, defaults: WrittenConfig, configDir: string): AppConfig {
  const maxChanges = app.maxChanges ?? defaults.maxChanges;
  const maxNewlyBlocked = app.maxNewlyBlocked ?? defaults.maxNewlyBlocked;
  const maxDeletes = app.maxDeletes ?? defaults.maxDeletes;
  return {
    name: app.name,
    rulesDir: resolve(configDir, app.rulesDir),
    tokenEnv: app.tokenEnv ?? DEFAULT_TOKEN_ENV,
    unmanaged: app.unmanaged ?? defaults.unmanaged ?? 'keep',
    ...definedFields({
      service: app.service === undefined && defaults.service === undefined ? undefined : serviceOf(app, defaults),
      maxDeletes: maxDeletes === undefined ? undefined : typeof maxDeletes === 'number' ? { count: maxDeletes } : { share: shareOf(maxDeletes) },
      maxChanges,
      maxNewlyBlocked: maxNewlyBlocked === undefined ? undefined : shareOf(maxNewlyBlocked),
    }),
  };
}

/** "0.5%" → 0.005; a number is already a fraction. */
function shareOf(written: WrittenShare): number {
  return typeof written === 'number' ? written : Number(written.slice(0, -1)) / 100;
}

function selectApps(apps: AppConfig[], wanted: string | undefined, file: string | undefined): AppConfig[] {
  if (wanted === undefined) return apps;
  const selected = apps.filter((a) => a.name === wanted);
  if (selected.length > 0) return selected;
  const where = file ? `in ${file}` : 'without a config file';
  throw new UserError(`unknown app "${wanted}"`, [`Apps ${where}: ${apps.map((a) => a.name).join(', ')}`]);
}

/**
 * The config read without --app, with --app applied: what loadProjectConfig with `app` returns,
 * without reading the file again (a command reads its project once, then selects where it
 * reports an unknown app).
 */
export function selectApp(every: ProjectConfig, wanted: string | undefined): ProjectConfig {
  const apps = selectApps(every.apps, wanted, every.file);
  const otherApps = every.apps.filter((app) => !apps.includes(app));
  return { ...every, apps, ...definedFields({ otherApps: otherApps.length === 0 ? undefined : otherApps }) };
}

/** The policies directory the config names, confined to the project like a rules directory. */
function policiesDirOf(written: string | undefined, configDir: string, projectDir: string): { dir?: string; outside?: string } {
  if (written === undefined) return {};
  const dir = resolve(configDir, written);
  if (isAbsolute(written) || relative(projectDir, dir).split(/[\\/]/)[0] === '..') {
    return { outside: `policiesDir ${isAbsolute(written) ? 'is an absolute path' : 'leads outside the project directory'}; it must be inside the directory botrules runs in, named relative to the config file` };
  }
  return { dir };
}
