// The drift pull request (examples/github-workflows/drift-pr.yml, job `propose`): from the
// detect job's record, patch and plan, open, update or close the pull request that brings
// console edits of one app back to git. This job holds the workflow's write token and no
// secret; the patch is untrusted data, checked before it is applied (drift-patch.ts).
import path from 'node:path';
import { branchPath, type GitHubApi } from '../api/index.js';
import { UserError } from '../errors.js';
import { checkDriftPatch } from './drift-patch.js';
import { readArtifactText, readOptionalArtifactText } from './files.js';
import { git } from '../io/git.js';
import { WORKFLOW_BOT } from './plan-comment.js';
import { driftPullRequestBody } from '../render/github-steps/comments.js';
import { parseJsonOr } from '../io/json-depth.js';

export const DRIFT_LABEL = 'botrules-drift';
const BOT_EMAIL = '41898282+github-actions[bot]@users.noreply.github.com';
/** GitHub refuses pull-request bodies over 65,536 characters. */
const MAX_PATCH_BYTES = 64 * 1024 * 1024;
const MAX_PLAN_BYTES = 4 * 1024 * 1024;

interface DriftRequest {
  repository: string;
  app: string;
  rulesDir: string;
  /** The folder the detect job's artifact was downloaded to: drift.json, changes.patch, plan.md. */
  driftDir: string;
  /** The commit this run checked out (GITHUB_SHA). */
  sha: string;
  runUrl: string;
  /** Where the push goes: https://github.com, or the GitHub Enterprise host (GITHUB_SERVER_URL). */
  serverUrl: string;
  token: string;
  cwd: string;
}

type DriftOutcome =
  | { kind: 'no-record' }
  | { kind: 'superseded'; tip: string }
  | { kind: 'in-sync'; closed?: number }
  | { kind: 'opened' | 'updated'; number: number };

interface PullRequest { number: number; user?: { login?: string } | null; head?: { ref?: string; repo?: { full_name?: string } | null } | null; labels?: { name?: string }[] }

export const driftBranch = (app: string): string => `botrules/drift-${app}`;

export async function proposeDrift(api: GitHubApi, request: DriftRequest): Promise<DriftOutcome> {
  const record = await readRecord(request);
  if (record === undefined) return { kind: 'no-record' };
  if (record.base !== request.sha || record.app !== request.app) {
    throw new UserError(`the drift record of ${request.app} was made from another commit or app: refused`);
  }
  const repo = await api.get<{ default_branch: string }>(`repos/${request.repository}`, `reading repository ${request.repository}`);
  // Only a run of the branch's current tip proposes: an older run would push a patch made
  // against older files. refs/heads/… names the branch, never a tag of the same name.
  const head = await api.get<{ object?: { sha?: string } }>(`repos/${request.repository}/git/ref/heads/${branchPath(repo.default_branch)}`, `reading the head of refs/heads/${repo.default_branch}`);
  const tip = String(head.object?.sha);
  if (tip !== request.sha) return { kind: 'superseded', tip };

  const branch = driftBranch(request.app);
  const open = await findOpenPullRequest(api, request, branch);
  if (!record.drift) {
    if (open === undefined) return { kind: 'in-sync' };
    await api.send('POST', `repos/${request.repository}/issues/${open}/comments`, `commenting on #${open}`, { body: `The live rules of \`${request.app}\` match git again ([run](${request.runUrl})): closing.` });
    await api.send('PATCH', `repos/${request.repository}/pulls/${open}`, `closing #${open}`, { state: 'closed' });
    await api.send('DELETE', `repos/${request.repository}/git/refs/heads/${branchPath(branch)}`, `deleting ${branch}`).catch(() => undefined);
    return { kind: 'in-sync', closed: open };
  }

  const patchFile = path.resolve(request.cwd, request.driftDir, 'changes.patch');
  await readArtifactText(patchFile, MAX_PATCH_BYTES, `the drift patch of ${request.app}`);
  await checkDriftPatch(patchFile, request.rulesDir, request.app, request.cwd);
  await commitAndPush(request, patchFile, branch);

  const body = await pullRequestBody(request);
  if (open !== undefined) {
    await api.send('PATCH', `repos/${request.repository}/pulls/${open}`, `updating #${open}`, { body });
    return { kind: 'updated', number: open };
  }
  // The label may exist already (422): that is fine.
  await api.send('POST', `repos/${request.repository}/labels`, `creating the label ${DRIFT_LABEL}`, { name: DRIFT_LABEL, color: 'd93f0b', description: 'Console edits brought back to git by botrules' }).catch(() => undefined);
  const created = await api.send<{ number: number }>('POST', `repos/${request.repository}/pulls`, `opening the drift pull request of ${request.app}`, {
    title: `botrules drift: ${request.app}`, head: branch, base: repo.default_branch, body,
  });
  await api.send('POST', `repos/${request.repository}/issues/${created.number}/labels`, `labelling #${created.number}`, { labels: [DRIFT_LABEL] });
  return { kind: 'opened', number: created.number };
}

async function readRecord(request: DriftRequest): Promise<{ app: string; base: string; drift: boolean } | undefined> {
  const file = path.resolve(request.cwd, request.driftDir, 'drift.json');
  const text = await readOptionalArtifactText(file, 4096, `the drift record of ${request.app}`);
  if (text === undefined) return undefined;
  const value = parseJsonOr(text, () => {
    throw new UserError(`the drift record of ${request.app} is not JSON: refused`);
  });
  const { app, base, drift } = (value ?? {}) as Record<string, unknown>;
  if (typeof app !== 'string' || typeof base !== 'string' || typeof drift !== 'boolean') {
    throw new UserError(`the drift record of ${request.app} is not { app, base, drift }: refused`);
  }
  return { app, base, drift };
}

/** This workflow's own pull request: opened by exactly the bot, from this repository's branch, with the label. */
async function findOpenPullRequest(api: GitHubApi, request: DriftRequest, branch: string): Promise<number | undefined> {
  const owner = request.repository.split('/')[0] ?? '';
  const pulls = await api.list<PullRequest>(`repos/${request.repository}/pulls`, `listing open pull requests of ${branch}`, {
    searchParams: { state: 'open', head: `${owner}:${branch}` },
    maxPages: 3,
  });
  const ours = pulls.find((pr) =>
    pr.user?.login === WORKFLOW_BOT && pr.head?.ref === branch && pr.head.repo?.full_name === request.repository && (pr.labels ?? []).some((label) => label.name === DRIFT_LABEL));
  return ours?.number;
}

/** A push of one small commit; generous for a slow network. */
const PUSH_TIMEOUT_MS = 120_000;

async function commitAndPush(request: DriftRequest, patchFile: string, branch: string): Promise<void> {
  const { cwd } = request;
  await git(['switch', '--quiet', '-C', branch], { cwd });
  await git(['apply', '--index', patchFile], { cwd });
  await git(['-c', `user.name=${WORKFLOW_BOT}`, '-c', `user.email=${BOT_EMAIL}`, 'commit', '--quiet', '-m', `botrules: bring console edits of ${request.app} back to git`, '-m', `Written by botrules import --update from the live rules (${request.runUrl}).`], { cwd });
  // The token goes to this one push, through the environment: never into .git/config or argv.
  const auth = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${request.token}`).toString('base64')}`;
  await git(['push', '--quiet', '--force', 'origin', `HEAD:refs/heads/${branch}`], { cwd, timeoutMs: PUSH_TIMEOUT_MS, config: { [`http.${request.serverUrl.replace(/\/*$/, '/')}.extraheader`]: auth } });
}

async function pullRequestBody(request: DriftRequest): Promise<string> {
  const plan = await readArtifactText(path.resolve(request.cwd, request.driftDir, 'plan.md'), MAX_PLAN_BYTES, `the drift plan of ${request.app}`);
  return driftPullRequestBody(request.app, plan, request.runUrl);
}
