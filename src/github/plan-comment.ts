// The pull-request plan comment: one comment per app, created once and updated on every
// run. Only a comment this workflow wrote is ever edited: written by exactly the workflow's
// bot and starting with the app's marker, so nobody can plant a comment the job would then
// rewrite. The plans come from this run's plan jobs as artifacts, one folder per app.
import path from 'node:path';
import type { GitHubApi } from '../api/index.js';
import { appFolders, readArtifactText } from './files.js';

/** The login of the workflow token's comments, pull requests and issues. */
export const WORKFLOW_BOT = 'github-actions[bot]';

/** GitHub refuses comment bodies over 65,536 characters; the plan is cut well below that. */
export const PLAN_COMMENT_LIMIT = 65_000;

/** botrules keeps a Markdown plan near the comment limit; a file much larger than that is not read. */
const MAX_PLAN_BYTES = 1024 * 1024;

const FOLDER_PREFIX = 'botrules-plan-';

export interface PlanCommentRequest {
  repository: string;
  pullRequest: number;
  /** Folders botrules-plan-APP/ holding plan.md and exitcode. */
  plansDir: string;
  runUrl: string;
  cwd: string;
}

export interface PlanCommentResult {
  app: string;
  action: 'created' | 'updated';
  commentId: number;
}

interface IssueComment { id: number; body?: string | null; user?: { login?: string; type?: string } | null }

export const planMarker = (app: string): string => `<!-- botrules-plan:${app} -->`;

export async function upsertPlanComments(api: GitHubApi, request: PlanCommentRequest): Promise<PlanCommentResult[]> {
  const root = path.resolve(request.cwd, request.plansDir);
  const apps = (await appFolders(root, FOLDER_PREFIX)).sort();
  if (apps.length === 0) return [];
  const base = `repos/${request.repository}/issues/${request.pullRequest}/comments`;
  const comments = await api.list<IssueComment>(base, `listing the comments of pull request #${request.pullRequest}`, { maxPages: 30 });
  const results: PlanCommentResult[] = [];
  for (const app of apps) {
    const folder = path.join(root, `${FOLDER_PREFIX}${app}`);
    const plan = await readArtifactText(path.join(folder, 'plan.md'), MAX_PLAN_BYTES, `the plan of app ${app}`);
    const exitCode = (await readArtifactText(path.join(folder, 'exitcode'), 16, `the exit code of app ${app}`)).trim();
    const body = planCommentBody(app, plan, exitCode, request.runUrl);
    const previous = comments.find((comment) => isOurs(comment, app));
    if (previous) {
      await api.send('PATCH', `repos/${request.repository}/issues/comments/${previous.id}`, `updating the plan comment of app ${app}`, { body });
      results.push({ app, action: 'updated', commentId: previous.id });
    } else {
      const created = await api.send<{ id: number }>('POST', base, `commenting the plan of app ${app}`, { body });
      results.push({ app, action: 'created', commentId: created.id });
    }
  }
  return results;
}

/** The marker, the plan (cut on a character boundary when too long), and the outcome with the run's link. */
export function planCommentBody(app: string, plan: string, exitCode: string, runUrl: string): string {
  const trimmed = plan.trim();
  const outcome = ({ '0': 'no changes', '2': 'changes will be applied on merge' } as Record<string, string>)[exitCode] ?? failedOutcome(exitCode, trimmed);
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
  if (exitCode === '1' && plan.startsWith(PLAN_HEADING)) return 'the plan cannot be applied as it stands: the warnings above say why';
  return 'plan failed: see the run log';
}

const PLAN_HEADING = '### botrules plan';

/** At most `limit` UTF-16 units, never half of a surrogate pair. */
export function cutAt(text: string, limit: number): string {
  const end = /[\uD800-\uDBFF]/.test(text.charAt(limit - 1)) ? limit - 1 : limit;
  return text.slice(0, end);
}

function isOurs(comment: IssueComment, app: string): boolean {
  return comment.user?.login === WORKFLOW_BOT && comment.user.type === 'Bot' && typeof comment.body === 'string' && comment.body.startsWith(`${planMarker(app)}\n`);
}

