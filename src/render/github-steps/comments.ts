// The bodies botrules writes on GitHub (examples/github-workflows/README.md): the pull-request
// plan comment, the drift issue and the drift pull request, each around a Markdown plan an
// earlier job rendered, cut below GitHub's limit of 65,536 characters on a character boundary.
import { EXIT } from '../../exit-codes.js';

/** GitHub refuses comment bodies over 65,536 characters; the plan is cut well below that. */
const PLAN_COMMENT_LIMIT = 65_000;

/** An issue or pull-request body keeps room for its own sentences around the plan. */
const BODY_PLAN_LIMIT = 60_000;

const PLAN_HEADING = '### botrules plan';

/** The first line of an app's plan comment: what marks the comment as this workflow's. */
export const planMarker = (app: string): string => `<!-- botrules-plan:${app} -->`;

/** At most `limit` UTF-16 units, never half of a surrogate pair. */
function cutAt(text: string, limit: number): string {
  const end = /[\uD800-\uDBFF]/.test(text.charAt(limit - 1)) ? limit - 1 : limit;
  return text.slice(0, end);
}

const OUTCOMES: Readonly<Record<string, string>> = { [EXIT.ok]: 'no changes', [EXIT.found]: 'changes will be applied on merge' };

/** The marker, the plan (cut on a character boundary when too long), and the outcome with the run's link. */
export function planCommentBody(app: string, plan: string, exitCode: string, runUrl: string): string {
  const trimmed = plan.trim();
  const outcome = OUTCOMES[exitCode] ?? failedOutcome(exitCode, trimmed);
  const shown = trimmed.length > PLAN_COMMENT_LIMIT ? `${cutAt(trimmed, PLAN_COMMENT_LIMIT)}\n\n…truncated: see the run log.` : trimmed || '_No plan output._';
  const link = runUrl === '' ? '' : ` [Run log](${runUrl})`;
  return [planMarker(app), shown, '', `App \`${app}\`: ${outcome}.${link}`].join('\n');
}

/**
 * A plan that exits 1 after printing itself was refused as it stands (a rule the API cannot
 * create): the plan above says why, and "failed" would send a reviewer to the log for nothing.
 * One that exits 1 before printing failed; the run log has the error.
 */
function failedOutcome(exitCode: string, plan: string): string {
  if (exitCode === String(EXIT.failed) && plan.startsWith(PLAN_HEADING)) return 'the plan cannot be applied as it stands: the warnings above say why';
  return 'plan failed: see the run log';
}

export function driftIssueBody(app: string, plan: string, runUrl: string): string {
  const trimmed = plan.trim();
  const shown = trimmed.length > BODY_PLAN_LIMIT ? `${cutAt(trimmed, BODY_PLAN_LIMIT)}\n\n…truncated: see the run log.` : trimmed;
  return [
    `The live rules of \`${app}\` differ from git ([run](${runUrl})).`,
    '',
    'Either bring the console back to git (run the apply workflow), or adopt the console edits:',
    `run \`botrules import --update --app ${app}\` locally, review \`git diff\`, and open a pull request`,
    '(or use the drift pull-request workflow, drift-pr.yml, which does this every day).',
    '',
    shown,
  ].join('\n');
}

/** The comment that closes an app's drift issue. */
export const driftResolvedBody = (app: string, runUrl: string): string => `The live rules of \`${app}\` match git again ([run](${runUrl})).`;

export function driftPullRequestBody(app: string, plan: string, runUrl: string): string {
  const shown = plan.length > BODY_PLAN_LIMIT
    ? `${cutAt(plan, BODY_PLAN_LIMIT)}\n\n*The plan is cut here: a pull-request body holds at most 65,536 characters. The whole plan is in the summary of the [run](${runUrl}).*`
    : plan;
  return [
    `The live rules of \`${app}\` differ from git ([run](${runUrl})). This pull request changes the rule files to declare the live rules; merged, the next apply has nothing to do.`,
    '',
    'Closed instead, the next apply would undo the console edits with this plan:',
    '',
    shown,
  ].join('\n');
}
