// `botrules live [--out FILE]`: list every app's live rules once and write them as a live
// snapshot (docs/behaviour.md, "Live snapshots"). Trusted jobs on the default branch keep
// it as an artifact, so pull-request jobs can plan with `plan --live FILE` and no token.
import type { Argv } from 'yargs';
import { takeLiveSnapshot } from '../../engine/live.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { LIVE_OUTPUT } from '../../render/live/index.js';
import { writeReport } from '../output.js';
import { defineCommand, type ArgsOf } from '../define-command.js';
import { EXIT, type ExitCode } from '../../exit-codes.js';
import { definedFields } from '../../defined.js';

function options(yargs: Argv<GlobalArgs>) {
  return yargs
    .option('out', { type: 'string', describe: 'Write the snapshot to FILE (default: standard output)' })
    .example('$0 live --out live.json', 'snapshot the live rules of every app')
    .example('$0 plan --live live.json', 'plan against it, with no token and no request');
}

async function runCommand(args: ArgsOf<typeof options>, ctx: CommandContext): Promise<ExitCode> {
  const { out } = args;
  const { snapshot, rules } = await takeLiveSnapshot({ ...args, ...definedFields({ outFile: out }) }, ctx);
  await writeReport(LIVE_OUTPUT, { snapshot, rules, ...definedFields({ out }) }, ctx);
  return EXIT.ok;
}

export const { builder, run } = defineCommand({ builder: options, run: runCommand });
