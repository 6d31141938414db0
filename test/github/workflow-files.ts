// Finding and reading the GitHub material of the repository: this project's workflows, the
// example workflows for a rules repository, and the composite action.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ACTION_FILE = 'action.yml';
// examples/github-workflows/npx/: the variant that runs the packed tarball with npx, no action.
const WORKFLOW_DIRS = ['.github/workflows', 'examples/github-workflows', 'examples/github-workflows/npx'];

/** The full ref: `github.ref_name` is also `main` for a tag named main. Scheduled runs are always the default branch's (and their payload names no default branch). */
export const DEFAULT_BRANCH_ONLY = "github.ref == format('refs/heads/{0}', github.event.repository.default_branch)";
export const SCHEDULED_OR_DEFAULT_BRANCH = `github.event_name == 'schedule' || ${DEFAULT_BRANCH_ONLY}`;

/** Stands for a `${{ … }}` expression whose value is only known on the runner. */
export const EXPRESSION_TOKEN = '<expression>';

export type YamlMap = Record<string, unknown>;

export interface YamlFile {
  /** Repository-relative path, with forward slashes. */
  file: string;
  text: string;
  data: YamlMap;
}

export interface StepRef {
  file: string;
  /** `jobs.<id>.steps[i]` or `runs.steps[i]`, for messages. */
  where: string;
  step: YamlMap;
}

/** Every workflow file (*.yml, *.yaml) of the two workflow directories, in path order. */
export function workflowFiles(): string[] {
  return WORKFLOW_DIRS.flatMap((dir) =>
    readdirSync(path.join(REPO_ROOT, dir))
      .filter((name) => /\.ya?ml$/.test(name))
      .map((name) => `${dir}/${name}`),
  ).sort();
}

export function readYamlFile(file: string): YamlFile {
  const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
  const data: unknown = parse(text);
  if (!isMap(data)) throw new Error(`${file}: expected a YAML mapping at the top`);
  return { file, text, data };
}

export function isMap(value: unknown): value is YamlMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function mapAt(value: unknown, key: string): YamlMap {
  const child = isMap(value) ? value[key] : undefined;
  return isMap(child) ? child : {};
}

/** The steps of every job of a workflow, or of the `runs` of an action. */
export function stepsOf(yaml: YamlFile): StepRef[] {
  const refs: StepRef[] = [];
  const collect = (steps: unknown, where: string) => {
    if (!Array.isArray(steps)) return;
    steps.forEach((step, index) => {
      if (isMap(step)) refs.push({ file: yaml.file, where: `${where}[${index}]`, step });
    });
  };
  if (yaml.file === ACTION_FILE) collect(mapAt(yaml.data, 'runs').steps, 'runs.steps');
  for (const [id, job] of Object.entries(mapAt(yaml.data, 'jobs'))) collect(isMap(job) ? job.steps : undefined, `jobs.${id}.steps`);
  return refs;
}

/** The code a step runs: its shell script, or the script of actions/github-script. */
export function scriptOf(step: YamlMap): string | undefined {
  if (typeof step.run === 'string') return step.run;
  const script = mapAt(step, 'with').script;
  return typeof step.uses === 'string' && step.uses.startsWith('actions/github-script@') && typeof script === 'string'
    ? script
    : undefined;
}

/** Calls `visit` with every string scalar of a parsed YAML value and the keys leading to it. */
export function walkStrings(value: unknown, visit: (keys: readonly string[], text: string) => void, keys: string[] = []): void {
  if (typeof value === 'string') visit(keys, value);
  else if (Array.isArray(value)) value.forEach((item, index) => walkStrings(item, visit, [...keys, String(index)]));
  else if (isMap(value)) for (const [key, child] of Object.entries(value)) walkStrings(child, visit, [...keys, key]);
}

/** True for a step that runs the botrules action: this checkout (`./`) or `<owner>/botrules@<ref>`. */
export function usesBotrulesAction(step: YamlMap): boolean {
  return typeof step.uses === 'string' && (step.uses === './' || /^[\w.-]+\/botrules@[\w.-]+$/.test(step.uses));
}
