// `botrules replay LOG… [--live SNAPSHOT] [--format text|json|markdown] [--log-format F] [--engine js|duckdb]`:
// request logs decided under the live rules and under the declared rules; exit 0 when no
// request changes outcome, 2 when some do, 1 on error (docs/replay.md). `--emit-sql` prints
// the same comparison as one SQL query instead of reading logs; `replay merge REPORT…` combines
// the JSON reports of shards.
import type { Argv } from 'yargs';
import { UsageError } from '../options.js';
import { REPLAY_ENGINES, replayProject } from '../../engine/replay.js';
import { emitReplaySql } from '../../engine/replay-sql.js';
import { REPLAY_FORMATS, REPLAY_OUTPUTS, replaySqlOutput } from '../../render/replay/index.js';
import { DIALECTS } from '../../replay/sql/dialects.js';
import { LOG_FORMATS } from '../../replay/formats.js';
import { isAllClear } from '../../replay/tally.js';
import { mergeReplayReports } from '../../engine/replay-merge.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { replayProgressLine } from '../progress-line.js';
import { defineCommand, type ArgsOf } from '../define-command.js';
import { NOW_OPTION } from '../options.js';
import { writeReport } from '../output.js';
import { EXIT, foundOrOk, type ExitCode } from '../../exit-codes.js';
import { definedFields } from '../../defined.js';

function options(yargs: Argv<GlobalArgs>) {
  return yargs
    .usage('$0 replay LOG… [--live FILE] [--format text|json|markdown] [--engine js|duckdb]\n' +
      '$0 replay --emit-sql [--dialect duckdb|trino|bigquery|clickhouse] [--table NAME]\n' +
      '$0 replay merge REPORT.json…\n\n' +
      'Decide every request of the logs under the live rules and under the rules as apply would leave them, and report ' +
      'each change of outcome (no rule → challenge, allow → block, …) with its share of traffic, rules and examples. ' +
      'Logs: NDJSON, CSV with a header row, common/combined access logs, CloudFront and ALB logs, Cloudflare Logpush, ' +
      'the service\'s Data Export (human) and HAR; gzip and directories too. Exit 0 only when every request was decided and none changed. ' +
      'Cookies, Authorization and secret-looking parameters are masked as they are read.')
    .command('merge <reports..>', 'Combine the JSON reports of replays over disjoint logs (shards, in log order) into the report of their union', (y) => y
      .positional('reports', { type: 'string', array: true, describe: 'replay --format json reports' }))
    .positional('logs', { type: 'string', array: true, describe: 'Log files or directories' })
    .option('now', NOW_OPTION)
    .option('live', { type: 'string', describe: 'Compare against this live snapshot (botrules live --out) instead of listing: no token, no request' })
    .option('format', { choices: REPLAY_FORMATS, default: 'text' as const, describe: 'How to print the report' })
    .option('baseline', { type: 'string', describe: 'Compare with an earlier report (replay --format json): name what newly changes outcome and what stopped' })
    .option('log-format', { choices: LOG_FORMATS, describe: 'The format of every log (default: told from each file\'s name, its first bytes (Parquet) or its first line)' })
    .option('engine', { choices: REPLAY_ENGINES, default: 'js' as const, describe: 'Where the requests are decided: js, or duckdb (an embedded DuckDB; docs/replay.md, "Engines")' })
    .option('emit-sql', { type: 'boolean', default: false, describe: 'Print one SQL query that tallies a table of requests by live and declared rule and outcome, instead of reading logs' })
    .option('dialect', { choices: DIALECTS, default: 'duckdb' as const, describe: 'The SQL dialect of --emit-sql' })
    .option('table', { type: 'string', default: 'requests', describe: 'The table --emit-sql reads (dotted parts quoted one by one)' })
    .example('$0 replay logs/', 'replay every log below logs/ against the live rules')
    .example('$0 replay --live live.json --format markdown access.log.gz', 'a pull-request comment, with no token')
    .example('$0 replay --live live.json --emit-sql --dialect bigquery --table logs.requests', 'the same comparison as a BigQuery query')
    .example('$0 replay merge shard-*.json --format markdown', 'one report of a replay run as a CI matrix');
}

async function runCommand(args: ArgsOf<typeof options>, ctx: CommandContext): Promise<ExitCode> {
  const words: readonly unknown[] = args._;
  if (String(words[1] ?? '') === 'merge') return merge((args as unknown as { reports?: unknown[] }).reports ?? [], args, ctx);
  const logs = (args.logs ?? []).map(String);
  const selection = { ...args, ...definedFields({ liveFile: args.live }) };
  if (args.emitSql) {
    if (logs.length > 0) throw new UsageError('--emit-sql prints a query and reads no log: leave the logs out');
    await writeReport(replaySqlOutput, await emitReplaySql({ ...selection, dialect: args.dialect, table: args.table }, ctx), ctx);
    return EXIT.ok;
  }
  if (logs.length === 0) throw new UsageError('name the logs to replay: botrules replay LOG… (or --emit-sql for a query)');
  const progress = replayProgressLine(ctx);
  const report = await replayProject({
    ...selection,
    logs,
    engine: args.engine,
    ...definedFields({ logFormat: args.logFormat, baseline: args.baseline, onProgress: progress.onProgress }),
  }, ctx).finally(() => progress.stop());
  await writeReport(REPLAY_OUTPUTS[args.format], report, ctx);
  return foundOrOk(!isAllClear(report));
}

/** Exit codes as for one replay of all the logs. */
async function merge(reports: readonly unknown[], args: { format: keyof typeof REPLAY_OUTPUTS; baseline?: string | undefined }, ctx: CommandContext): Promise<ExitCode> {
  const merged = await mergeReplayReports({ reports: reports.map(String), ...definedFields({ baseline: args.baseline }) }, ctx);
  await writeReport(REPLAY_OUTPUTS[args.format], merged, ctx);
  return foundOrOk(!isAllClear(merged));
}

export const { builder, run } = defineCommand({ builder: options, run: runCommand });
