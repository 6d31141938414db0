// `botrules github artifact` against a fake GitHub API over HTTPS: which artifact a
// privileged job may consume. Only a push, schedule or manual run of this repository, of one
// of the named workflow files, whose commit is in the history of refs/heads/<default> (asked
// for by that full name, compared by SHA) qualifies; the rest are passed over, each with why.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { FORK, REPO, sha, startFakeGitHub, type FakeArtifact, type FakeGitHub, type FakeRun } from './fake-github.js';

const NAME = 'botrules-live-snapshot-shop';
const WORKFLOWS = ['--workflow', 'botrules-apply.yml', '--workflow', 'botrules-drift.yml'];
const [C1, C2, C3, TAGGED, FORKED] = [sha('c1'), sha('c2'), sha('c3'), sha('tag'), sha('fork')];
const own = { id: REPO.id, full_name: REPO.full_name };

let github: FakeGitHub;
let outputFile: string;

beforeEach(async () => {
  github = await startFakeGitHub();
  // main: C1 ← C2 ← C3; a tag named main points at TAGGED (off C1); a fork's commit FORKED (off C2).
  github.commits.set(C1, []).set(C2, [C1]).set(C3, [C2]).set(TAGGED, [C1]).set(FORKED, [C2]);
  github.heads.set('main', C3);
  github.tags.set('main', TAGGED);
  outputFile = path.join(tempDir('botrules-github-output-'), 'output');
  writeFileSync(outputFile, '');
});

afterEach(() => github.close());

let nextId = 1;
/** A run and its artifact, listed after (so older than) those added before. */
function addRun(run: Partial<FakeRun>, artifact: Partial<FakeArtifact> = {}): number {
  const id = (nextId += 1);
  const full: FakeRun = { id, event: 'push', path: '.github/workflows/botrules-apply.yml', head_sha: C2, head_branch: 'main', repository: own, head_repository: own, ...run };
  github.runs.set(id, full);
  github.artifacts.push({ id: id * 10, name: NAME, size_in_bytes: 2048, expired: false, workflow_run: { id, head_sha: full.head_sha, head_branch: full.head_branch }, ...artifact });
  return id;
}

const pick = (extra: string[] = [], env: Record<string, string> = {}) =>
  runCli(['github', 'artifact', '--name', NAME, ...WORKFLOWS, ...extra], { env: { ...github.env, GITHUB_OUTPUT: outputFile, ...env } });

const outputs = () => readFileSync(outputFile, 'utf8');

/** The four runs whose artifacts a privileged job must never consume, and the line each is passed over with. */
const HOSTILE: [string, Partial<FakeRun>, (id: number) => string][] = [
  ['a fork\'s pull request on a branch named main', { event: 'pull_request', head_sha: FORKED, head_repository: FORK },
    (id) => `Passed over artifact ${id * 10} of run ${id}: started by pull_request (only push, schedule, workflow_dispatch runs are trusted)`],
  ['a push from a fork (a run whose head repository is another)', { head_sha: FORKED, head_repository: FORK },
    (id) => `Passed over artifact ${id * 10} of run ${id}: its head repository is mallory/rules, not acme/rules`],
  ['a pull_request_target run of this repository', { event: 'pull_request_target' },
    (id) => `Passed over artifact ${id * 10} of run ${id}: started by pull_request_target (only push, schedule, workflow_dispatch runs are trusted)`],
  ['a push of a tag named like the default branch', { head_sha: TAGGED, head_branch: 'main' },
    (id) => `Passed over artifact ${id * 10} of run ${id}: its commit ${TAGGED} is not in the history of refs/heads/main`],
  ['a push to another branch whose commit was merged into main later', { head_sha: C2, head_branch: 'feature' },
    (id) => `Passed over artifact ${id * 10} of run ${id}: it ran for feature, not main`],
  ['another workflow file', { path: '.github/workflows/botrules-apply-copy.yml', head_sha: C3 },
    (id) => `Passed over artifact ${id * 10} of run ${id}: written by .github/workflows/botrules-apply-copy.yml, not by botrules-apply.yml or botrules-drift.yml`],
  ['a workflow file whose name holds an allowed one after a space', { path: '.github/workflows/x botrules-apply.yml' },
    (id) => `Passed over artifact ${id * 10} of run ${id}: written by .github/workflows/x botrules-apply.yml, not by botrules-apply.yml or botrules-drift.yml`],
  ['a workflow of another folder', { path: '.github/workflows/sub/botrules-apply.yml' },
    (id) => `Passed over artifact ${id * 10} of run ${id}: written by .github/workflows/sub/botrules-apply.yml, not by botrules-apply.yml or botrules-drift.yml`],
];

describe('botrules github artifact', () => {
  it('takes the newest artifact of a trusted run and writes its ids as step outputs', async () => {
    const newest = addRun({ head_sha: C2 });
    addRun({ event: 'schedule', path: '.github/workflows/botrules-drift.yml', head_sha: C1 });
    const result = await pick();
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`Artifact ${NAME} (${newest * 10}, 2048 bytes) of run ${newest}: botrules-apply.yml, push, commit ${C2} on refs/heads/main\n`);
    expect(outputs()).toBe(`found=true\nrun-id=${newest}\nartifact-id=${newest * 10}\n`);
    // Only the workflow token, only to the fake; the branch asked for by its full ref, never a name a tag could answer.
    expect(new Set(github.authorizations)).toEqual(new Set(['Bearer workflow-token-7f3a']));
    expect(github.requests).toContain('GET /repos/acme/rules/git/ref/heads/main');
    expect(github.requests).toContain(`GET /repos/acme/rules/compare/${C2}...${C3}?per_page=1`);
  });

  it.each(HOSTILE)('refuses an artifact from %s', async (_what, run, line) => {
    const id = addRun(run);
    const result = await pick();
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toContain(line(id));
    expect(result.stderr).toContain(`no artifact ${NAME} written by a push, schedule or manual run of botrules-apply.yml or botrules-drift.yml in this repository on the history of refs/heads/main`);
    expect(outputs()).toBe('found=false\n');
  });

  it('passes over every hostile artifact, newest first, and takes the trusted one below them', async () => {
    const ids = HOSTILE.map(([, run]) => addRun(run));
    const trusted = addRun({ event: 'workflow_dispatch', head_sha: C3 });
    const result = await pick();
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n').filter(Boolean)).toEqual(HOSTILE.map(([, , line], i) => line(ids[i] as number)));
    expect(outputs()).toBe(`found=true\nrun-id=${trusted}\nartifact-id=${trusted * 10}\n`);
  });

  it('passes over expired and oversized artifacts, and the current run\'s own', async () => {
    const expired = addRun({}, { expired: true });
    const large = addRun({}, { size_in_bytes: 70 * 1024 * 1024 });
    const current = addRun({});
    const result = await pick(['--exclude-run', String(current), '--optional']);
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n').filter(Boolean)).toEqual([
      `Passed over artifact ${expired * 10} of run ${expired}: expired`,
      `Passed over artifact ${large * 10} of run ${large}: 73400320 bytes, more than the 67108864 allowed`,
      `Passed over artifact ${current * 10} of run ${current}: written by this run`,
      // --optional goes on, but never quietly.
      `warning: no artifact ${NAME} written by a push, schedule or manual run of botrules-apply.yml or botrules-drift.yml in this repository on the history of refs/heads/main; --optional: found=false, and the job goes on without one`,
    ]);
    expect(result.stdout).toBe(`No artifact ${NAME} written by a push, schedule or manual run of botrules-apply.yml or botrules-drift.yml in this repository on the history of refs/heads/main.\n`);
    expect(outputs()).toBe('found=false\n');
  });

  it('refuses an artifact whose record names another commit than its run', async () => {
    const id = addRun({}, { workflow_run: { id: 0, head_sha: C3, head_branch: 'main' } });
    (github.artifacts.at(-1) as FakeArtifact).workflow_run.id = id;
    const result = await pick();
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toContain(`Passed over artifact ${id * 10} of run ${id}: its record names another commit than its run`);
  });

  it('finds the trusted artifact below 300 newer ones of the same name from forks, without a request for each', async () => {
    const trusted = addRun({ event: 'schedule', head_sha: C3 });
    const flood = Array.from({ length: 300 }, (_, i) => ({
      id: 500_000 + i, name: NAME, size_in_bytes: 10, expired: false,
      workflow_run: { id: 600_000 + i, head_sha: FORKED, head_branch: 'main', head_repository_id: FORK.id },
    }));
    // Newest first, as GitHub lists them: the flood above the trusted run's artifact.
    github.artifacts.unshift(...flood);
    const result = await pick(['--optional']);
    expect(result.code).toBe(0);
    expect(outputs()).toBe(`found=true\nrun-id=${trusted}\nartifact-id=${trusted * 10}\n`);
    expect(result.stderr.split('\n')).toContain(`Passed over artifact 500000 of run 600000: its head repository is another (id ${FORK.id}), not acme/rules`);
    expect(github.requests.filter((r) => r.startsWith('GET /repos/acme/rules/actions/runs/'))).toEqual([`GET /repos/acme/rules/actions/runs/${trusted}`]);
  });

  it('stops with an error, even with --optional, when the page limit is reached without a trusted artifact', async () => {
    github.artifacts.push(...Array.from({ length: 5_000 }, (_, i) => ({
      id: 700_000 + i, name: NAME, size_in_bytes: 10, expired: false,
      workflow_run: { id: 800_000 + i, head_sha: C3, head_branch: 'pr-branch' },
    })));
    addRun({ event: 'schedule', head_sha: C3 });
    const result = await pick(['--optional']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error: the newest 5000 artifacts named ${NAME} hold none from a trusted run, and there are more: botrules will not conclude that there is none (--optional does not apply)`);
    expect(outputs()).toBe('');
  });

  it('refuses to run where a rules token is in scope, before any request', async () => {
    addRun({});
    const result = await pick([], { BOTRULES_TOKEN_SHOP: 'rules-token' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('botrules github talks to GitHub with the workflow token and never runs where a rules token is in scope: BOTRULES_TOKEN_SHOP is set');
    expect(result.stderr).not.toContain('rules-token');
    expect(github.requests).toEqual([]);
  });

  it('takes workflow file names only: no space, no path', async () => {
    const result = await runCli(['github', 'artifact', '--name', NAME, '--workflow', 'a b.yml'], { env: github.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--workflow takes a workflow file name such as botrules-apply.yml (letters, digits, . _ -, ending .yml or .yaml), not "a b.yml"');
    expect(github.requests).toEqual([]);
  });
});
