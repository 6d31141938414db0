// `botrules apply`: wires the options, the prompt, progress and interrupts to the engine's
// applyProject (which plans, refuses, runs, verifies and writes the undo plan), renders the
// report it returns, and chooses the exit code: 0 applied and verified, 1 anything else,
// 129/130/143 interrupted by SIGHUP/SIGINT/SIGTERM (docs/behaviour.md, "Interrupted applies").
import type { Argv } from 'yargs';
import { UserError } from '../../errors.js';
import type { ReviewedPlan } from '../../render/plan/review.js';
import { confirm } from '../../apply/confirm.js';
import { applyProject, type ApplyReport } from '../../engine/apply.js';
import { ENGINE_OPTION, TRANSITION_BUDGET_OPTION } from '../plan-options.js';
import { APPROVAL_REMINDER, renderApplyPreview } from '../../render/apply/preview.js';
import { APPLY_OUTPUTS } from '../../render/apply/index.js';
import { applyProgressWriter, type ApplyProgressWriter } from '../apply-progress.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { EXIT, INTERRUPT_EXIT_CODES, type ExitCode, type InterruptSignal } from '../../exit-codes.js';
import { NOW_OPTION, UsageError, wholeNumber } from '../options.js';
import { definedFields } from '../../defined.js';
import { noun } from '../../plural.js';
import { writeReport } from '../output.js';
import { reportError } from '../report-error.js';
import { transitionProgress } from '../progress-line.js';
import { diffBudgetOption, diffRun } from '../behaviour-diff-run.js';
import { defineCommand, type ArgsOf } from '../define-command.js';
import { DEFAULT_POLICY_BUDGET_SECONDS } from '../../engine/policies.js';
import { refusingFindings } from '../../engine/apply-policies.js';
import { isReported, policyAnnotation, POLICIES_BEFORE_APPLY, POLICY_NOTES_AFTER_PLAN, type PolicyFinding } from '../../render/policies/index.js';

function options(yargs: Argv<GlobalArgs>) {
  return diffBudgetOption(yargs)
    .option('now', NOW_OPTION)
    .option('plan', { type: 'string', describe: 'Apply this saved plan (from plan --out) instead of planning afresh' })
    .option('auto-approve', { type: 'boolean', default: false, describe: 'Apply without asking (required without a TTY)' })
    .option('max-changes', { type: 'number', requiresArg: true, coerce: wholeNumber('--max-changes', 0), describe: 'Refuse a plan with more PATCH requests than this per app (overrides the config)' })
    .option('force', { type: 'boolean', default: false, describe: 'Apply even when the plan exceeds the change limit, or breaks an error-level policy the live rules hold' })
    .option('policy-budget', { type: 'number', default: DEFAULT_POLICY_BUDGET_SECONDS, describe: 'Seconds the policy checks may take in all; what is left is unchecked, and an unchecked error-level policy stops the apply' })
    .option('concurrency', { type: 'number', default: 4, requiresArg: true, coerce: wholeNumber('--concurrency', 1), describe: 'Field-only updates in flight at once (moves always run one at a time)' })
    .option('undo-out', { type: 'string', describe: 'Write a plan that restores what this apply changes (run it with apply --plan)' })
    .option('replay', { type: 'string', array: true, requiresArg: true, describe: 'Request logs to replay against what apply will send: above maxNewlyBlocked of them newly blocked, apply refuses without --force' })
    .option('engine', ENGINE_OPTION)
    .option('safe-order', { type: 'boolean', default: false, describe: 'Use an order free of windows that costs one more PATCH, when only such an order is (see plan --safe-order)' })
    .option('behaviour-diff', { type: 'boolean', default: true, describe: 'Show every class of requests the plan decides differently, as plan does (--no-behaviour-diff: leave it out)' })
    .option('transition-budget', TRANSITION_BUDGET_OPTION)
    .example('$0 apply', 'plan, show, ask, apply')
    .example('$0 apply --plan plan.json --auto-approve --undo-out undo.json', 'apply a reviewed plan in CI');
}

type ApplyArgs = ArgsOf<typeof options>;

async function runCommand(args: ApplyArgs, ctx: CommandContext): Promise<ExitCode> {
  if (args.safeOrder && args.plan !== undefined) {
    throw new UsageError('--safe-order chooses the order when planning; a saved plan keeps the order it was saved with (make it with: botrules plan --safe-order --out FILE)');
  }
  let target = 'the rule files';
  const progress = applyProgressWriter(ctx, () => target);
  const interrupt = watchInterrupts(ctx, progress);
  const checking = transitionProgress(ctx);
  const diff = args.behaviourDiff === false ? undefined : diffRun(args, ctx);
  try {
    const report = await applyProject(
      { config: args.config, dir: args.dir, app: args.app, allowEmpty: args.allowEmpty, maxChanges: args.maxChanges, force: args.force,
        concurrency: args.concurrency, undoOut: args.undoOut, planFile: args.plan, safeOrder: args.safeOrder, policyBudget: args.policyBudget,
        ...definedFields({ now: args.now, transitionBudget: args.transitionBudget, onTransitionProgress: checking?.update, behaviourDiff: diff?.run }),
        ...(args.replay === undefined ? {} : { replayLogs: args.replay.map(String), replayEngine: args.engine }) },
      // Retry notices print above the progress line, not glued to it.
      { ...ctx, notice: (line) => progress.notice(line) },
      {
        show: (plan, review, shownTarget) => {
          checking?.stop();
          diff?.stop();
          target = shownTarget;
          showPolicies(review.policies ?? [], args.force, ctx);
          renderApplyPreview({ plan, review }, ctx.io.stdout, { colors: ctx.colors });
          // What the built-in policies could not check, after the plan as plan writes it.
          void writeReport(POLICY_NOTES_AFTER_PLAN.text, review.policies ?? [], ctx);
          progress.start(plan.summary.patches, plan.apps.length, (plan.summary.creates ?? 0) + (plan.summary.deletes ?? 0) > 0);
        },
        approve: (plan, review) => approved(args, { plan, review }, ctx, interrupt.controller.signal),
        onProgress: (event) => progress.event(event),
        signal: interrupt.controller.signal,
        outputLost: () => stdoutLost(ctx),
      },
    );
    progress.done();
    return await renderReport(report, ctx, args, interrupt.received);
  } finally {
    checking?.stop();
    diff?.stop();
    progress.done();
    interrupt.stop();
  }
}

/**
 * The policies' verdicts over what apply leaves, before the plan, as plan writes them (a
 * violation the live rules already have is said to be the past), and as annotations.
 */
function showPolicies(policies: readonly PolicyFinding[], force: boolean, ctx: CommandContext): void {
  // Written at once (one write), before the plan that follows it synchronously.
  void writeReport(POLICIES_BEFORE_APPLY, { findings: policies, forced: force ? refusingFindings(policies).length : 0 }, ctx);
  ctx.annotations.write(policies.filter(isReported).map(policyAnnotation));
}

/** Interrupts abort the apply's signal while the command runs (CliIo.interrupts). */
function watchInterrupts(ctx: CommandContext, progress: ApplyProgressWriter): { controller: AbortController; received?: InterruptSignal; stop: () => void } {
  const watch: { controller: AbortController; received?: InterruptSignal; stop: () => void } = { controller: new AbortController(), stop: () => {} };
  watch.stop = ctx.io.interrupts?.finish((signal) => {
    watch.received = signal;
    progress.interrupted(`Interrupted (${signal}): no new change is sent; waiting for the requests in flight (interrupt again to stop at once, without the report and the undo plan).`);
    watch.controller.abort();
  }) ?? (() => {});
  return watch;
}

/** The report in text (src/render/apply/), then the exit code and the errors the handler prints. */
async function renderReport(report: ApplyReport, ctx: CommandContext, args: GlobalArgs, signal: InterruptSignal | undefined): Promise<ExitCode> {
  await writeReport(APPLY_OUTPUTS.text, { report, ...definedFields({ signal }), ...(stdoutLost(ctx) ? { stdoutLost: true } : {}) }, ctx);
  const exitCode = signal === undefined ? EXIT.ok : INTERRUPT_EXIT_CODES[signal];
  if (report.outcome === 'no-changes') return exitCode;
  if (report.outcome === 'cancelled') return report.interrupted ? exitCode : EXIT.failed;
  if (report.interrupted) {
    if (report.undoError !== undefined) throw report.undoError;
    return exitCode;
  }
  if (report.undoError !== undefined) {
    if (report.failure !== undefined) reportError(report.failure, ctx.io, { verbose: ctx.verbose, color: args.color });
    throw report.undoError;
  }
  if (report.failure !== undefined) throw report.failure;
  return EXIT.ok;
}

/** stdout failed (not a closed pipe): main reports it and the exit code says so (CliIo.writeFailures). */
function stdoutLost(ctx: CommandContext): boolean {
  return ctx.io.writeFailures?.().some((failure) => failure.stream === 'stdout') === true;
}

async function approved(args: ApplyArgs, reviewed: ReviewedPlan, ctx: CommandContext, signal: AbortSignal): Promise<boolean> {
  const { plan } = reviewed;
  if (args.autoApprove) return true;
  if (!ctx.io.stdinIsTTY) {
    throw new UserError('refusing to apply without --auto-approve when standard input is not a terminal', [
      'Review the plan above, then run again with --auto-approve (in CI: apply a reviewed plan with --plan FILE --auto-approve).',
    ]);
  }
  const apps = plan.apps.filter((a) => a.steps.length > 0).map((a) => a.app);
  const question =
    `Apply ${noun(plan.summary.patches, 'this change', `these ${plan.summary.patches} changes`)} ` +
    `to ${noun(apps.length, 'app')} ${apps.join(', ')}? ` +
    "Only 'yes' will be accepted:";
  // The question goes to stderr so stdout holds only the plan and the report. An interrupt
  // while asking is a "no". The loosenings again, next to the question, not a screen above it.
  await writeReport(APPROVAL_REMINDER, reviewed, ctx);
  return confirm(question, ctx.io.stdin, ctx.io.stderr, signal);
}

export const { builder, run } = defineCommand({ builder: options, run: runCommand });
