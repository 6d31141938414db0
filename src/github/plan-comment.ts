// The pull-request plan comment: one comment per app, created once and updated on every
// run. Only a comment this workflow wrote is ever edited: written by exactly the workflow's
// bot and starting with the app's marker, so nobody can plant a comment the job would then
// rewrite. The plans come from this run's plan jobs as artifacts, one folder per app.
import path from 'node:path';
import type { GitHubApi } from '../api/index.js';
import { appFolders, readArtifactText } from './files.js';
import { planCommentBody, planMarker } from '../render/github-steps/comments.js';

/** The login of the workflow token's comments, pull requests and issues. */
export const WORKFLOW_BOT = 'github-actions[bot]';

/** botrules keeps a Markdown plan near the comment limit; a file much larger than that is not read. */
const MAX_PLAN_BYTES = 1024 * 1024;

const FOLDER_PREFIX = 'botrules-plan-';

interface PlanCommentRequest {
  repository: string;
  pullRequest: number;
  /** Folders botrules-plan-APP/ holding plan.md and exitcode. */
  plansDir: string;
  runUrl: string;
  cwd: string;
}

interface PlanCommentResult {
  app: string;
  action: 'created' | 'updated';
  commentId: number;
}

interface IssueComment { id: number; body?: string | null; user?: { login?: string; type?: string } | null }

export async function upsertPlanComments(api: GitHubApi, request: PlanCommentRequest): Promise<PlanCommentResult[]> {
  const apps = await appFolders(path.resolve(request.cwd, request.plansDir), FOLDER_PREFIX);
  if (apps.length === 0) return [];
  const base = `repos/${request.repository}/issues/${request.pullRequest}/comments`;
  const comments = await api.list<IssueComment>(base, `listing the comments of pull request #${request.pullRequest}`, { maxPages: 30 });
  const results: PlanCommentResult[] = [];
  for (const { app, folder } of apps) {
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

function isOurs(comment: IssueComment, app: string): boolean {
  return comment.user?.login === WORKFLOW_BOT && comment.user.type === 'Bot' && typeof comment.body === 'string' && comment.body.startsWith(`${planMarker(app)}\n`);
}

