// The documented command-line surface (docs/behaviour.md, "Commands"), and a checker for `botrules …`
// invocations written in workflows, the action and their comments. The list is kept here, as
// documented, so a workflow cannot use a flag the contract does not promise.
import { EXPRESSION_TOKEN } from './workflow-files.js';

export interface FlagSpec {
  /** The flag is followed by a value (`--out FILE` or `--out=FILE`). */
  takesValue: boolean;
  /** Takes one or more values up to the next flag (`--app-id A B`). */
  variadic?: boolean;
  /** Allowed values; with `commaList`, each comma-separated item must be one of them. */
  values?: readonly string[];
  commaList?: boolean;
}

export interface CommandSurface {
  flags: Readonly<Record<string, FlagSpec>>;
  /** Exact number of positional arguments, checked only for complete invocations. */
  positionals: number;
}

const VALUE: FlagSpec = { takesValue: true };
const SWITCH: FlagSpec = { takesValue: false };

export const GLOBAL_FLAGS: Readonly<Record<string, FlagSpec>> = {
  config: VALUE,
  dir: VALUE,
  app: VALUE,
  'no-color': SWITCH,
  verbose: SWITCH,
  help: SWITCH,
  'allow-empty': SWITCH,
  timeout: VALUE,
};

export const COMMAND_SURFACE: Readonly<Record<string, CommandSurface>> = {
  validate: { flags: { strict: SWITCH, format: { takesValue: true, values: ['text', 'sarif'] } }, positionals: 0 },
  test: {
    flags: {
      tests: VALUE,
      live: VALUE,
      format: { takesValue: true, values: ['text', 'junit', 'sarif', 'json', 'markdown'] },
      'ignore-case': SWITCH,
      coverage: SWITCH,
      'fail-under': VALUE,
      mutate: SWITCH,
      'min-score': VALUE,
      'max-mutants': VALUE,
      'mutate-timeout': VALUE,
      rules: { takesValue: true, variadic: true },
      'changed-since': VALUE,
    },
    positionals: 0,
  },
  plan: {
    flags: {
      out: VALUE,
      format: { takesValue: true, values: ['text', 'json', 'markdown'] },
      'detailed-exitcode': SWITCH,
      live: VALUE,
      tests: VALUE,
    },
    positionals: 0,
  },
  live: { flags: { out: VALUE }, positionals: 0 },
  config: { flags: { json: SWITCH }, positionals: 0 },
  apply: {
    flags: {
      plan: VALUE,
      'auto-approve': SWITCH,
      'max-changes': VALUE,
      force: SWITCH,
      concurrency: VALUE,
      'undo-out': VALUE,
    },
    positionals: 0,
  },
  import: { flags: { out: VALUE, force: SWITCH, update: SWITCH, prune: SWITCH, 'dry-run': SWITCH }, positionals: 0 },
  'scripts report': {
    flags: {
      'app-id': { takesValue: true, variadic: true },
      tld: { takesValue: true, variadic: true },
      from: VALUE,
      to: VALUE,
      format: { takesValue: true, values: ['json', 'ndjson', 'csv', 'markdown'] },
      out: VALUE,
      'page-size': VALUE,
      policy: VALUE,
      previous: VALUE,
    },
    positionals: 0,
  },
  'scripts diff': {
    flags: {
      format: { takesValue: true, values: ['text', 'json', 'markdown'] },
      'fail-on': { takesValue: true, values: ['new', 'risk-up', 'unapproved', 'high-risk'], commaList: true },
    },
    positionals: 2,
  },
  'github artifact': {
    flags: { name: VALUE, workflow: VALUE, 'max-bytes': VALUE, 'exclude-run': VALUE, optional: SWITCH },
    positionals: 0,
  },
  'github plan-comment': { flags: { pr: VALUE, plans: VALUE, 'run-url': VALUE }, positionals: 0 },
  'github drift-pr': { flags: { 'rules-dir': VALUE, drift: VALUE, 'run-url': VALUE }, positionals: 0 },
  'github drift-issue': { flags: { reports: VALUE, 'run-url': VALUE }, positionals: 0 },
  'github action': { flags: {}, positionals: 0 },
  'scripts verify': { flags: { format: { takesValue: true, values: ['text', 'json'] }, anchor: VALUE }, positionals: 1 },
  'scripts evidence': {
    flags: {
      from: VALUE,
      to: VALUE,
      interval: VALUE,
      policy: VALUE,
      'app-id': { takesValue: true, variadic: true },
      tld: { takesValue: true, variadic: true },
      format: { takesValue: true, values: ['html', 'json'] },
      out: VALUE,
      anchor: VALUE,
    },
    positionals: 1,
  },
  emulator: {
    flags: {
      port: VALUE,
      state: VALUE,
      seed: VALUE,
      'generate-rules': VALUE,
      'generate-scripts': VALUE,
      latency: VALUE,
      fault: VALUE,
      log: VALUE,
    },
    positionals: 0,
  },
};

export interface Invocation {
  /** Where it was written, e.g. `examples/github-workflows/plan.yml:42`. */
  source: string;
  command: string;
  args: readonly string[];
  /** A complete command line (an action step), not a mention in prose: positionals are counted. */
  complete: boolean;
}

/** Splits an argument string on whitespace; each `${{ … }}` expression becomes one opaque token. */
export function tokenise(text: string): string[] {
  return text
    .replace(/\$\{\{.*?\}\}/gs, EXPRESSION_TOKEN)
    .split(/\s+/)
    .filter((token) => token !== '');
}

const COMMAND_PATTERN = /\bbotrules\s+(validate|plan|apply|import|emulator|scripts\s+(?:report|diff))\b([^`\\\n]*)/g;

/**
 * Every `botrules <command> …` written in a file (scripts, comments, prose), up to the end of
 * the line or a backtick (escaped or not, as in a JavaScript template).
 */
export function invocationsInText(file: string, text: string): Invocation[] {
  const found: Invocation[] = [];
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(COMMAND_PATTERN)) {
      const command = (match[1] ?? '').replace(/\s+/g, ' ');
      found.push({ source: `${file}:${index + 1}`, command, args: tokenise(match[2] ?? ''), complete: false });
    }
  });
  return found;
}

/** The problems of one invocation against the documented surface; empty when it is valid. */
export function checkInvocation(invocation: Invocation): string[] {
  const where = `${invocation.source}: botrules ${invocation.command}`;
  const surface = COMMAND_SURFACE[invocation.command];
  if (!surface) return [`${where}: unknown command`];
  const problems: string[] = [];
  let positionals = 0;
  const args = invocation.args;
  for (let i = 0; i < args.length; i++) {
    const token = args[i] ?? '';
    if (!token.startsWith('--')) {
      positionals++;
      continue;
    }
    const [name = '', inlineValue] = token.slice(2).split(/=(.*)/s);
    const spec = surface.flags[name] ?? GLOBAL_FLAGS[name];
    if (!spec) {
      problems.push(`${where}: unknown flag --${name}`);
      continue;
    }
    if (!spec.takesValue) {
      if (inlineValue !== undefined) problems.push(`${where}: --${name} takes no value`);
      continue;
    }
    const values: string[] = [];
    if (inlineValue !== undefined) values.push(inlineValue);
    while (i + 1 < args.length && !(args[i + 1] ?? '').startsWith('--') && (values.length === 0 || spec.variadic)) {
      values.push(args[++i] ?? '');
    }
    if (values.length === 0) problems.push(`${where}: --${name} needs a value`);
    for (const value of values) problems.push(...checkValue(where, name, spec, value));
  }
  if (invocation.complete && positionals !== surface.positionals) {
    problems.push(`${where}: expects ${surface.positionals} positional argument(s), got ${positionals}`);
  }
  return problems;
}

function checkValue(where: string, name: string, spec: FlagSpec, value: string): string[] {
  if (!spec.values || value.includes(EXPRESSION_TOKEN)) return [];
  const items = spec.commaList ? value.split(',') : [value];
  return items
    .filter((item) => !spec.values?.includes(item))
    .map((item) => `${where}: --${name} does not accept "${item}" (one of ${spec.values?.join(', ')})`);
}
