// The project config as its file writes it (docs/behaviour.md, "Configuration and environment"):
// the shapes the schema admits, the defaults of a project without a config, and the semantic
// checks of a schema-valid config, each problem at its place. config.ts reads the file and turns
// what is written here into the apps a command works on.
import { isAbsolute, relative, resolve } from 'node:path';
import type { Problem } from '../errors.js';
import type { YamlSource } from '../io/yaml-source.js';
import type { ServiceCapabilities, UnmanagedPolicy } from '../semantics/model.js';
import { repeats } from './checks/unique.js';

export type BuiltinPolicyId = 'abusable-allow' | 'operator-matrix';
export type BuiltinPolicyLevel = 'error' | 'warning' | 'advisory' | 'off';

/** The app of a project whose config names none; the emulator serves it under the token of the environment. */
export const DEFAULT_APP = 'default';
export const DEFAULT_RULES_DIR = 'rules';
export const DEFAULT_TOKEN_ENV = 'BOTRULES_TOKEN';

type WrittenService = Partial<ServiceCapabilities>;

/** A share as written: a fraction 0..1, or a percentage text such as "0.5%" (checked by the schema). */
export type WrittenShare = number | string;

export interface WrittenApp {
  name: string;
  rulesDir: string;
  tokenEnv?: string;
  unmanaged?: UnmanagedPolicy;
  maxChanges?: number;
  maxNewlyBlocked?: WrittenShare;
  service?: WrittenService;
  maxDeletes?: number | string;
}

/** The top level's settings are every app's defaults, in the same shapes. */
export interface WrittenConfig extends Pick<WrittenApp, 'unmanaged' | 'maxChanges' | 'maxNewlyBlocked' | 'service' | 'maxDeletes'> {
  /** Absent: the one app of a project without a config (writtenApps). */
  apps?: WrittenApp[];
  replay?: { fields?: Record<string, string>; secretNames?: string[]; ipField?: 'client_ip' | 'true_ip'; maxDisagreement?: WrittenShare; decision?: { type: string; origin?: string; filterId?: string; simulatedBlock?: string } };
  /** `30d`. */
  shadowMaxAge?: string;
  policiesDir?: string;
  builtinPolicies?: Partial<Record<BuiltinPolicyId, BuiltinPolicyLevel>>;
}

/**
 * The apps a config names; a config that names none (only `replay:` or limits, say) describes
 * the one app "default" of a project without a config, its rules in ./rules beside it.
 */
export function writtenApps(config: WrittenConfig): WrittenApp[] {
  return config.apps ?? [{ name: DEFAULT_APP, rulesDir: DEFAULT_RULES_DIR }];
}

/** Each capability as the app says, else as the top level says, else off. */
export function serviceOf(app: WrittenApp, defaults: WrittenConfig): ServiceCapabilities {
  return {
    create: app.service?.create ?? defaults.service?.create ?? false,
    delete: app.service?.delete ?? defaults.service?.delete ?? false,
  };
}

/**
 * Every rulesDir lies inside the project directory (the directory botrules runs in): a pull
 * request's config could otherwise name `../outside` or `/home/runner/.ssh` and have validate
 * quote what it finds there. The value is the config's own; nothing of the place is read.
 */
export function confinedRulesDirs(source: YamlSource, configDir: string, projectDir: string): Problem[] {
  return (source.value as WrittenConfig).apps?.flatMap((app, i) => {
    const outside = isAbsolute(app.rulesDir) || relative(projectDir, resolve(configDir, app.rulesDir)).split(/[\\/]/)[0] === '..';
    if (!outside) return [];
    const why = isAbsolute(app.rulesDir) ? 'is an absolute path' : 'leads outside the project directory';
    return [source.problemAt(['apps', i, 'rulesDir'], `rulesDir ${why}; a rules directory must be inside the directory botrules runs in, named relative to the config file`)];
  }) ?? [];
}

/**
 * Semantic checks of a schema-valid config: app names and token variables each used once, and
 * no `unmanaged: delete` for an app whose service does not delete.
 */
export function configChecks(source: YamlSource): Problem[] {
  const written = source.value as WrittenConfig;
  const apps = written.apps ?? [];
  return [...uniqueAppNames(apps, source), ...uniqueTokenEnvs(apps, source), ...deleteWithoutService(written, source)];
}

/** `unmanaged: delete` where service.delete is not true: said at the `unmanaged` that applies, once. */
function deleteWithoutService(written: WrittenConfig, source: YamlSource): Problem[] {
  const message = (where: string): string =>
    `unmanaged: delete needs service.delete: true (${where}): botrules deletes rules only on a service that accepts DELETE; ` +
    'set service.delete: true if it does, or choose unmanaged: keep, pause or fail';
  const problems: Problem[] = [];
  let topLevelReported = false;
  writtenApps(written).forEach((app, i) => {
    if ((app.unmanaged ?? written.unmanaged) !== 'delete' || serviceOf(app, written).delete) return;
    if (app.unmanaged === 'delete') problems.push(source.problemAt(['apps', i, 'unmanaged'], message(`app "${app.name}"`)));
    else if (!topLevelReported) {
      topLevelReported = true;
      problems.push(source.problemAt(['unmanaged'], message(`app "${app.name}" takes it from the top level`)));
    }
  });
  return problems;
}

function uniqueAppNames(apps: readonly WrittenApp[], source: YamlSource): Problem[] {
  return repeatedAt(apps.map((a) => a.name), (i) => ['apps', i, 'name'], source, (name, first) => `duplicate app name "${name}" (also at line ${first.line})`);
}

/** A token identifies one remote app: two apps reading the same variable would manage the same rules twice. */
function uniqueTokenEnvs(apps: readonly WrittenApp[], source: YamlSource): Problem[] {
  return repeatedAt(
    apps.map((a) => a.tokenEnv ?? DEFAULT_TOKEN_ENV),
    (i) => (apps[i]?.tokenEnv === undefined ? ['apps', i] : ['apps', i, 'tokenEnv']),
    source,
    (name, first) => `apps must read their tokens from different variables; ${name} is also used by the app at line ${first.line}`,
  );
}

function repeatedAt(values: readonly string[], pathOf: (index: number) => (string | number)[], source: YamlSource, message: (value: string, first: { line: number }) => string): Problem[] {
  return repeats([...values.keys()], (i) => values[i] as string).map(([i, first]) => source.problemAt(pathOf(i), message(values[i] as string, source.locate(pathOf(first)))));
}
