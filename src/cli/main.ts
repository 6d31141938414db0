// The CLI's entry point: yargs wiring, one top-level error handler, exit codes.
// This directory is the only place that writes to stdout/stderr.
import type { Argv, Options } from 'yargs';
import { COMMANDS, commandName, type CommandEntry } from './commands.js';
import { createContext, processIo, type CliIo, type GlobalArgs } from './context.js';
import { reportError } from './report-error.js';
import { UsageError } from './options.js';
import { flushWorkflowGuard, guardWorkflowCommands } from './workflow-guard.js';
import { VERSION } from '../version.js';

/** Runs the CLI with the given arguments; resolves to the exit code. Never calls process.exit. */
export async function main(argv: readonly string[], rawIo: CliIo): Promise<number> {
  const io = underGitHubActions(rawIo) ? { ...rawIo, stdout: guardWorkflowCommands(rawIo.stdout), stderr: guardWorkflowCommands(rawIo.stderr) } : rawIo;
  // `--version` alone is answered before yargs (most of the start-up cost) is loaded.
  if (argv.length === 1 && argv[0] === '--version') {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const entry = await findCommand(argv);
  let exitCode = 0;
  let verbose = argv.includes('--verbose');
  let color = !argv.includes('--no-color');
  try {
    // Only the requested command's module is loaded (alongside yargs); the others are listed by name.
    const [module, { default: yargs }] = await Promise.all([entry ? entry.load() : undefined, import('yargs')]);
    const parser = globalOptions(yargs([...argv]), argv);
    for (const c of COMMANDS) {
      if (c === entry && module) parser.command(c.command, c.describe, (y) => module.builder(y));
      else parser.command(c.command, c.describe);
    }
    let printed = false;
    const args = await parser.parseAsync([...argv], {}, (err, _args, output) => {
      printed = Boolean(output);
      if (output && !err) io.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
    });
    // The command runs after parsing rather than as a yargs handler: yargs runs only the
    // innermost command's handler, so a builder that declares subcommands (`scripts report`)
    // would otherwise never reach `run`. Help and version output mean there is nothing to run.
    if (!printed) {
      // yargs matched a command whose module was not the one loaded: never end without running it.
      const parsedCommand = String(args._[0] ?? '');
      if (!module || !entry || commandName(entry) !== parsedCommand) {
        throw new Error(`the command "${parsedCommand}" was parsed but its module was not loaded`);
      }
      verbose = args.verbose;
      color = args.color;
      exitCode = await module.run(args as GlobalArgs & Record<string, unknown>, createContext(io, args));
    }
  } catch (err) {
    exitCode = reportError(err, io, { verbose, color });
  }
  flushWorkflowGuard(io.stdout);
  flushWorkflowGuard(io.stderr);
  return exitCode;
}

/** In a GitHub Actions job log, no line botrules prints may become a workflow command it did not make. */
function underGitHubActions(io: CliIo): boolean {
  return io.env.GITHUB_ACTIONS === 'true';
}

/**
 * The options every command takes. The pre-scan that picks the command module reads the same
 * table, so whichever option is added later, the pre-scan knows whether it takes a value: a flag
 * never swallows the command name (`--verbose validate`) and a value is never taken for it
 * (`--dir plan validate`).
 */
const GLOBAL_OPTIONS = {
  config: { type: 'string', describe: 'Project config file (default: botrules.yaml if present)', global: true },
  dir: { type: 'string', describe: 'Rules directory when there is no config (default: rules)', global: true },
  app: { type: 'string', describe: 'Limit to one app of the config', global: true },
  color: { type: 'boolean', default: true, describe: 'Colour output on a TTY (--no-color or NO_COLOR turn it off)', global: true },
  verbose: { type: 'boolean', default: false, describe: 'Show requests and stack traces', global: true },
  timeout: {
    type: 'number', global: true, requiresArg: true, coerce: timeoutSeconds,
    describe: 'Seconds each request may take before it is retried or given up (default 10, or BOTRULES_TIMEOUT)',
  },
  'allow-empty': { type: 'boolean', describe: 'Accept a rules directory with no rule files (validate, plan, apply)', global: true },
} as const satisfies Record<string, Options>;

const GLOBAL_OPTION_NAMES = Object.keys(GLOBAL_OPTIONS) as (keyof typeof GLOBAL_OPTIONS)[];
const GLOBAL_BOOLEAN_OPTIONS = [...GLOBAL_OPTION_NAMES.filter((name) => GLOBAL_OPTIONS[name].type === 'boolean'), 'help', 'version'];
const GLOBAL_VALUE_OPTIONS = GLOBAL_OPTION_NAMES.filter((name) => GLOBAL_OPTIONS[name].type !== 'boolean');

/**
 * The command entry the arguments name, found with yargs' own parser (yargs-parser) so that
 * option values in any position (`--dir rules validate`) are read as values, the way yargs
 * itself reads them afterwards.
 */
async function findCommand(argv: readonly string[]): Promise<CommandEntry | undefined> {
  const { Parser } = await import('yargs/helpers');
  const parsed = Parser(argv as string[], {
    string: GLOBAL_VALUE_OPTIONS,
    boolean: GLOBAL_BOOLEAN_OPTIONS,
    alias: { help: ['h'] },
    configuration: { 'camel-case-expansion': false },
  });
  const requested = String(parsed._[0] ?? '');
  return COMMANDS.find((c) => commandName(c) === requested);
}

function globalOptions(parser: Argv, argv: readonly string[]): Argv<GlobalArgs> {
  return parser
    .scriptName('botrules')
    .usage('$0 <command> [options]\n\nBot-protection custom rules as code, and the script inventory as evidence.')
    .options(GLOBAL_OPTIONS)
    .demandCommand(1, 'Name a command: see botrules --help')
    .strict()
    .version(VERSION)
    .help()
    .alias('h', 'help')
    .wrap(Math.min(100, process.stdout.columns || 100))
    .exitProcess(false)
    .recommendCommands()
    .fail((message, error, instance) => {
      // yargs calls this for usage errors (unknown flag, missing argument, a failed `conflicts`,
      // `implies`, `choices`, `coerce` or `check` of a command definition): all go to the one
      // handler in reportError. A coerce function's error arrives re-wrapped, its message kept.
      if (error instanceof Error && error.name !== 'YError') throw error;
      const text = message ?? error?.message ?? 'invalid command line';
      throw new UsageError(unknownArguments(text, knownOptions(instance)) ?? unknownCommand(text, argv) ?? relationMessage(text) ?? text);
    })
    .env(false)
    .locale('en')
    .showHelpOnFail(false)
    .epilogue('Environment: BOTRULES_CONSOLE_URL, BOTRULES_GATEWAY_URL, BOTRULES_TOKEN, BOTRULES_API_TOKEN, BOTRULES_TIMEOUT, NO_COLOR') as unknown as Argv<GlobalArgs>;
}

/**
 * Every described option of this command line, in kebab case. yargs passes its usage object
 * as the third argument of fail(); its descriptions are keyed by option name.
 */
function knownOptions(usage: unknown): string[] {
  const described = (usage as { getDescriptions?: () => Record<string, unknown> } | undefined)?.getDescriptions?.() ?? {};
  return [...new Set(Object.keys(described).map(kebab))];
}

/**
 * yargs' "Unknown arguments: detailed-exitcod, detailedExitcod" names one typo twice (its
 * camel-case expansion) and suggests nothing: each typo once, as the user wrote it, with the
 * nearest known option when one is close. undefined for any other message.
 */
export function unknownArguments(message: string, known: readonly string[]): string | undefined {
  const match = /^Unknown arguments?: (.*)$/.exec(message);
  if (match === null) return undefined;
  const typos = [...new Set((match[1] ?? '').split(', ').map(kebab))];
  const described = typos.map((typo) => {
    const near = nearest(typo, known);
    const shown = /^\d|^-/.test(typo) || typo.length === 1 ? typo : `--${typo}`;
    return near === undefined ? shown : `${shown} (did you mean --${near}?)`;
  });
  return `Unknown argument${typos.length === 1 ? '' : 's'}: ${described.join(', ')}`;
}

/** recommendCommands() says only "Did you mean report?": say which word was not a command. */
export function unknownCommand(message: string, argv: readonly string[]): string | undefined {
  const match = /^Did you mean (\S+)\?$/.exec(message);
  if (match === null) return undefined;
  const suggestion = match[1] ?? '';
  const words = argv.filter((word) => !word.startsWith('-'));
  const typed = words.reduce<string | undefined>((best, word) => (best === undefined || editDistance(word, suggestion) < editDistance(best, suggestion) ? word : best), undefined);
  return typed === undefined ? message : `Unknown command ${JSON.stringify(typed)}. ${message}`;
}

/**
 * yargs' messages for `conflicts`, `implies` and `demandOption` name options without their
 * dashes ("Arguments update and force are mutually exclusive"): said with the flags as typed.
 * undefined for any other message.
 */
export function relationMessage(message: string): string | undefined {
  const flag = (name: string) => `--${kebab(name)}`;
  const exclusive = /^Arguments (\S+) and (\S+) are mutually exclusive$/.exec(message);
  if (exclusive) return `${flag(exclusive[1] ?? '')} and ${flag(exclusive[2] ?? '')} cannot be used together`;
  const [first, ...rest] = message.split('\n');
  // yargs runs the failed implications together on one line: " dry-run -> update prune -> update".
  // The heading is its English text, or the message key itself where yargs finds no locale files
  // (the bundle).
  if (first === 'Missing dependent arguments:' || first === 'Implications failed:') {
    const needs = [...rest.join(' ').matchAll(/(\S+) -> (\S+)/g)].map((m) => `${flag(m[1] ?? '')} needs ${flag(m[2] ?? '')}`);
    return needs.sort().join('; ');
  }
  const valueless = /^Not enough arguments following: (\S+)$/.exec(message);
  if (valueless) return `${flag(valueless[1] ?? '')} needs a value`;
  const missing = /^Missing required arguments?: (.*)$/.exec(first ?? '');
  if (missing) {
    const names = (missing[1] ?? '').split(', ').map(flag);
    return [`missing required option${names.length === 1 ? '' : 's'} ${names.join(', ')}`, ...rest].join('\n');
  }
  return undefined;
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** The known option within edit distance 2 (or a third of the name) of `typo`, if one is nearest. */
function nearest(typo: string, known: readonly string[]): string | undefined {
  const limit = Math.max(2, Math.floor(typo.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    if (name.length <= 1) continue;
    const distance = editDistance(typo, name);
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] as number;
}

export { UsageError };

function timeoutSeconds(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) {
    throw new UsageError('--timeout must be a number of seconds above 0 and at most 3600');
  }
  return seconds;
}


/** For bin/botrules.js: run with the real process and set its exit code. */
export async function runFromProcess(): Promise<void> {
  process.exitCode = await main(process.argv.slice(2), processIo());
}
