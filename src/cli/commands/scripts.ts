// `botrules scripts report` and `botrules scripts diff` (docs/behaviour.md, "Commands", "Exit codes", "Script inventory").
import type { Argv } from 'yargs';
import { UserError } from '../../errors.js';
import { INVENTORY_DIFF_FORMATS, INVENTORY_DIFF_OUTPUTS, REPORT_FORMATS, REPORT_OUTPUTS } from '../../render/scripts/index.js';
import { CSV_COLUMNS, CSV_LIST_SEPARATOR } from '../../render/scripts/streamed.js';
import { diffInventories, reportInventory } from '../../engine/scripts.js';
import { FAIL_ON_CONDITIONS, parseFailOn } from '../../scripts/diff.js';
import { dropPartialFiles, openOutput } from '../../scripts/output.js';
import { resolveWindow, TIME_FORMATS_HINT } from '../../scripts/time.js';
import { chainHeadSummary, FAIL_ON_MATCHES, POLICY_WARNINGS, REPORT_OUTCOME, writeInterrupted } from '../../render/scripts/outcome.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { defineAction, defineCommandWithActions, type ArgsOf } from '../define-command.js';
import { commaList, wholeNumber } from '../options.js';
import { evidenceOptions, runEvidence, runVerify, verifyOptions } from './scripts-evidence.js';
import { pagesText } from '../../render/progress.js';
import { progressBar } from '../progress-line.js';
import { appendStepSummary, writeReport, writeStepOutputs } from '../output.js';
import { EXIT, type ExitCode } from '../../exit-codes.js';
import { definedFields } from '../../defined.js';

/** Added to yargs' "Missing required argument" message. */
const REPORT_HELP = 'See botrules scripts report --help.';

function reportOptions(yargs: Argv<GlobalArgs>) {
  return yargs
    // Required (checked by yargs before the command runs, so before any request); a list that is
    // empty once split at commas (`--app-id ,`) is refused by its coerce function.
    .option('app-id', { type: 'string', array: true, demandOption: REPORT_HELP, coerce: commaList('--app-id', 'app-demo'), describe: 'Application id(s); repeat or separate with commas' })
    .option('tld', { type: 'string', array: true, demandOption: REPORT_HELP, coerce: commaList('--tld', 'shop.example.com'), describe: 'Host domain(s); repeat or separate with commas' })
    .option('from', { type: 'string', describe: 'Start of the period (default: 24 hours before --to)' })
    .option('to', { type: 'string', describe: 'End of the period (default: now)' })
    .option('format', { choices: REPORT_FORMATS, default: 'json' as const, describe: 'json snapshot (sorted), ndjson or csv (streamed, arrival order), markdown summary' })
    .option('out', { type: 'string', describe: 'Write to this file (written whole or not at all) instead of stdout' })
    .option('page-size', { type: 'number', default: 50, requiresArg: true, coerce: wholeNumber('--page-size', 1, 10_000), describe: 'Records asked for per page' })
    .option('concurrency', { type: 'number', default: 4, requiresArg: true, coerce: wholeNumber('--concurrency', 1, 64), describe: 'Pages fetched at the same time' })
    .option('policy', { type: 'string', describe: 'Approval policy (default: scripts-policy.yaml if present)' })
    .option('previous', { type: 'string', describe: 'json: the snapshot this one links to in the chain, a file or a directory (its newest snapshot of the same apps and domains)' })
    .option('csv-formula-escape', {
      type: 'boolean',
      default: true,
      describe: "csv: start cells that begin with = + - @ tab or CR with ' so spreadsheets show them as text (--no-csv-formula-escape keeps cells exact)",
    })
    .epilogue(
      `Times: ${TIME_FORMATS_HINT}.\n` +
        'ndjson and csv are written as pages arrive (arrival order, flat memory); json is sorted by key. ' +
        `csv columns: ${CSV_COLUMNS.join(', ')}; page_types joined with "${CSV_LIST_SEPARATOR}".`,
    );
}

function diffOptions(yargs: Argv<GlobalArgs>) {
  return yargs
    .positional('old', { type: 'string', describe: 'The earlier snapshot (json)' })
    .positional('new', { type: 'string', describe: 'The later snapshot (json)' })
    .option('format', { choices: INVENTORY_DIFF_FORMATS, default: 'text' as const, describe: 'Output format' })
    .option('fail-on', {
      type: 'string',
      array: true,
      coerce: (values: unknown[]) => parseFailOn(values.map(String)),
      describe: `Exit 3 when any of these match (repeat or separate with commas): ${FAIL_ON_CONDITIONS.join(', ')}`,
    })
    .option('policy', { type: 'string', describe: 'Re-check approvals of NEW against this policy instead of the marks NEW carries' });
}

export const { builder, run } = defineCommandWithActions([
  defineAction({ command: 'report', describe: 'Fetch the whole inventory of a period and write a snapshot', builder: reportOptions, run: runReport }),
  defineAction({ command: 'diff <old> <new>', describe: 'Compare two json snapshots: added, removed and changed scripts', builder: diffOptions, run: runDiff }),
  defineAction({ command: 'verify <directory>', describe: 'Check the chain of json snapshots in a directory: none altered, removed or inserted', builder: verifyOptions, run: runVerify }),
  defineAction({ command: 'evidence <directory>', describe: 'Build the evidence pack of an assessment period (HTML or JSON) from the snapshots in a directory', builder: evidenceOptions, run: runEvidence }),
], { missing: 'Name an action: report, diff, verify or evidence' });

async function runReport(args: ArgsOf<typeof reportOptions>, ctx: CommandContext): Promise<ExitCode> {
  const now = ctx.io.now?.() ?? Date.now();
  // Read and checked by the builder's coerce functions.
  const { appId, tld, pageSize, concurrency, out, previous } = args;
  // Relative times ("24h") are read against the same `now` the request uses, so they stay here.
  const window = resolveWindow({ from: args.from, to: args.to }, now);
  const policyFile = args.policy;
  if (previous !== undefined && args.format !== 'json') throw new UserError('--previous links a json snapshot into the chain; use it with --format json');
  const renderer = REPORT_OUTPUTS[args.format].stdout;
  const renderOptions = { colors: ctx.colors, csvFormulaEscape: args.csvFormulaEscape, terminal: ctx.io.stdoutIsTTY && (out === undefined || out === '-') };
  const progress = progressBar(ctx, ({ done, total }: { done: number; total: number }) => pagesText(done, total));
  // Ctrl-C, a closed terminal or a cancelled job: the progress line goes, no `.partial` file
  // stays, and the process ends by the same signal (exit 129/130/143 in a shell).
  const stopListening = ctx.io.interrupts?.stop((signal) => {
    progress?.stop();
    dropPartialFiles();
    writeInterrupted({ signal, ...definedFields({ out }) }, ctx.io.stderr);
  });
  let result: Awaited<ReturnType<typeof reportInventory>>;
  try {
    result = await reportInventory({
      query: { appId, tld, ...window },
      pageSize,
      concurrency,
      now,
      openOutput: () => openOutput(out, { cwd: ctx.io.cwd, stdout: ctx.io.stdout }),
      render: (model, output) => Promise.resolve(renderer(model, { write: output.emit }, renderOptions)),
      ...definedFields({ policyFile, previous, onProgress: progress?.update }),
      // Retry notices print above the progress line, not glued to it.
    }, progress ? { ...ctx, notice: progress.notice } : ctx);
  } finally {
    progress?.stop();
    stopListening?.();
  }
  const { warnings, count, unapproved, file, chainNote, unmatchedEntries = [] } = result;
  const chainHead = args.format === 'json' ? result.chainHead : undefined;
  // An empty inventory still exits 0: an empty result is a valid snapshot (docs/behaviour.md, "Script inventory").
  // It says so itself; then every policy entry matches nothing, which is no news.
  await writeReport(REPORT_OUTCOME, {
    warnings: count === 0 ? warnings : [...warnings, ...unmatchedEntries], count, appIds: appId, tlds: tld,
    ...definedFields({ unapproved, file, chainNote, chainHead }),
  }, ctx);
  if (chainHead !== undefined) await recordChainHead(ctx, chainHead, file);
  return EXIT.ok;
}

/**
 * The head digest, kept where the run's record outlives the artifacts: the job's step summary
 * and the `chain-head` step output (for a job that commits it; `scripts verify --anchor`).
 */
async function recordChainHead(ctx: CommandContext, chainHead: string, file: string | undefined): Promise<void> {
  await appendStepSummary(ctx, chainHeadSummary(chainHead, file));
  await writeStepOutputs(ctx, { 'chain-head': chainHead });
}

async function runDiff(args: ArgsOf<typeof diffOptions>, ctx: CommandContext): Promise<ExitCode> {
  const failOn = args.failOn ?? [];
  const policyFile = args.policy;
  const compared = await diffInventories({ oldFile: String(args.old), newFile: String(args.new), failOn, ...definedFields({ policyFile }) }, ctx);
  await writeReport(INVENTORY_DIFF_OUTPUTS[args.format], compared, ctx);
  await writeReport(POLICY_WARNINGS, compared, ctx);
  if (!compared.failOn || compared.failOn.length === 0) return EXIT.ok;
  await writeReport(FAIL_ON_MATCHES, compared, ctx);
  return EXIT.failOnMatched;
}
