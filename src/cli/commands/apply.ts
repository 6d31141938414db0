// `botrules apply`: plan afresh (or re-plan a saved plan and refuse it unless it matches), refuse what
// cannot or should not run (blocked rules, too many changes), show the plan, ask (or
// require --auto-approve without a TTY), run every app concurrently, verify and correct,
// write the undo plan, and report each step.
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { RemoteError, UserError } from '../../errors.js';
import { checkWritable } from '../../files/write.js';
import { Plan } from '../../plan/plan.js';
import { applyAppPlan, type AppApplyResult } from '../../apply/apply-app.js';
import { confirm } from '../../apply/confirm.js';
import { workFromRuleFiles, type ApplyWork } from '../../apply/prepare.js';
import { workFromSavedPlan } from '../../apply/saved-plan.js';
import { rulesClientFor } from '../../api/index.js';
import { appReportLines, outcomeLine, plural, totals } from '../../apply/report.js';
import { unchangedUndo, undoForApp, writeUndoPlan } from '../../apply/undo.js';
import type { AppPlan } from '../../plan/types.js';
import { renderText } from '../../render/plan/text.js';
import { NO_COLORS } from '../../render/contract.js';
import type { CommandContext, GlobalArgs } from '../context.js';

/** Correction passes after the first (docs/behaviour.md, "Plan semantics"). */
const MAX_CORRECTIONS = 2;

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
    .option('max-changes', { type: 'number', describe: 'Refuse a plan with more PATCH requests than this per app (overrides the config)' })
    .option('force', { type: 'boolean', default: false, describe: 'Apply even when the plan exceeds the change limit' })
    .option('concurrency', { type: 'number', default: 4, describe: 'Field-only updates in flight at once (moves always run one at a time)' })
    .option('undo-out', { type: 'string', describe: 'Write a plan that restores what this apply changes (run it with apply --plan)' })
    .example('$0 apply', 'plan, show, ask, apply')
    .example('$0 apply --plan plan.json --auto-approve --undo-out undo.json', 'apply a reviewed plan in CI') as unknown as Argv<GlobalArgs>;
}

export async function run(args: GlobalArgs & Record<string, unknown>, ctx: CommandContext): Promise<number> {
  const options = readOptions(args);
  // Before any request: an apply must never send changes and then fail to write its undo plan.
  if (options.undoOut !== undefined) await checkWritable(resolve(ctx.io.cwd, options.undoOut), '--undo-out', options.undoOut);
  const work =
    options.plan === undefined
      ? await workFromRuleFiles(args, ctx)
      : await workFromSavedPlan({ file: options.plan, cwd: ctx.io.cwd, config: args.config, dir: args.dir, app: args.app, clientFor: (app) => rulesClientFor(app, ctx) });
  const plan = new Plan(work.map((w) => w.plan));
  const out = ctx.io.stdout;
  renderText(plan, out, { colors: ctx.colors });
  plan.raiseIfBlocked();
  plan.raiseIfUnsafe({ maxChanges: changeLimits(options, work), force: options.force });
  if (plan.summary.patches === 0) {
    out.write('No changes to apply.\n');
    // Nothing to restore: the undo plan is empty, pinned to the live rules as they are.
    if (options.undoOut !== undefined) await writeUndoPlan(resolve(ctx.io.cwd, options.undoOut), work.map((w) => unchangedUndo(w.plan.app, w.live)), options.undoOut);
    return 0;
  }
  if (!(await approved(options, plan, ctx))) {
    ctx.io.stderr.write('Apply cancelled.\n');
    return 1;
  }

  const target = options.plan === undefined ? 'the rule files' : 'the plan';
  const results = await Promise.all(
    work.map((w) =>
      applyAppPlan(w.plan.app, w.plan.steps, w.live, w.api, {
        concurrency: options.concurrency,
        maxCorrections: MAX_CORRECTIONS,
        // Uncoloured: debug lines are made safe whole, which would show colour codes as escapes.
        onOutcome: (o) => ctx.debug(`[${w.plan.app}] ${outcomeLine(o, NO_COLORS)}`),
      }),
    ),
  );
  out.write('\n');
  for (const result of results) {
    if (results.length > 1) out.write(`App ${result.app}:\n`);
    for (const line of appReportLines(result, target, ctx.colors)) out.write(`${line}\n`);
  }
  if (options.undoOut !== undefined) await writeUndo(options.undoOut, work, results, ctx);
  return verdict(results, target, ctx);
}

function readOptions(args: Record<string, unknown>): ApplyOptions {
  const concurrency = args.concurrency as number;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new UserError(`--concurrency must be a whole number of at least 1, not ${String(args.concurrency)}`);
  }
  const maxChanges = args.maxChanges as number | undefined;
  if (maxChanges !== undefined && (!Number.isInteger(maxChanges) || maxChanges < 0)) {
    throw new UserError(`--max-changes must be a whole number of at least 0, not ${String(args.maxChanges)}`);
  }
  return {
    plan: args.plan as string | undefined,
    autoApprove: args.autoApprove === true,
    maxChanges,
    force: args.force === true,
    concurrency,
    undoOut: args.undoOut as string | undefined,
  };
}

/** --max-changes for every app, else each app's maxChanges from the config. */
function changeLimits(options: ApplyOptions, work: readonly ApplyWork[]): number | Record<string, number | undefined> {
  if (options.maxChanges !== undefined) return options.maxChanges;
  return Object.fromEntries(work.map((w) => [w.app.name, w.app.maxChanges]));
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

async function writeUndo(file: string, work: readonly ApplyWork[], results: readonly AppApplyResult[], ctx: CommandContext): Promise<void> {
  const undoApps: AppPlan[] = [];
  work.forEach((w, index) => {
    const undo = undoForApp({ plan: w.plan, before: w.live, result: results[index] as AppApplyResult });
    if (undo === undefined) ctx.io.stderr.write(`warning: no undo plan for app ${w.plan.app}: its live rules could not be listed after the apply\n`);
    else undoApps.push(undo);
  });
  const undo = await writeUndoPlan(resolve(ctx.io.cwd, file), undoApps, file);
  ctx.io.stdout.write(`Undo plan written to ${file} (${plural(undo.summary.patches, 'PATCH request')}); run: botrules apply --plan ${file}\n`);
}

/** The summary line, or the error that explains why the apply did not fully succeed. */
function verdict(results: readonly AppApplyResult[], target: string, ctx: CommandContext): number {
  const sum = totals(results);
  const failedApps = results.filter((r) => r.passes.some((p) => p.some((o) => o.state === 'failed')));
  if (failedApps.length > 0) {
    throw new RemoteError(
      `apply failed: ${plural(sum.failed, 'PATCH request')} failed, ${sum.sent - sum.failed} applied, ${sum.notAttempted} not attempted ` +
        `(app${failedApps.length === 1 ? '' : 's'} ${failedApps.map((r) => r.app).join(', ')}); ` +
        'once the cause is fixed, run botrules apply again: it plans from the live rules and sends only what remains',
      { operation: 'applying the plan' },
    );
  }
  const unlisted = results.filter((r) => r.listError !== undefined);
  if (unlisted.length > 0) {
    const reasons = unlisted.map((r) => `app ${r.app}: ${r.listError?.message ?? ''}`).join('; ');
    throw new RemoteError(`applied ${plural(sum.sent, 'PATCH request')} but could not list the rules again to verify them: ${reasons}`, {
      operation: 'verifying the apply',
    });
  }
  const differing = results.filter((r) => !r.verified);
  if (differing.length > 0) {
    const details = differing.flatMap((r) => r.differences.map((d) => `app ${r.app}: ${d}`));
    throw new UserError(
      `the live rules still differ from ${target} after ${MAX_CORRECTIONS} correction passes ` +
        "(the service's priority semantics may not be list-move):",
      [...details, 'Nothing more was sent. Check the rules in the console, then run botrules plan.'],
    );
  }
  ctx.io.stdout.write(`Apply complete: ${plural(sum.sent, 'PATCH request')}, ${sum.failed} failed.\n`);
  return 0;
}
