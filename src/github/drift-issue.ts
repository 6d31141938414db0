// The drift issue (examples/github-workflows/drift.yml, job `report`): one open issue per app,
// "botrules drift: <app>" with the label botrules-drift, opened or updated with the plan while
// the live rules differ from git, and closed once they match again. Only an issue this
// workflow opened is touched: opened by exactly the workflow's bot, with the label and title.
import path from 'node:path';
import type { GitHubApi } from '../api/index.js';
import { appFolders, readArtifactText } from './files.js';
import { WORKFLOW_BOT } from './plan-comment.js';
import { driftIssueBody, driftResolvedBody } from '../render/github-steps/comments.js';
import { DRIFT_LABEL } from './drift-pr.js';

const MAX_PLAN_BYTES = 4 * 1024 * 1024;
const FOLDER_PREFIX = 'botrules-drift-';

interface DriftIssueRequest {
  repository: string;
  /** Folders botrules-drift-APP/ holding plan.md and has-changes. */
  reportsDir: string;
  runUrl: string;
  cwd: string;
}

interface DriftIssueResult {
  app: string;
  action: 'opened' | 'updated' | 'closed' | 'none';
  number?: number;
}

interface Issue { number: number; title?: string; user?: { login?: string } | null; pull_request?: unknown; labels?: { name?: string }[] }

const driftIssueTitle = (app: string): string => `botrules drift: ${app}`;

export async function reportDriftIssues(api: GitHubApi, request: DriftIssueRequest): Promise<DriftIssueResult[]> {
  const apps = await appFolders(path.resolve(request.cwd, request.reportsDir), FOLDER_PREFIX);
  if (apps.length === 0) return [];
  const open = await api.list<Issue>(`repos/${request.repository}/issues`, 'listing open drift issues', {
    searchParams: { state: 'open', labels: DRIFT_LABEL, creator: WORKFLOW_BOT },
    maxPages: 10,
  });
  const results: DriftIssueResult[] = [];
  for (const { app, folder } of apps) {
    const hasChanges = (await readArtifactText(path.join(folder, 'has-changes'), 16, `the drift result of app ${app}`)).trim() === 'true';
    const existing = open.find((issue) => isOurs(issue, app));
    if (!hasChanges) {
      if (existing === undefined) {
        results.push({ app, action: 'none' });
        continue;
      }
      await api.send('POST', `repos/${request.repository}/issues/${existing.number}/comments`, `commenting on #${existing.number}`, { body: driftResolvedBody(app, request.runUrl) });
      await api.send('PATCH', `repos/${request.repository}/issues/${existing.number}`, `closing #${existing.number}`, { state: 'closed', state_reason: 'completed' });
      results.push({ app, action: 'closed', number: existing.number });
      continue;
    }
    const plan = await readArtifactText(path.join(folder, 'plan.md'), MAX_PLAN_BYTES, `the drift plan of app ${app}`);
    const body = driftIssueBody(app, plan, request.runUrl);
    if (existing !== undefined) {
      await api.send('PATCH', `repos/${request.repository}/issues/${existing.number}`, `updating #${existing.number}`, { body });
      results.push({ app, action: 'updated', number: existing.number });
    } else {
      const created = await api.send<{ number: number }>('POST', `repos/${request.repository}/issues`, `opening the drift issue of ${app}`, { title: driftIssueTitle(app), body, labels: [DRIFT_LABEL] });
      results.push({ app, action: 'opened', number: created.number });
    }
  }
  return results;
}

function isOurs(issue: Issue, app: string): boolean {
  return issue.pull_request === undefined && issue.user?.login === WORKFLOW_BOT && issue.title === driftIssueTitle(app) && (issue.labels ?? []).some((label) => label.name === DRIFT_LABEL);
}

