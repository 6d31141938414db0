// `botrules apply`: plan afresh (or re-plan a saved plan and refuse it unless it matches), refuse what
// cannot or should not run (blocked rules, too many changes), show the plan, ask (or
// require --auto-approve without a TTY), run every app concurrently, verify and correct,
// write the undo plan, and report each step.
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { UserError } from '../../errors.js';
import { checkWritable } from '../../files/write.js';
import type { Plan } from '../../plan/plan.js';
import { confirm } from '../../apply/confirm.js';
import { appReportLines, outcomeLine, plural } from '../../apply/report.js';
import { applyVerdict, changeLimits, prepareApply, runApply, saveUndo, type AppApplyResult, type ApplyWork } from '../../engine/apply.js';
import { renderText } from '../../render/plan/text.js';
import { NO_COLORS } from '../../render/contract.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { wholeNumber } from '../options.js';
import { safeText } from '../../render/sanitise.js';

interface ApplyOptions {
  plan?: string;
  autoApprove: boolean;
  maxChanges?: number;
  force: boolean;
  concurrency: number;
  undoOut?: string;
}

export function builder(yargs: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return yargs
    .option('plan', { type: 'string', describe: 'Apply this saved plan (from plan --out) instead of planning afresh' })
    .option('auto-approve', { type: 'boolean', default: false, describe: 'Apply without asking (required without a TTY)' })
    .option('max-changes', { type: 'number', requiresArg: true, coerce: wholeNumber('--max-changes', 0), describe: 'Refuse a plan with more PATCH requests than this per app (overrides the config)' })
    .option('force', { type: 'boolean', default: false, describe: 'Apply even when the plan exceeds the change limit' })
    .option('concurrency', { type: 'number', default: 4, requiresArg: true, coerce: wholeNumber('--concurrency', 1), describe: 'Field-only updates in flight at once (moves always run one at a time)' })
    .option('undo-out', { type: 'string', describe: 'Write a plan that restores what this apply changes (run it with apply --plan)' })
    .example('$0 apply', 'plan, show, ask, apply')
    .example('$0 apply --plan plan.json --auto-approve --undo-out undo.json', 'apply a reviewed plan in CI') as unknown as Argv<GlobalArgs>;
}

export async function run(args: GlobalArgs & Record<string, unknown>, ctx: CommandContext): Promise<number> {
  const options = readOptions(args);
  // Before any request: an apply must never send changes and then fail to write its undo plan.
  if (options.undoOut !== undefined) await checkWritable(resolve(ctx.io.cwd, options.undoOut), '--undo-out', options.undoOut);
  const { work, plan, target } = await prepareApply({ ...args, ...(options.plan === undefined ? {} : { planFile: options.plan }) }, ctx);
  const out = ctx.io.stdout;
  renderText(plan, out, { colors: ctx.colors });
  plan.raiseIfBlocked();
  plan.raiseIfUnsafe({ maxChanges: changeLimits(options.maxChanges, work), force: options.force });
  if (plan.summary.patches === 0) {
    out.write('No changes to apply.\n');
    // Nothing to restore: the undo plan is empty, pinned to the live rules as they are.
    if (options.undoOut !== undefined) await saveUndo(options.undoOut, ctx.io.cwd, work);
    return 0;
  }
  if (!(await approved(options, plan, ctx))) {
    ctx.io.stderr.write('Apply cancelled.\n');
    return 1;
  }

  const results = await runApply(work, {
    concurrency: options.concurrency,
    // Uncoloured: debug lines are made safe whole, which would show colour codes as escapes.
    onOutcome: (app, outcome) => ctx.debug(`[${app}] ${outcomeLine(outcome, NO_COLORS)}`),
  });
  out.write('\n');
  for (const result of results) {
    if (results.length > 1) out.write(`App ${safeText(result.app)}:\n`);
    for (const line of appReportLines(result, target, ctx.colors)) out.write(`${line}\n`);
  }
  if (options.undoOut !== undefined) await reportUndo(options.undoOut, work, results, ctx);
  const sum = applyVerdict(results, target);
  out.write(`Apply complete: ${plural(sum.sent, 'PATCH request')}, ${sum.failed} failed.\n`);
  return 0;
}

/** The options as the builder's coerce functions left them: already checked. */
function readOptions(args: Record<string, unknown>): ApplyOptions {
  return {
    plan: args.plan as string | undefined,
    autoApprove: args.autoApprove === true,
    maxChanges: args.maxChanges as number | undefined,
    force: args.force === true,
    concurrency: args.concurrency as number,
    undoOut: args.undoOut as string | undefined,
  };
}

async function approved(options: ApplyOptions, plan: Plan, ctx: CommandContext): Promise<boolean> {
  if (options.autoApprove) return true;
  if (!ctx.io.stdinIsTTY) {
    throw new UserError('refusing to apply without --auto-approve when standard input is not a terminal', [
      'Review the plan above, then run again with --auto-approve (in CI: apply a reviewed plan with --plan FILE --auto-approve).',
    ]);
  }
  const apps = plan.apps.filter((a) => a.steps.length > 0).map((a) => a.app);
  const question =
    `Apply ${plan.summary.patches === 1 ? 'this change' : `these ${plan.summary.patches} changes`} ` +
    `to app${apps.length === 1 ? '' : 's'} ${apps.join(', ')}? ` +
    "Only 'yes' will be accepted:";
  // The question goes to stderr so stdout holds only the plan and the report.
  return confirm(question, ctx.io.stdin, ctx.io.stderr);
}

async function reportUndo(file: string, work: readonly ApplyWork[], results: readonly AppApplyResult[], ctx: CommandContext): Promise<void> {
  const { undo, unlisted } = await saveUndo(file, ctx.io.cwd, work, results);
  for (const app of unlisted) ctx.io.stderr.write(`warning: no undo plan for app ${safeText(app)}: its live rules could not be listed after the apply\n`);
  ctx.io.stdout.write(`Undo plan written to ${safeText(file)} (${plural(undo.summary.patches, 'PATCH request')}); run: botrules apply --plan ${safeText(file)}\n`);
}
