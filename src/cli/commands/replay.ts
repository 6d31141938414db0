// `botrules replay LOG… [--live SNAPSHOT] [--format text|json|markdown] [--log-format F]`:
// request logs decided under the live rules and under the declared rules; exit 0 when no
// request changes outcome, 2 when some do, 1 on error (docs/replay.md).
import type { Argv } from 'yargs';
import { replayProject } from '../../engine/replay.js';
import { REPLAY_FORMATS, REPLAY_OUTPUTS } from '../../render/replay/index.js';
import { LOG_FORMATS } from '../../requests/traffic/formats.js';
import { isAllClear } from '../../requests/traffic/tally.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { replayProgressLine } from '../replay-progress.js';
import { defineCommand, type ArgsOf } from '../define-command.js';
import { NOW_OPTION } from '../options.js';
import { writeReport } from '../output.js';
import { foundOrOk, type ExitCode } from '../../exit-codes.js';

function options(yargs: Argv<GlobalArgs>) {
  return yargs
    .usage('$0 replay LOG… [--live FILE] [--format text|json|markdown]\n\n' +
      'Decide every request of the logs under the live rules and under the rules as apply would leave them, and report ' +
      'each change of outcome (no rule → challenge, allow → block, …) with its share of traffic, rules and examples. ' +
      'Logs: NDJSON, CSV with a header row, common/combined access logs, CloudFront and ALB logs, Cloudflare Logpush, ' +
      'the service\'s Data Export (human) and HAR; gzip and directories too. Exit 0 only when every request was decided and none changed. ' +
      'Cookies, Authorization and secret-looking parameters are masked as they are read.')
    .positional('logs', { type: 'string', array: true, describe: 'Log files or directories' })
    .option('now', NOW_OPTION)
    .option('live', { type: 'string', describe: 'Compare against this live snapshot (botrules live --out) instead of listing: no token, no request' })
    .option('format', { choices: REPLAY_FORMATS, default: 'text' as const, describe: 'How to print the report' })
    .option('baseline', { type: 'string', describe: 'Compare with an earlier report (replay --format json): name what newly changes outcome and what stopped' })
    .option('log-format', { choices: LOG_FORMATS, describe: 'The format of every log (default: told from each file\'s name or first line)' })
    .example('$0 replay logs/', 'replay every log below logs/ against the live rules')
    .example('$0 replay --live live.json --format markdown access.log.gz', 'a pull-request comment, with no token');
}

async function runCommand(args: ArgsOf<typeof options>, ctx: CommandContext): Promise<ExitCode> {
  const logs = (args.logs ?? []).map(String);
  const progress = replayProgressLine(ctx);
  const report = await replayProject({
    ...args,
    logs,
    ...(args.live === undefined ? {} : { liveFile: args.live }),
    ...(args.logFormat === undefined ? {} : { logFormat: args.logFormat }),
    ...(args.baseline === undefined ? {} : { baseline: args.baseline }),
    ...(progress.onProgress === undefined ? {} : { onProgress: progress.onProgress }),
  }, ctx).finally(() => progress.stop());
  await writeReport(REPLAY_OUTPUTS[args.format], report, ctx);
  return foundOrOk(!isAllClear(report));
}

export const { builder, run } = defineCommand({ builder: options, run: runCommand });
