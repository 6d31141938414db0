// `botrules scripts verify DIR` and `botrules scripts evidence DIR` (docs/behaviour.md,
// "Script inventory"). Exit codes as §9 of the contract: 0 ok,
// 1 error, 2 findings (a broken chain; a failing verdict).
import type { Argv } from 'yargs';
import { UserError } from '../../errors.js';
import { evidencePack, verifySeries } from '../../engine/scripts-evidence.js';
import { EVIDENCE_FORMATS, EVIDENCE_OUTPUTS, VERIFY_FORMATS, VERIFY_OUTPUTS, verifyIsIntact } from '../../render/scripts/evidence.js';
import { EVIDENCE_VERDICT } from '../../render/scripts/outcome.js';
import { parseInterval } from '../../scripts/coverage.js';
import { DAY_MS } from '../../scripts/time.js';
import { resolve } from 'node:path';
import { checkWritable } from '../../io/atomic-write.js';
import { parseTimeArg, TIME_FORMATS_HINT } from '../../scripts/time.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import type { ArgsOf } from '../define-command.js';
import { commaList } from '../options.js';
import { writeReport } from '../output.js';
import { foundOrOk, type ExitCode } from '../../exit-codes.js';
import { definedFields } from '../../defined.js';

const ANCHOR_HELP = 'A head digest recorded outside DIR (sha256:…), or a file of them, newest last (the chain-head lines scripts report printed): it must be one of the snapshots';

export function verifyOptions(yargs: Argv<GlobalArgs>) {
  return yargs
    .positional('directory', { type: 'string', describe: 'Directory of json snapshots (searched to four levels, e.g. downloaded CI artifacts)' })
    .option('format', { choices: VERIFY_FORMATS, default: 'text' as const, describe: 'Output format' })
    .option('anchor', { type: 'string', requiresArg: true, describe: ANCHOR_HELP })
    .epilogue(
      'Without --anchor the chain shows only that the snapshots present agree with each other: removing the newest, ' +
        'or editing snapshots and sealing them again, shows only against a head digest recorded elsewhere.\n' +
        'Exit 0: every chain intact; 2: a snapshot was altered, removed, inserted or stripped of its chain, a scope has no chain, ' +
        'the anchor is not among the snapshots, or a file cannot be read; 1: an error.',
    );
}

export function evidenceOptions(yargs: Argv<GlobalArgs>) {
  return yargs
    .positional('directory', { type: 'string', describe: 'Directory of json snapshots (e.g. the CI artifacts of the period, downloaded)' })
    .option('from', { type: 'string', demandOption: 'See botrules scripts evidence --help.', describe: 'Start of the assessment period' })
    .option('to', { type: 'string', describe: 'End of the period (default: now); a date alone includes that whole day' })
    .option('interval', { type: 'string', default: '7d', describe: 'Each interval of this length, counted from --from, must hold a snapshot (PCI DSS 11.6.1: weekly)' })
    .option('policy', { type: 'string', describe: 'Approval policy (default: scripts-policy.yaml if present); its git history says who approved what' })
    .option('app-id', { type: 'string', array: true, coerce: commaList('--app-id', 'app-demo'), describe: 'With --tld: the scope, when DIR holds several' })
    .option('tld', { type: 'string', array: true, coerce: commaList('--tld', 'shop.example.com'), describe: 'With --app-id: the scope, when DIR holds several' })
    .option('format', { choices: EVIDENCE_FORMATS, default: 'html' as const, describe: 'html (self-contained, prints to PDF) or json' })
    .option('anchor', { type: 'string', requiresArg: true, describe: ANCHOR_HELP })
    .option('out', { type: 'string', describe: 'Write to this file (written whole or not at all) instead of stdout' })
    .epilogue(`Times: ${TIME_FORMATS_HINT}.\nExit 0: the verdict passes; 2: it fails (a gap, a broken chain, an unapproved script); 1: an error.`);
}

export async function runVerify(args: ArgsOf<typeof verifyOptions>, ctx: CommandContext): Promise<ExitCode> {
  const model = await verifySeries(String(args.directory), ctx, args.anchor);
  if (model.scopes.length === 0 && model.unreadable.length === 0) {
    throw new UserError(`${String(args.directory)} holds no botrules snapshot`, ['Snapshots are written by `botrules scripts report --format json`.']);
  }
  await writeReport(VERIFY_OUTPUTS[args.format], model, ctx);
  return foundOrOk(!verifyIsIntact(model));
}

export async function runEvidence(args: ArgsOf<typeof evidenceOptions>, ctx: CommandContext): Promise<ExitCode> {
  const now = ctx.io.now?.() ?? Date.now();
  const from = parseTimeArg(args.from, now, '--from');
  const to = args.to === undefined ? now : endOf(args.to, now);
  if (from >= to) throw new UserError(`--from (${new Date(from).toISOString()}) is not before --to (${new Date(to).toISOString()})`);
  const interval = { text: args.interval, ms: parseInterval(args.interval) };
  const { appId, tld, out } = args;
  if ((appId === undefined) !== (tld === undefined)) throw new UserError('--app-id and --tld choose a scope together: give both or neither');
  // Checked before the work, so an unwritable --out costs nothing (docs/behaviour.md, "Output files").
  if (out !== undefined && out !== '-') await checkWritable(resolve(ctx.io.cwd, out), '--out', out);
  const pack = await evidencePack({
    dir: String(args.directory),
    from,
    to,
    interval,
    now,
    ...definedFields({ policyFile: args.policy }),
    ...(appId && tld ? { appId, tld } : {}),
    ...definedFields({ anchor: args.anchor }),
  }, ctx);
  // stdout too through the file writer's stream (`-`): a reader that goes away ends the report quietly.
  await writeReport(EVIDENCE_OUTPUTS[args.format], pack, ctx, out ?? '-');
  await writeReport(EVIDENCE_VERDICT, { pack, ...definedFields({ out }) }, ctx);
  return foundOrOk(!pack.verdict.pass);
}

/** `--to 2026-03-31` means to the end of that day; any other form is the instant it names. */
function endOf(value: string, now: number): number {
  const at = parseTimeArg(value, now, '--to');
  return /^\d{4}-\d{2}-\d{2}$/.test(value.trim()) ? at + DAY_MS : at;
}
