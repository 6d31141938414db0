// `botrules github …`: the steps of the example workflows that talk to the GitHub API, as
// tested code instead of jq and gh in workflow bash (examples/github-workflows/README.md).
// They use the workflow's own token (GH_TOKEN) and refuse to run where a rules token is in
// scope, so no code ever holds a rules token and a GitHub write token together. `github action`
// is the botrules action's one step (action.yml): it runs the command the action's inputs name.
import type { Argv } from 'yargs';
import { checkedRepository, githubClientFor, GITHUB_REPOSITORY_VARIABLE } from '../../api/index.js';
import { UserError } from '../../errors.js';
import { checkedWorkflowFile, DEFAULT_MAX_ARTIFACT_BYTES, selectArtifact } from '../../github/artifact-provenance.js';
import { reportDriftIssues } from '../../github/drift-issue.js';
import { driftBranch, proposeDrift } from '../../github/drift-pr.js';
import { upsertPlanComments } from '../../github/plan-comment.js';
import { APP_NAME } from '../../github/files.js';
import { ARTIFACT_CHOICE, ARTIFACTS_SKIPPED, DRIFT_ISSUES, DRIFT_PROPOSAL, noArtifactSentence, PLAN_COMMENTS } from '../../render/github-steps/index.js';
import { safeText } from '../../render/sanitise.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { defineAction, defineCommandWithActions, type ArgsOf } from '../define-command.js';
import { wholeNumber } from '../options.js';
import { writeReport, writeStepOutputs } from '../output.js';
import { runActionStep } from '../action-step.js';
import { EXIT, type ExitCode } from '../../exit-codes.js';
import { noun } from '../../plural.js';
import { definedFields } from '../../defined.js';

function artifactOptions(yargs: Argv<GlobalArgs>) {
  return yargs
    .option('name', { type: 'string', demandOption: true, describe: 'The artifact\'s exact name' })
    .option('workflow', { type: 'string', array: true, demandOption: true, describe: 'A workflow file (botrules-apply.yml) whose runs may have written it; repeat for several' })
    .option('max-bytes', { type: 'number', default: DEFAULT_MAX_ARTIFACT_BYTES, requiresArg: true, coerce: wholeNumber('--max-bytes', 1, 2 ** 40), describe: 'Pass over larger artifacts (their zipped size)' })
    .option('exclude-run', { type: 'number', requiresArg: true, coerce: wholeNumber('--exclude-run', 1, Number.MAX_SAFE_INTEGER), describe: 'Never this run\'s artifacts (the current run: GITHUB_RUN_ID)' })
    .option('optional', { type: 'boolean', default: false, describe: 'Exit 0 with found=false when none qualifies (otherwise that is an error)' })
    .epilogue('Writes found, run-id and artifact-id to GITHUB_OUTPUT when set. Reads GITHUB_REPOSITORY, GITHUB_API_URL and GH_TOKEN (or GITHUB_TOKEN).');
}

function planCommentOptions(yargs: Argv<GlobalArgs>) {
  return yargs
    .option('pr', { type: 'number', demandOption: true, requiresArg: true, coerce: wholeNumber('--pr', 1, Number.MAX_SAFE_INTEGER), describe: 'The pull request\'s number' })
    .option('plans', { type: 'string', demandOption: true, describe: 'Directory of botrules-plan-APP/ folders, each with plan.md and exitcode' })
    .option('run-url', { type: 'string', default: '', describe: 'The run\'s address, linked from each comment' });
}

function driftOptions(yargs: Argv<GlobalArgs>) {
  return yargs
    .option('app', { type: 'string', demandOption: true, describe: 'The app whose drift to propose' })
    .option('rules-dir', { type: 'string', demandOption: true, describe: 'The app\'s rulesDir: the patch may touch .yaml/.yml files under it only' })
    .option('drift', { type: 'string', demandOption: true, describe: 'The folder of the detect job\'s artifact: drift.json, changes.patch, plan.md' })
    .option('run-url', { type: 'string', default: '', describe: 'The run\'s address, linked from the pull request' })
    .epilogue('Run in a checkout of the default branch at GITHUB_SHA. Reads GITHUB_REPOSITORY, GITHUB_SHA, GITHUB_SERVER_URL, GITHUB_API_URL and GH_TOKEN (or GITHUB_TOKEN), which also pushes the branch.');
}

function driftIssueOptions(yargs: Argv<GlobalArgs>) {
  return yargs
    .option('reports', { type: 'string', demandOption: true, describe: 'Directory of botrules-drift-APP/ folders, each with plan.md and has-changes' })
    .option('run-url', { type: 'string', default: '', describe: 'The run\'s address, linked from each issue' });
}

export const { builder, run } = defineCommandWithActions([
  defineAction({
    command: 'artifact',
    describe: 'Choose the newest artifact of a name that a trusted run wrote (push, schedule or dispatch of this repository, on the default branch\'s history)',
    builder: artifactOptions,
    run: withoutRulesTokens(runArtifact),
  }),
  defineAction({ command: 'plan-comment', describe: 'Create or update one pull-request comment per app from the plans the plan jobs kept', builder: planCommentOptions, run: withoutRulesTokens(runPlanComment) }),
  defineAction({ command: 'drift-pr', describe: 'Open, update or close the pull request that brings an app\'s console edits back to git', builder: driftOptions, run: withoutRulesTokens(runDriftPr) }),
  defineAction({ command: 'drift-issue', describe: 'Open, update or close one drift issue per app from the plans the drift jobs kept', builder: driftIssueOptions, run: withoutRulesTokens(runDriftIssue) }),
  defineAction({
    command: 'action',
    describe: 'The step of the botrules action: run the command its inputs name (INPUT_COMMAND, INPUT_ARGS, …), then set its outputs and job summary',
    builder: (yargs) => yargs.epilogue('Reads INPUT_COMMAND, INPUT_ARGS, INPUT_APP, INPUT_CONFIG, INPUT_FORMAT and INPUT_TOKEN_ENV (action.yml), and RUNNER_TEMP, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY.'),
    run: (_args, ctx) => runActionStep(ctx),
  }),
], { missing: 'Name an action: artifact, plan-comment, drift-pr, drift-issue or action' });

/** Variables of botrules' own that hold no secret; any other BOTRULES_ variable may hold a rules token. */
const NOT_SECRET = /^BOTRULES_(CONSOLE_URL|GATEWAY_URL|TIMEOUT)$/;

/** The actions that talk to GitHub run only where no rules token is in scope (`action` hands one to plan or apply), on the repository GITHUB_REPOSITORY names. */
function withoutRulesTokens<Args>(run: (args: Args, ctx: CommandContext, repository: string) => Promise<ExitCode>): (args: Args, ctx: CommandContext) => Promise<ExitCode> {
  return (args, ctx) => {
    const held = Object.keys(ctx.io.env).filter((name) => name.startsWith('BOTRULES_') && !NOT_SECRET.test(name) && ctx.env(name) !== undefined).sort();
    if (held.length > 0) {
      throw new UserError(
        `botrules github talks to GitHub with the workflow token and never runs where a rules token is in scope: ${held.map((name) => safeText(name)).join(', ')} ${noun(held.length, 'is', 'are')} set`,
        ['Run it in a job (or step) that has no botrules secret in its env:'],
      );
    }
    return run(args, ctx, checkedRepository(ctx.env(GITHUB_REPOSITORY_VARIABLE)));
  };
}

async function runArtifact(args: ArgsOf<typeof artifactOptions>, ctx: CommandContext, repository: string): Promise<ExitCode> {
  const { name, excludeRun: excludeRunId } = args;
  const workflows = args.workflow.map((value) => checkedWorkflowFile(String(value)));
  const selection = await selectArtifact(githubClientFor(ctx), {
    repository, name, workflows, maxBytes: args.maxBytes, ...definedFields({ excludeRunId }),
  });
  await writeReport(ARTIFACTS_SKIPPED, selection.skipped, ctx);
  const { accepted } = selection;
  const choice = { name, workflows, defaultBranch: selection.defaultBranch, ...definedFields({ accepted }) };
  if (accepted === undefined) {
    await writeStepOutputs(ctx, { found: 'false' });
    if (!args.optional) throw new UserError(noArtifactSentence(choice), [`Run ${workflows[0] ?? 'the workflow'} on ${safeText(selection.defaultBranch)} once to write one.`]);
  } else {
    await writeStepOutputs(ctx, { found: 'true', 'run-id': String(accepted.runId), 'artifact-id': String(accepted.artifactId) });
  }
  await writeReport(ARTIFACT_CHOICE, choice, ctx);
  return EXIT.ok;
}

async function runPlanComment(args: ArgsOf<typeof planCommentOptions>, ctx: CommandContext, repository: string): Promise<ExitCode> {
  const results = await upsertPlanComments(githubClientFor(ctx), {
    repository, pullRequest: args.pr, plansDir: args.plans, runUrl: args.runUrl, cwd: ctx.cwd,
  });
  await writeReport(PLAN_COMMENTS, results, ctx);
  return EXIT.ok;
}

async function runDriftPr(args: ArgsOf<typeof driftOptions>, ctx: CommandContext, repository: string): Promise<ExitCode> {
  const { app } = args;
  if (!APP_NAME.test(app)) throw new UserError('--app takes an app name of botrules.yaml (letters, digits, . _ -)');
  const sha = ctx.env('GITHUB_SHA');
  if (sha === undefined || !/^[0-9a-f]{40}$/.test(sha)) throw new UserError('GITHUB_SHA must name the commit this run checked out (GitHub Actions sets it)');
  const token = ctx.env('GH_TOKEN') ?? ctx.env('GITHUB_TOKEN') ?? '';
  const outcome = await proposeDrift(githubClientFor(ctx), {
    repository, app, sha, token, cwd: ctx.cwd,
    rulesDir: args.rulesDir, driftDir: args.drift, runUrl: args.runUrl,
    serverUrl: ctx.env('GITHUB_SERVER_URL') ?? 'https://github.com',
  });
  await writeReport(DRIFT_PROPOSAL, { app, sha, branch: driftBranch(app), outcome }, ctx);
  return EXIT.ok;
}

async function runDriftIssue(args: ArgsOf<typeof driftIssueOptions>, ctx: CommandContext, repository: string): Promise<ExitCode> {
  const results = await reportDriftIssues(githubClientFor(ctx), { repository, reportsDir: args.reports, runUrl: args.runUrl, cwd: ctx.cwd });
  await writeReport(DRIFT_ISSUES, results, ctx);
  return EXIT.ok;
}

