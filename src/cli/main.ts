// The CLI's entry point: yargs wiring, one top-level error handler, exit codes.
// This directory is the only place that writes to stdout/stderr.
import type { Argv, Options } from 'yargs';
import { COMMANDS, commandName, type CommandEntry } from './commands.js';
import { createContext, type CliIo, type GlobalArgs } from './context.js';
import { processIo } from './process-io.js';
import { reportError, reportWriteFailures } from './report-error.js';
import { timeoutSeconds, UsageError } from './options.js';
import { usageMessage, YARGS_STRINGS } from './usage-messages.js';
import { flushWorkflowGuard, guardWorkflowCommands } from './workflow-guard.js';
import { annotationsFor, underGitHubActions } from './annotations.js';
import { VERSION } from '../version.js';
import { EXIT, type ExitCode } from '../exit-codes.js';

/** Runs the CLI with the given arguments; resolves to the exit code. Never calls process.exit. */
export async function main(argv: readonly string[], rawIo: CliIo): Promise<ExitCode> {
  // In a GitHub Actions job log, no line botrules prints may become a workflow command it did
  // not make; its own annotations are the one output mode that writes them.
  const io = underGitHubActions(rawIo.env) ? { ...rawIo, stdout: guardWorkflowCommands(rawIo.stdout), stderr: guardWorkflowCommands(rawIo.stderr) } : rawIo;
  const annotations = annotationsFor(io);
  // `--version` alone is answered before yargs (most of the start-up cost) is loaded.
  if (argv.length === 1 && argv[0] === '--version') {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const entry = await findCommand(argv);
  let exitCode: ExitCode = EXIT.ok;
  let verbose = argv.includes('--verbose');
  let color = !argv.includes('--no-color');
  try {
    // Only the requested command's module is loaded (alongside yargs); the others are listed by name.
    const [module, { default: yargs }] = await Promise.all([entry ? entry.load() : undefined, import('yargs')]);
    const parser = globalOptions(yargs([...argv]), argv);
    skipHelpCache(parser);
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
      const runCli = (words: readonly string[], replaced: Partial<CliIo>) => main(words, { ...io, ...replaced });
      exitCode = await module.run(args, { ...createContext(io, args, annotations), runCli });
    }
  } catch (err) {
    exitCode = reportError(err, io, { verbose, color }, annotations);
  }
  flushWorkflowGuard(io.stdout);
  flushWorkflowGuard(io.stderr);
  return reportWriteFailures(rawIo, exitCode);
}

/**
 * yargs formats the whole help of the command it is about to run and keeps it
 * (`cacheHelpMessage`), in case the command asks for it later. botrules never does: help is
 * shown only for --help, and usage errors go to reportError (showHelpOnFail(false)). That
 * formatting (cliui, wrap-ansi, string widths through Unicode tables and Intl.Segmenter) costs
 * the bundled `validate` 1.26× its CPU time, about 0.1 s (bench/README.md, "Start-up", measured
 * with and without this hook), so it is skipped, through the
 * same internal hook the Angular CLI uses for the same reason. Should a later yargs lack the
 * hook, nothing changes but the time: --help always formats afresh.
 */
export function skipHelpCache(parser: Argv): void {
  const internal = parser as unknown as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } };
  const usage = internal.getInternalMethods?.().getUsageInstance?.();
  if (typeof usage?.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => undefined;
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
      // handler in reportError. A coerce function's error arrives re-wrapped as yargs' YError
      // (a class yargs does not export), its message kept; any other error is not a usage error.
      if (error instanceof UsageError || (error instanceof Error && error.name !== 'YError')) throw error;
      const text = message ?? error?.message ?? 'invalid command line';
      throw new UsageError(usageMessage(text, instance, argv, COMMANDS.map(commandName)));
    })
    .env(false)
    .locale('en')
    // botrules' wording of yargs' messages (usage-messages.ts); after locale(), which would reset it.
    .updateStrings(YARGS_STRINGS as unknown as Record<string, string>)
    .showHelpOnFail(false)
    .epilogue('Environment: BOTRULES_CONSOLE_URL, BOTRULES_GATEWAY_URL, BOTRULES_TOKEN, BOTRULES_API_TOKEN, BOTRULES_TIMEOUT, NO_COLOR') as unknown as Argv<GlobalArgs>;
}

export { UsageError };

/** For bin/botrules.js: run with the real process and set its exit code. */
export async function runFromProcess(): Promise<void> {
  process.exitCode = await main(process.argv.slice(2), processIo());
}
