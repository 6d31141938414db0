// `botrules plan [--out FILE] [--format text|json|markdown] [--detailed-exitcode]`:
// validate, one LIST per app, print the plan. Exit codes (docs/behaviour.md, "Exit codes"): 1 for an error,
// blocked rules included (after printing the plan, so the user sees what to do); with
// --detailed-exitcode 2 when there are changes, else 0.
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { UserError } from '../../errors.js';
import { checkWritable } from '../../io/atomic-write.js';
import { BLOCKED_ADVICE, blockedSentence } from '../../render/plan/refusals.js';
import { planProject, savePlan } from '../../engine/plan.js';
import { ENGINE_OPTION, TRANSITION_BUDGET_OPTION } from '../plan-options.js';
import { PLAN_FORMATS, PLAN_OUTPUTS } from '../../render/plan/index.js';
import { PLAN_WARNINGS, SAVED_PLAN } from '../../render/plan/notes.js';
import { replayBeforePlan } from '../../render/replay/index.js';
import { diffBudgetOption, diffRun } from '../behaviour-diff-run.js';
import { NOW_OPTION } from '../options.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { replayProgressLine, transitionProgress } from '../progress-line.js';
import { defineCommand, type ArgsOf } from '../define-command.js';
import { writeReport } from '../output.js';
import { DEFAULT_POLICY_BUDGET_SECONDS } from '../../engine/policies.js';
import { failsCommand, isReported, policyAnnotation, POLICIES_BEFORE_PLAN, POLICY_NOTES_AFTER_PLAN } from '../../render/policies/index.js';
import { plural, noun } from '../../plural.js';
import { EXIT, foundOrOk, type ExitCode } from '../../exit-codes.js';
import { definedFields } from '../../defined.js';

function options(yargs: Argv<GlobalArgs>) {
  return diffBudgetOption(yargs)
    .option('now', NOW_OPTION)
    .option('out', { type: 'string', describe: 'Also save the plan as JSON, for apply --plan' })
    .option('format', { choices: PLAN_FORMATS, default: 'text' as const, describe: 'How to print the plan' })
    .option('live', { type: 'string', describe: 'Plan against this live snapshot (botrules live --out) instead of listing: no token, no request' })
    .option('replay', { type: 'string', array: true, requiresArg: true, describe: 'Request logs to replay under the live and the planned rules; the summary comes before the plan (text and markdown) or is its `replay` field (json), and --out saves its verdict for apply\'s maxNewlyBlocked limit' })
    .option('engine', ENGINE_OPTION)
    .option('tests', { type: 'string', describe: 'Test files whose requests the plan checks for changed outcomes (default: tests, when it exists)' })
    .option('safe-order', { type: 'boolean', default: false, describe: 'When only an order with one more PATCH is free of windows, plan that order' })
    .option('transition-budget', TRANSITION_BUDGET_OPTION)
    .option('policy-budget', { type: 'number', default: DEFAULT_POLICY_BUDGET_SECONDS, describe: 'Seconds the policy checks may take in all; what is left is reported unchecked, never passed' })
    .option('detailed-exitcode', { type: 'boolean', default: false, describe: 'Exit 0 without changes, 2 with changes, 1 on error' })
    .option('behaviour-diff', { type: 'boolean', default: true, describe: 'Show every class of requests the plan decides differently (--no-behaviour-diff: leave it out)' })
    .example('$0 plan', 'show what apply would change')
    .example('$0 plan --live live.json --format markdown', 'plan a pull request against the newest live snapshot, with no token')
    .example('$0 plan --out plan.json --format markdown >> "$GITHUB_STEP_SUMMARY"', 'save a plan and summarise it in CI');
}

async function runCommand(args: ArgsOf<typeof options>, ctx: CommandContext): Promise<ExitCode> {
  const replayLogs = args.replay?.map(String);
  const { out } = args;
  // Checked before any request, so an unwritable --out never costs a LIST (docs/behaviour.md, "Output files").
  if (out !== undefined) await checkWritable(resolve(ctx.io.cwd, out), '--out', out);
  const progress = replayProgressLine(ctx);
  const checking = transitionProgress(ctx);
  // The flag is a yes/no; the engine takes the run (its budget and progress) or nothing.
  const { behaviourDiff: wanted, ...selection } = args;
  const diff = wanted === false ? undefined : diffRun(args, ctx);
  const { plan, review } = await planProject({
    ...selection,
    ...definedFields({ onReplayProgress: progress.onProgress, liveFile: args.live, testsDir: args.tests, onTransitionProgress: checking?.update, behaviourDiff: diff?.run, transitionBudget: args.transitionBudget }),
    ...(replayLogs === undefined ? {} : { replayLogs, replayEngine: args.engine }),
    safeOrder: args.safeOrder === true,
  }, ctx).finally(() => {
    diff?.stop();
    checking?.stop();
    progress.stop();
  });
  // Risk first: what the change does to traffic, then the changes themselves. A JSON plan is
  // one document: the report is its `replay` field.
  const policies = review.policies ?? [];
  if (review.replay !== undefined && args.format !== 'json') await writeReport(replayBeforePlan(args.format === 'markdown' ? 'markdown' : 'text'), review.replay, ctx);
  // A violated policy is what a reviewer must see first (docs/behaviour.md, "Policies").
  if (args.format !== 'json') await writeReport(POLICIES_BEFORE_PLAN[args.format], policies, ctx);
  ctx.annotations.write(policies.filter(isReported).map(policyAnnotation));
  await writeReport(PLAN_OUTPUTS[args.format], { plan, review }, ctx);
  if (args.format !== 'json') await writeReport(POLICY_NOTES_AFTER_PLAN[args.format], policies, ctx);
  await writeReport(PLAN_WARNINGS, review, ctx);
  if (out !== undefined) {
    await savePlan({ plan, review }, out, ctx.io.cwd);
    await writeReport(SAVED_PLAN, { out, fromSnapshot: plan.snapshot !== undefined }, ctx);
  }
  const failing = policies.filter(failsCommand);
  if (failing.length > 0) {
    const what = failing.every((finding) => finding.level === 'error')
      ? plural(failing.length, 'error-level policy', 'error-level policies')
      : `${plural(failing.length, 'policy', 'policies')} (error-level, or left unchecked by the time budget: --policy-budget SECONDS gives more)`;
    throw new UserError(`${what} ${noun(failing.length, 'is', 'are')} not proved to hold for the rules as apply would leave them`, failing.map((finding) => `${finding.at.file}:${finding.at.line}:${finding.at.col}: ${finding.policy} (app ${finding.app}): ${finding.verdict}`));
  }
  const blocked = blockedSentence(plan);
  // The text and Markdown plans end with the advice and each rule's console steps; on a terminal
  // stdout and stderr show together, so the error only points at them. JSON holds no advice.
  if (blocked !== undefined) throw args.format === 'json' ? new UserError(blocked, [BLOCKED_ADVICE]) : new UserError(`${blocked} (the plan lists the console steps for each)`);
  if (args.detailedExitcode) return foundOrOk(plan.hasChanges());
  return EXIT.ok;
}

export const { builder, run } = defineCommand({ builder: options, run: runCommand });
