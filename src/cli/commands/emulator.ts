// `botrules emulator`: runs the embedded HTTPS emulator of both hosts until SIGHUP/SIGINT/SIGTERM.
// It prints the exports a shell needs (URLs, the CA to trust, and the tokens it invented
// itself; tokens taken from the environment or flags are never printed), then a ready line
// that scripts can wait for. With --exports-file it also writes the exports to a file, atomically
// and only once it is listening, so `until [ -s FILE ]` in a script is a race-free wait; the file
// is removed first (a stale one from an earlier run never looks ready) and again on stop.
// On a signal it saves the state and exits 0.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Argv } from 'yargs';
import { checkWritable, writeFileAtomic, writeThroughTemporary } from '../../io/atomic-write.js';
import { UserError } from '../../errors.js';
import { parseFault } from '../../emulator/faults.js';
import { CAPABILITIES, DEFAULT_MAX_TAKE, MOVE_SEMANTICS, type Capability } from '../../emulator/options.js';
import { TRAFFIC_FORMATS, type TrafficFormat } from '../../emulator/traffic-formats.js';
import type { EmulatorApp, EmulatorOptions, RunningEmulator } from '../../emulator/index.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { defineAction, defineCommandWithActions, type ArgsOf } from '../define-command.js';
import { UsageError, wholeNumber } from '../options.js';
import { EMULATOR_EXPORTS, EMULATOR_READY, EMULATOR_TOKEN_ON_COMMAND_LINE, EMULATOR_STOPPED, EMULATOR_SUMMARY, exportLines, TRAFFIC_WRITTEN, type EmulatorExportsView, type EmulatorSummaryView } from '../../render/emulator/index.js';
import { writeReport } from '../output.js';
import { consoleOptions, runConsole } from './emulator-console.js';
import { EXIT, type ExitCode } from '../../exit-codes.js';
import { definedFields } from '../../defined.js';

const DEFAULT_STATE_FILE = path.join('.botrules-emulator', 'state.json');

function options(yargs: Argv<GlobalArgs>) {
  return yargs
    .option('port', { type: 'number', default: 0, requiresArg: true, coerce: wholeNumber('--port', 0, 65_535), describe: 'Port on 127.0.0.1 (0: a free one)' })
    .option('state', { type: 'string', describe: `State file; the certificate is written next to it (default: ${DEFAULT_STATE_FILE})` })
    .option('reset', { type: 'boolean', default: false, describe: 'Ignore an existing state file and seed afresh' })
    .option('seed', { type: 'string', describe: 'Rules directory to seed app "default" from' })
    .option('generate-rules', { type: 'number', default: 0, requiresArg: true, coerce: wholeNumber('--generate-rules', 0), describe: 'Generate N rules (after the seeded ones)' })
    .option('generate-scripts', { type: 'number', default: 0, requiresArg: true, coerce: wholeNumber('--generate-scripts', 0), describe: 'Generate N script-inventory records' })
    .option('script-app-id', { type: 'string', array: true, describe: 'App id(s) of generated scripts (default: app-demo)' })
    .option('script-tld', { type: 'string', array: true, describe: 'Host domain(s) of generated scripts (default: shop.example.com)' })
    .option('random-seed', { type: 'number', default: 1, requiresArg: true, coerce: wholeNumber('--random-seed', 0), describe: 'Seed for generated data, ids and fault rates' })
    .option('latency', { type: 'number', default: 0, requiresArg: true, coerce: wholeNumber('--latency', 0), describe: 'Delay every answer by MS milliseconds' })
    .option('fault', { type: 'string', array: true, coerce: faultSpecs, describe: 'Inject a fault, e.g. status=503,retry-after=1,path=/v1/scripts,times=2 or drop,method=PATCH,rate=0.1' })
    .option('log', { type: 'string', describe: 'Append one JSON line per request to FILE (never headers or tokens)' })
    .option('max-take', { type: 'number', default: DEFAULT_MAX_TAKE, requiresArg: true, coerce: wholeNumber('--max-take', 1), describe: 'Largest page size honoured by the script inventory' })
    .option('move-semantics', { choices: MOVE_SEMANTICS, default: 'list-move' as const, describe: 'How a PATCH of priority reorders rules' })
    .option('capabilities', { type: 'string', coerce: capabilityList, describe: 'What the rule API accepts besides list and PATCH: create (POST), delete (DELETE), or create,delete; without it both answer 405' })
    .option('app-token-file', { type: 'string', describe: 'A file of NAME=TOKEN lines: the apps served and their server tokens (default: app "default" with BOTRULES_TOKEN)' })
    .option('app-token', { type: 'string', array: true, coerce: appTokens, describe: 'NAME=TOKEN: an app and its server token (repeatable; the token shows in the process list: prefer --app-token-file)' })
    .conflicts('app-token', 'app-token-file')
    .option('api-token', { type: 'string', describe: 'Script-inventory token (default: BOTRULES_API_TOKEN, else BOTRULES_TOKEN)' })
    .option('write-traffic', { type: 'string', describe: 'Write a synthetic NDJSON request log (browsers, bots, monitors, partners) to FILE for botrules replay, and exit without serving' })
    .option('traffic-format', { choices: TRAFFIC_FORMATS, default: 'ndjson' as const, describe: 'The log format of --write-traffic: any format replay reads (docs/replay.md, "Log formats")' })
    .option('traffic-requests', { type: 'number', default: 10_000, requiresArg: true, coerce: wholeNumber('--traffic-requests', 1), describe: 'Requests in the --write-traffic log' })
    // Not `--env-file`: Node 20 takes that flag for itself even after the script name.
    .option('exports-file', {
      type: 'string',
      describe: 'Also write the export lines to FILE once the emulator is listening (atomically; removed on stop)',
    });
}

type EmulatorArgs = ArgsOf<typeof options>;

export const { builder, run } = defineCommandWithActions([
  defineAction({ command: '$0', describe: 'Run the emulator until Ctrl-C', builder: options, run: runEmulator }),
  defineAction({ command: 'console <action> <rule>', describe: 'Do in a running emulator what only the web console can: create or delete a rule (not part of the service API)', builder: consoleOptions, run: runConsole }),
], { usage: '$0 emulator [options]\n\nRun the embedded HTTPS emulator of the service (both hosts) until Ctrl-C.' });

async function runEmulator(args: EmulatorArgs, ctx: CommandContext): Promise<ExitCode> {
  if (args.writeTraffic !== undefined) return writeTrafficLog(args.writeTraffic, args.trafficRequests, args.randomSeed, args.trafficFormat, ctx);
  // Signal handlers live here only: in-process users of startEmulator stop it themselves.
  const shutdown = new AbortController();
  const stopListening = ctx.io.interrupts?.finish(() => shutdown.abort());
  // A launcher such as `npx` may die of `kill %1` without passing the signal on: an emulator
  // whose parent is gone stops too instead of lingering on its port.
  const stopWatching = ctx.io.parentGone?.(() => shutdown.abort());
  try {
    return await serve(args, ctx, shutdown.signal);
  } finally {
    stopWatching?.();
    stopListening?.();
  }
}

/** Starts the emulator, prints how to reach it, and resolves (0) once `shutdown` aborts and the state is saved. */
async function serve(args: EmulatorArgs, ctx: CommandContext, shutdown: AbortSignal): Promise<ExitCode> {
  const options = emulatorOptions(args, ctx);
  if (args.appTokenFile !== undefined) options.apps = await appTokenFile(args.appTokenFile, ctx.io.cwd);
  // Anyone on the machine can read a command line (ps): say so, once, without the token.
  if ((args.appToken ?? []).length > 0) await writeReport(EMULATOR_TOKEN_ON_COMMAND_LINE, undefined, ctx);
  const { exportsFile } = args;
  const envFile = exportsFile === undefined ? undefined : path.resolve(ctx.io.cwd, exportsFile);
  if (envFile !== undefined && exportsFile !== undefined) {
    await checkWritable(envFile, '--exports-file', exportsFile);
    await rm(envFile, { force: true });
  }
  const { startEmulator } = await import('../../emulator/index.js');
  const emulator = await startEmulator(options);
  const stopped = new Promise<void>((resolve) => {
    if (shutdown.aborted) resolve();
    else shutdown.addEventListener('abort', () => resolve(), { once: true });
  });
  const exports = exportsOf(emulator);
  await writeReport(EMULATOR_EXPORTS, exports, ctx);
  if (envFile !== undefined && exportsFile !== undefined) await writeEnvFile(envFile, exportLines(exports), exportsFile, emulator);
  await writeReport(EMULATOR_SUMMARY, summaryOf(emulator, options), ctx);
  await writeReport(EMULATOR_READY, { url: emulator.url }, ctx);
  await stopped;
  if (envFile !== undefined) await rm(envFile, { force: true });
  await emulator.stop();
  await writeReport(EMULATOR_STOPPED, { statePath: emulator.statePath }, ctx);
  return EXIT.ok;
}

/** `--write-traffic FILE`: the synthetic log, written beside FILE and renamed into place once whole. */
async function writeTrafficLog(shown: string, count: number, seed: number, format: TrafficFormat, ctx: CommandContext): Promise<ExitCode> {
  const { writeTraffic } = await import('../../emulator/index.js');
  await writeThroughTemporary(path.resolve(ctx.io.cwd, shown), '--write-traffic', shown, (temporary) => writeTraffic(temporary, count, seed, format));
  await writeReport(TRAFFIC_WRITTEN, { count, file: shown }, ctx);
  return EXIT.ok;
}

function emulatorOptions(args: EmulatorArgs, ctx: CommandContext): EmulatorOptions {
  // The numbers and --app-token were read and checked by the builder's coerce functions.
  const apps = args.appToken ?? [];
  return {
    port: args.port,
    statePath: args.state ?? DEFAULT_STATE_FILE,
    reset: args.reset,
    cwd: ctx.io.cwd,
    env: { BOTRULES_TOKEN: ctx.env('BOTRULES_TOKEN'), BOTRULES_API_TOKEN: ctx.env('BOTRULES_API_TOKEN') },
    generateRules: args.generateRules,
    generateScripts: args.generateScripts,
    scriptAppIds: args.scriptAppId ?? [],
    scriptTlds: args.scriptTld ?? [],
    randomSeed: args.randomSeed,
    latencyMs: args.latency,
    faults: args.fault ?? [],
    maxTake: args.maxTake,
    moveSemantics: args.moveSemantics,
    ...definedFields({ capabilities: args.capabilities, apps: apps.length > 0 ? apps : undefined, seed: args.seed, logFile: args.log, apiToken: args.apiToken || undefined }),
  };
}

/** `--capabilities create,delete`: read now, so a wrong word is a usage error before the emulator starts. */
function capabilityList(value: unknown): Capability[] {
  const words = String(value).split(',').map((word) => word.trim()).filter((word) => word !== '');
  const unknown = words.find((word) => !CAPABILITIES.includes(word as Capability));
  if (unknown !== undefined) throw new UserError(`--capabilities: unknown capability "${unknown}"; use ${CAPABILITIES.join(', ')}, separated by commas`);
  return [...new Set(words)] as Capability[];
}

/** `--fault SPEC`, repeatable: each spec read now, so a bad one is a usage error before the emulator starts. */
function faultSpecs(values: unknown[]): string[] {
  const specs = values.map(String);
  for (const spec of specs) {
    try {
      parseFault(spec);
    } catch (err) {
      // The message names the spec; its details say the syntax. yargs keeps only a message.
      if (!(err instanceof UserError)) throw err;
      throw new UsageError(`--fault: ${[err.message, ...err.details].join('\n')}`);
    }
  }
  return specs;
}

/** `--app-token NAME=TOKEN`, repeatable: the apps the emulator serves, each with its token. */
function appTokens(values: unknown[]): EmulatorApp[] {
  return parsedAppTokens(values.map(String), (problem) =>
    new UsageError(problem === 'not NAME=TOKEN' ? '--app-token takes NAME=TOKEN, e.g. --app-token shop="$SHOP_TOKEN"' : `--app-token ${problem}`));
}

/** `NAME=TOKEN` specs; a problem never repeats the spec, which holds a token. */
function parsedAppTokens(specs: readonly string[], problem: (what: string) => Error): EmulatorApp[] {
  const apps: EmulatorApp[] = [];
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    const name = spec.slice(0, eq);
    const token = spec.slice(eq + 1);
    if (eq <= 0 || token === '') throw problem('not NAME=TOKEN');
    if (apps.some((a) => a.name === name)) throw problem(`names the app ${JSON.stringify(name)} twice`);
    apps.push({ name, token });
  }
  return apps;
}

/** Most bytes of an --app-token-file: a few apps' lines. */
const MAX_TOKEN_FILE_BYTES = 64 * 1024;

/** `--app-token-file FILE`: `NAME=TOKEN` lines; blank lines and `#` comments are skipped. */
async function appTokenFile(shown: string, cwd: string): Promise<EmulatorApp[]> {
  const text = await readFile(path.resolve(cwd, shown), 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new UserError(`cannot read --app-token-file ${shown}: ${err.code === 'ENOENT' ? 'it does not exist' : (err.code ?? 'unreadable')}`);
  });
  if (Buffer.byteLength(text) > MAX_TOKEN_FILE_BYTES) throw new UserError(`--app-token-file ${shown} is larger than ${MAX_TOKEN_FILE_BYTES} bytes`);
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
  const apps = parsedAppTokens(lines, (problem) => new UserError(`--app-token-file ${shown}: ${problem === 'not NAME=TOKEN' ? 'each line takes NAME=TOKEN' : `it ${problem}`}`));
  if (apps.length === 0) throw new UserError(`--app-token-file ${shown}: it names no app (each line takes NAME=TOKEN)`);
  return apps;
}

/** Writes the exports for `--exports-file`; on failure the emulator stops before the error is reported. */
async function writeEnvFile(file: string, exports: string, shown: string, emulator: RunningEmulator): Promise<void> {
  try {
    // Readable by its owner only: it holds the emulator's tokens (0600, as ssh keeps keys).
    await writeFileAtomic(file, exports, '--exports-file', shown, 0o600);
  } catch (err) {
    await emulator.stop();
    throw err;
  }
}

function exportsOf(emulator: RunningEmulator): EmulatorExportsView {
  const defaultToken = emulator.tokens.apps.default;
  return {
    consoleUrl: emulator.consoleUrl,
    gatewayUrl: emulator.gatewayUrl,
    caPath: emulator.caPath,
    ...definedFields({ inventedAppToken: emulator.generatedTokens.apps.includes('default') ? defaultToken : undefined, inventedApiToken: emulator.generatedTokens.api ? emulator.tokens.api : undefined }),
  };
}

function summaryOf(emulator: RunningEmulator, options: EmulatorOptions): EmulatorSummaryView {
  const seeding = options.seed !== undefined || Boolean(options.generateRules) || Boolean(options.generateScripts);
  return {
    statePath: emulator.statePath,
    seedIgnored: emulator.resumed && seeding,
    apps: Object.keys(emulator.tokens.apps).map((name) => ({ name, rules: emulator.rules(name).length })),
    scripts: emulator.scripts().length,
    capabilities: CAPABILITIES.filter((capability) => options.capabilities?.includes(capability) === true),
  };
}
