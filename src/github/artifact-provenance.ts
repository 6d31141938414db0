// Which artifact a privileged job may consume (docs/security.md, "Artifact provenance").
// Anyone who can open a pull request can make a run upload an artifact of any name, and a
// run's branch name says nothing (a fork's branch, or a tag, may be called `main`). So an
// artifact is accepted only when GitHub's own records of its run say: an event that only the
// repository's own branches start (push, schedule, workflow_dispatch), head and base
// repository both this one, one of the named workflow files, run for the default branch, and
// a head commit reachable from the default branch's head, asked for as refs/heads/<default>
// and compared by SHA.
import { branchPath, type GitHubApi } from '../api/index.js';
import { RemoteError, UserError } from '../errors.js';

/** Events that only pushes to, schedules of and manual runs on this repository start. */
const TRUSTED_EVENTS: readonly string[] = ['push', 'schedule', 'workflow_dispatch'];

/** Artifacts larger than this (as stored, zipped) are not downloaded: 64 MiB, the live snapshot cap. */
export const DEFAULT_MAX_ARTIFACT_BYTES = 64 * 1024 * 1024;

/**
 * How many pages of artifacts of the name are looked at, newest first, 100 a page: anyone who
 * can open a pull request can add artifacts of any name, so a few pages of them must not hide
 * the trusted one. Past this many, the search stops with an error (never "none found").
 */
const MAX_ARTIFACT_PAGES = 50;
const ARTIFACTS_PER_PAGE = 100;

interface ArtifactQuery {
  /** owner/name */
  repository: string;
  /** The artifact's exact name. */
  name: string;
  /** Workflow file names (`botrules-apply.yml`) whose runs may have written it. */
  workflows: readonly string[];
  maxBytes: number;
  /** A run never consumed (the current run, whose own upload is not "previous"). */
  excludeRunId?: number;
}

interface AcceptedArtifact {
  artifactId: number;
  runId: number;
  workflow: string;
  event: string;
  headSha: string;
  sizeInBytes: number;
}

interface ArtifactSelection {
  accepted?: AcceptedArtifact;
  /** One sentence per artifact passed over, newest first: "artifact 12 of run 34: …". */
  skipped: string[];
  defaultBranch: string;
}

interface Repository { id: number; full_name: string; default_branch: string }
interface Artifact {
  id: number;
  name: string;
  size_in_bytes: number;
  expired: boolean;
  /** GitHub's record of the run; `head_branch` and `head_repository_id` let most strangers' artifacts go without a request. */
  workflow_run?: { id?: number; head_sha?: string; head_branch?: string | null; head_repository_id?: number } | null;
}
interface Run {
  id: number;
  event: string;
  path: string;
  head_sha: string;
  head_branch?: string | null;
  repository?: { id?: number } | null;
  head_repository?: { id?: number; full_name?: string } | null;
}

/** A workflow file name as it appears in .github/workflows/: no path, no space, .yml or .yaml. */
export function checkedWorkflowFile(name: string): string {
  if (!/^[A-Za-z0-9_.-]+\.ya?ml$/.test(name)) {
    throw new UserError(`--workflow takes a workflow file name such as botrules-apply.yml (letters, digits, . _ -, ending .yml or .yaml), not ${JSON.stringify(name)}`);
  }
  return name;
}

export async function selectArtifact(api: GitHubApi, query: ArtifactQuery): Promise<ArtifactSelection> {
  const repo = await api.get<Repository>(`repos/${query.repository}`, `reading repository ${query.repository}`);
  const defaultBranch = repo.default_branch;
  // git/ref/heads/… names a branch only; a tag of the same name cannot answer.
  const head = await api.get<{ object?: { sha?: string } }>(`repos/${query.repository}/git/ref/heads/${branchPath(defaultBranch)}`, `reading the head of refs/heads/${defaultBranch}`);
  const tipSha = head.object?.sha;
  if (typeof tipSha !== 'string' || !/^[0-9a-f]{40}$/.test(tipSha)) throw new UserError(`GitHub gave no commit for refs/heads/${defaultBranch}`);

  const skipped: string[] = [];
  const checkedRuns = new Map<number, string | undefined>();
  for await (const artifact of artifactsNamed(api, query)) {
    const runId = artifact.workflow_run?.id;
    const label = `artifact ${artifact.id} of run ${runId ?? 'unknown'}`;
    const refusal = artifactRefusal(artifact, query) ?? recordRefusal(artifact, repo);
    if (refusal !== undefined) {
      skipped.push(`${label}: ${refusal}`);
      continue;
    }
    const run = await api.get<Run>(`repos/${query.repository}/actions/runs/${runId}`, `reading run ${runId}`);
    const runRefusal = checkedRuns.has(run.id) ? checkedRuns.get(run.id) : await runRefusalOf(api, run, repo, tipSha, query);
    checkedRuns.set(run.id, runRefusal);
    const refused = runRefusal ?? (artifact.workflow_run?.head_sha !== run.head_sha ? 'its record names another commit than its run' : undefined);
    if (refused !== undefined) {
      skipped.push(`${label}: ${refused}`);
      continue;
    }
    const accepted = { artifactId: artifact.id, runId: run.id, workflow: workflowFile(run.path) ?? run.path, event: run.event, headSha: run.head_sha, sizeInBytes: artifact.size_in_bytes };
    return { accepted, skipped, defaultBranch };
  }
  return { skipped, defaultBranch };
}

/**
 * The artifacts of the name, newest first, a page at a time (the search stops at the first one
 * accepted). A last page that is full means more exist: that is an error, not "none".
 */
async function* artifactsNamed(api: GitHubApi, query: ArtifactQuery): AsyncGenerator<Artifact> {
  for (let page = 1; page <= MAX_ARTIFACT_PAGES; page += 1) {
    const answer = await api.get<{ artifacts?: unknown }>(`repos/${query.repository}/actions/artifacts`, `listing artifacts named ${query.name}`, {
      name: query.name, per_page: String(ARTIFACTS_PER_PAGE), page: String(page),
    });
    if (!Array.isArray(answer.artifacts)) throw new UserError(`listing artifacts named ${query.name} failed: GitHub answered something other than a list`);
    yield* answer.artifacts as Artifact[];
    if (answer.artifacts.length < ARTIFACTS_PER_PAGE) return;
  }
  throw new UserError(
    `the newest ${MAX_ARTIFACT_PAGES * ARTIFACTS_PER_PAGE} artifacts named ${query.name} hold none from a trusted run, and there are more: ` +
      'botrules will not conclude that there is none (--optional does not apply)',
    ['Someone may be uploading artifacts of this name from pull requests: look at the repository\'s recent runs.'],
  );
}

/** What the artifact's own record of its run already refuses, without asking for the run. */
function recordRefusal(artifact: Artifact, repo: Repository): string | undefined {
  const run = artifact.workflow_run;
  if (typeof run?.head_repository_id === 'number' && run.head_repository_id !== repo.id) return `its head repository is another (id ${run.head_repository_id}), not ${repo.full_name}`;
  if (typeof run?.head_branch === 'string' && run.head_branch !== repo.default_branch) return `it ran for ${run.head_branch}, not ${repo.default_branch}`;
  return undefined;
}

function artifactRefusal(artifact: Artifact, query: ArtifactQuery): string | undefined {
  if (artifact.name !== query.name) return `named ${JSON.stringify(artifact.name)}, not ${JSON.stringify(query.name)}`;
  if (artifact.expired) return 'expired';
  if (typeof artifact.workflow_run?.id !== 'number') return 'GitHub names no run for it';
  if (artifact.workflow_run.id === query.excludeRunId) return 'written by this run';
  if (typeof artifact.size_in_bytes !== 'number' || artifact.size_in_bytes > query.maxBytes) {
    return `${artifact.size_in_bytes} bytes, more than the ${query.maxBytes} allowed`;
  }
  return undefined;
}

/** Why the run's artifacts cannot be trusted, or undefined when they can. */
async function runRefusalOf(api: GitHubApi, run: Run, repo: Repository, tipSha: string, query: ArtifactQuery): Promise<string | undefined> {
  if (!TRUSTED_EVENTS.includes(run.event)) return `started by ${run.event} (only ${TRUSTED_EVENTS.join(', ')} runs are trusted)`;
  if (run.repository?.id !== repo.id) return 'the run belongs to another repository';
  if (run.head_repository?.id !== repo.id) return `its head repository is ${run.head_repository?.full_name ?? 'unknown'}, not ${repo.full_name}`;
  const workflow = workflowFile(run.path);
  if (workflow === undefined || !query.workflows.includes(workflow)) return `written by ${run.path}, not by ${query.workflows.join(' or ')}`;
  // A run of another branch whose commits were merged later would pass the history check
  // below with whatever that branch's workflow wrote; a tag's run may also say this name, and
  // the history check refuses it unless the tag is a commit of the branch.
  if (run.head_branch !== repo.default_branch) return `it ran for ${run.head_branch ?? 'no branch'}, not ${repo.default_branch}`;
  if (typeof run.head_sha !== 'string' || !/^[0-9a-f]{40}$/.test(run.head_sha)) return 'the run names no head commit';
  if (!(await reachable(api, query.repository, run.head_sha, tipSha))) {
    return `its commit ${run.head_sha} is not in the history of refs/heads/${repo.default_branch}`;
  }
  return undefined;
}

/** `.github/workflows/NAME` exactly, or undefined for any other path (dynamic runs, subfolders). */
function workflowFile(path: string): string | undefined {
  const match = /^\.github\/workflows\/([^/]+)$/.exec(path);
  return match?.[1];
}

/** Whether `sha` is the tip or one of its ancestors: compare tip against it, by SHA on both sides. */
async function reachable(api: GitHubApi, repository: string, sha: string, tipSha: string): Promise<boolean> {
  if (sha === tipSha) return true;
  let comparison: { status?: string; merge_base_commit?: { sha?: string } };
  try {
    comparison = await api.get(`repos/${repository}/compare/${sha}...${tipSha}`, `comparing ${sha} with the default branch`, { per_page: '1' });
  } catch (error) {
    // 404: a commit this repository does not have; 422: no common history.
    if (error instanceof RemoteError && (error.status === 404 || error.status === 422)) return false;
    throw error;
  }
  return comparison.status === 'ahead' && comparison.merge_base_commit?.sha === sha;
}
