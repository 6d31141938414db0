// Loads the rules directory of an app. The declared order (= priority) is the files sorted
// by their path below the directory as plain text, then the rules in file order.
// Subdirectories are walked; only *.yaml and *.yml files count; names starting with "." are
// skipped; symbolic links to files are followed, and so are links to directories inside the
// project directory (a link back into a directory it is in is refused: no cycles). A link
// that leads outside the project directory (and, for a rule file, outside the rules
// directory) is a problem naming it, and is not read (docs/behaviour.md, "Files stay inside
// the project"): skipped silently, its rules would become unmanaged, and paused under
// `unmanaged: pause`.
import { realpathSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { UserError, sortProblems, type Problem } from '../errors.js';
import type { DeclaredRule } from '../semantics/model.js';
import type { ProjectConfig } from './config.js';
import { displayPath } from './display-path.js';
import { readRuleFile, type RuleFileReadOptions, type RuleFileResult, type RuleFileSource } from './rule-file.js';
import { linkPlacement, placement, placementMessage } from '../io/project-path.js';
import { loadYamlFile, type YamlSource, type YamlSourceOptions } from '../io/yaml-source.js';
import { uniqueNames, uniqueRuleIds } from './checks/unique.js';
import { SharedStrings } from './shared-strings.js';

interface LoadedRules {
  /** Rules that passed every check, in declared order. Use them only when `problems` is empty. */
  rules: DeclaredRule[];
  problems: Problem[];
  /** Problems that do not stop the rules from being used; validate prints them, `--strict` fails on them. */
  warnings: Problem[];
  /** The rule files read, as printed in problems (relative to the working directory). */
  files: string[];
  /** The text of each file (by printed path) that holds a comment silencing analysis findings. */
  silencingTexts: Map<string, string>;
  /** With `keepSources`: each file's text and parsed document, by printed path (read and parsed once). */
  sources?: Map<string, RuleFileSource>;
}

/**
 * The most rules, and rule files, botrules reads for one app. The service states no limit
 * (docs/security.md, "Input limits"); the rule-set analysis grows with the square of the rules
 * (10,000 took 47 s), and 5,000 is the largest rule set the benchmarks hold to their targets
 * (bench/README.md). A larger set is refused before it is analysed or planned.
 */
export const MAX_RULES_PER_APP = 5000;
export const MAX_RULE_FILES_PER_APP = 5000;

/** Where rules are read from, and the moment their lifetimes are evaluated at (rule-file.ts). */
interface LoadOptions {
  cwd: string;
  /**
   * `--now`, else the time the command started: one instant for every rule of the run. Absent:
   * the time of this call (a use case that reads rules more than once passes its own).
   */
  now?: number;
}

export async function loadRules(dir: string, options: LoadOptions & { keepSources?: boolean }): Promise<LoadedRules> {
  const absDir = resolve(options.cwd, dir);
  const shownDir = displayPath(options.cwd, absDir);
  await requireDirectory(absDir, shownDir);
  if (linkPlacement(absDir, options.cwd) !== 'inside') {
    throw new UserError(`rules directory "${shownDir}" is a symbolic link to outside the project directory; botrules follows links only to places inside the directory it runs in`);
  }
  const files = await ruleFilesBelow(absDir, options.cwd);
  const now = options.now ?? Date.now();
  if (files.length > MAX_RULE_FILES_PER_APP) throw tooMany(`${files.length} rule files`, MAX_RULE_FILES_PER_APP, 'rule files', shownDir);
  // Joined to the directory's own display path: the same text as displayPath() of each file,
  // without resolving thousands of paths against the working directory.
  const shown = files.map((file) => (shownDir === '.' ? file.rel : `${shownDir}/${file.rel}`));
  // One table for the directory: its rules repeat the same strings file after file (shared-strings.ts).
  const strings = new SharedStrings();
  const results = files.map((file, i) => readPlacedRuleFile(file, shown[i] ?? file.abs, [options.cwd, absDir], { keepSource: options.keepSources === true, now, strings }));
  const ruleCount = results.reduce((sum, r) => sum + r.rules.length, 0);
  if (ruleCount > MAX_RULES_PER_APP) throw tooMany(`${ruleCount} rules`, MAX_RULES_PER_APP, 'rules', shownDir);
  const identities = results.flatMap((r) => r.identities);
  const problems = [...results.flatMap((r) => r.problems), ...uniqueNames(identities), ...uniqueRuleIds(identities)];
  const warnings = sortProblems(results.flatMap((r) => r.warnings));
  const silencingTexts = new Map(results.flatMap((r, i) => (r.silencingText === undefined ? [] : [[shown[i] ?? '', r.silencingText] as const])));
  const loaded: LoadedRules = { rules: results.flatMap((r) => r.rules), problems: sortProblems(problems), warnings, files: shown, silencingTexts };
  if (options.keepSources === true) loaded.sources = new Map(results.flatMap((r, i) => (r.source === undefined ? [] : [[shown[i] ?? '', r.source] as const])));
  return loaded;
}

/**
 * Only a symbolic link can lead elsewhere (the walk does not enter linked directories); it
 * must lead inside the project directory or the rules directory.
 */
function readPlacedRuleFile(file: RuleFileEntry, shown: string, allowed: readonly string[], options: RuleFileReadOptions): RuleFileResult {
  if (file.refusal !== undefined) return { rules: [], identities: [], warnings: [], problems: [{ file: shown, line: 1, col: 1, message: file.refusal }] };
  const places = file.link ? allowed.map((dir) => placement(file.abs, dir)) : ['inside'];
  const where = places.includes('inside') ? 'inside' : places.includes('outside') ? 'outside' : 'missing';
  if (where === 'inside') return readRuleFile(file.abs, shown, options);
  return { rules: [], identities: [], warnings: [], problems: [{ file: shown, line: 1, col: 1, message: placementMessage(where, 'the file') }] };
}

interface LoadedApps {
  byApp: Map<string, LoadedRules>;
  /** Every app's problems, each once (apps may share a rules directory). */
  problems: Problem[];
  /** Every app's warnings, each once. */
  warnings: Problem[];
}

/**
 * Every app's rules. A rules directory with no rule file is an error unless `allowEmpty`: planned,
 * it would leave every live rule unmanaged, and with `unmanaged: pause` pause them all
 * (docs/behaviour.md, "Safety limits").
 */
export async function loadAllRules(config: ProjectConfig, options: LoadOptions & { allowEmpty?: boolean }): Promise<LoadedApps> {
  const byApp = new Map<string, LoadedRules>();
  const problems = new Map<string, Problem>();
  const warnings = new Map<string, Problem>();
  const now = options.now ?? Date.now();
  for (const app of config.apps) {
    const loaded = await loadRules(app.rulesDir, { ...options, now });
    if (loaded.files.length === 0 && options.allowEmpty !== true) throw emptyRulesDirectory(app.name, displayPath(options.cwd, app.rulesDir));
    byApp.set(app.name, loaded);
    for (const p of loaded.problems) problems.set(JSON.stringify([p.file, p.line, p.col, p.message]), p);
    for (const w of loaded.warnings) warnings.set(JSON.stringify([w.file, w.line, w.col, w.message]), w);
  }
  return { byApp, problems: sortProblems([...problems.values()]), warnings: sortProblems([...warnings.values()]) };
}

function tooMany(found: string, max: number, what: string, shownDir: string): UserError {
  return new UserError(`the rules directory ${shownDir} holds ${found}, more than the ${max.toLocaleString('en')} ${what} botrules reads for one app`, [
    'The rule-set analysis grows with the square of the rules; split the rules over several apps in botrules.yaml, or remove unused ones.',
  ]);
}

function emptyRulesDirectory(app: string, shown: string): UserError {
  return new UserError(`the rules directory ${shown} (app ${app}) holds no rule files (*.yaml, *.yml)`, [
    'With no rule files, every live rule would be unmanaged, and with `unmanaged: pause` every one would be paused.',
    'Write the live rules as files with: botrules import — or pass --allow-empty if an empty rule set is what you mean.',
  ]);
}

/**
 * Absolute paths of the rule files below `absDir`, in declared order, with the linked
 * directories inside `projectDir` walked; a linked directory refused is listed too (its
 * path fails the reader's own placement check).
 */
export async function listRuleFiles(absDir: string, projectDir: string): Promise<string[]> {
  return (await ruleFilesBelow(absDir, projectDir)).map((file) => file.abs);
}

/**
 * Test and policy files, each read and checked by its schema, then by `check` for what a schema
 * cannot say. A file linked to outside the project is not read: its problems would quote it.
 */
export async function readYamlFiles(files: readonly string[], cwd: string, schema: Omit<YamlSourceOptions, 'displayPath'>, check: (source: YamlSource, shown: string) => Problem[]): Promise<{ problems: Problem[]; files: string[] }> {
  const problems: Problem[] = [];
  const shown = files.map((file) => displayPath(cwd, file));
  for (const [i, file] of files.entries()) {
    const where = placement(file, cwd);
    if (where !== 'inside') problems.push({ file: shown[i] as string, line: 1, col: 1, message: placementMessage(where, 'the file') });
    else {
      const source = await loadYamlFile(file, { displayPath: shown[i] as string, ...schema });
      problems.push(...source.problems, ...check(source, shown[i] as string));
    }
  }
  return { problems, files: shown };
}

interface RuleFileEntry {
  rel: string;
  abs: string;
  /** A symbolic link (to a file, or dangling). */
  link: boolean;
  /** Why a linked directory was not walked: outside the project, or back into itself. */
  refusal?: string;
}

/** The rule files below `absDir` in declared order: absolute, and relative with "/" separators. */
async function ruleFilesBelow(absDir: string, projectDir: string): Promise<RuleFileEntry[]> {
  const found: RuleFileEntry[] = [];
  const walk = async (dir: string, relDir: string, ancestors: ReadonlySet<string>): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const abs = join(dir, entry.name);
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      if (entry.isDirectory()) await walk(abs, rel, new Set([...ancestors, realPath(abs)]));
      else if (entry.isSymbolicLink() && (await isDirectory(abs))) {
        const refusal = linkedDirectoryRefusal(abs, projectDir, ancestors);
        if (refusal === undefined) await walk(abs, rel, new Set([...ancestors, realPath(abs)]));
        else found.push({ rel, abs, link: true, refusal });
      } else if (!isRuleFileName(entry.name)) continue;
      else if (entry.isFile()) found.push({ rel, abs, link: false });
      // A dangling link is reported by the reader.
      else if (entry.isSymbolicLink()) found.push({ rel, abs, link: true });
    }
  };
  await walk(absDir, '', new Set([realPath(absDir)]));
  return found.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

/** Why the linked directory `abs` is not walked, or undefined when it is. */
function linkedDirectoryRefusal(abs: string, projectDir: string, ancestors: ReadonlySet<string>): string | undefined {
  if (placement(abs, projectDir) !== 'inside') {
    return 'this directory is a symbolic link to outside the project directory; botrules follows links only to places inside the directory it runs in';
  }
  if (ancestors.has(realPath(abs))) return 'this directory is a symbolic link back into a directory it is in; botrules does not walk it (it would never end)';
  return undefined;
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function isRuleFileName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.endsWith('.yaml') || lower.endsWith('.yml');
}

/** Undefined when nothing is at `path`. */
function isDirectory(path: string): Promise<boolean | undefined> {
  return stat(path).then((s) => s.isDirectory(), () => undefined);
}

async function requireDirectory(absDir: string, shown: string): Promise<void> {
  const directory = await isDirectory(absDir);
  if (directory === undefined) {
    throw new UserError(`rules directory "${shown}" does not exist`, [
      'Create it, pass --dir DIR, or set rulesDir in botrules.yaml.',
    ]);
  }
  if (!directory) throw new UserError(`"${shown}" is not a directory; --dir and rulesDir name the directory that holds the rule files`);
}
