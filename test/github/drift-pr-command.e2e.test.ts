// `botrules github drift-pr` (the propose job of drift-pr.yml) against a fake GitHub API over
// HTTPS and real git: a bare "origin", a checkout of main, and a drift patch made the way the
// detect job makes it. It opens, updates or closes its own pull request only, pushes nothing
// for a run that is not the tip of refs/heads/main, and refuses a patch that reaches outside
// the app's rules directory.
import { jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { REPO, startFakeGitHub, type FakeGitHub, type FakePull } from './fake-github.js';

// Spawns git some 10 times a test: generous on a loaded 2-core machine (this suite is in the slow project).
jest.setTimeout(120_000);

let github: FakeGitHub;
let root: string;
let origin: string;
let mainSha: string;

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' } });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}
const commit = (cwd: string, message: string) => git(cwd, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '--quiet', '-m', message);

beforeEach(async () => {
  github = await startFakeGitHub();
  root = tempDir('botrules-drift-pr-command-');
  origin = path.join(root, 'origin.git');
  const work = path.join(root, 'work');
  git(root, 'init', '--quiet', '--bare', '--initial-branch=main', origin);
  git(root, 'clone', '--quiet', origin, work);
  mkdirSync(path.join(work, 'rules'));
  writeFileSync(path.join(work, 'rules', '010-a.yaml'), 'rules:\n  # Why A exists\n  - name: A\n');
  writeFileSync(path.join(work, 'rules', '020-b.yaml'), 'rules:\n  - name: B\n');
  git(work, 'add', '--all');
  commit(work, 'rules');
  git(work, 'push', '--quiet', 'origin', 'main');
  mainSha = git(work, 'rev-parse', 'HEAD');
  github.heads.set('main', mainSha);
});

afterEach(() => github.close());

/** The detect job's artifact: the patch of `edit` applied to a clone of main, a plan and the record. */
function driftArtifact(edit: (checkout: string) => void, record: Record<string, unknown> = {}): string {
  const scratch = path.join(root, `detect-${Math.random().toString(36).slice(2)}`);
  git(root, 'clone', '--quiet', origin, scratch);
  edit(scratch);
  git(scratch, 'add', '--all');
  const drift = path.join(root, `drift-${path.basename(scratch)}`);
  mkdirSync(drift);
  const patch = spawnSync('git', ['diff', '--cached', '--binary'], { cwd: scratch, encoding: 'utf8' }).stdout;
  writeFileSync(path.join(drift, 'changes.patch'), patch);
  writeFileSync(path.join(drift, 'plan.md'), 'Plan: 1 to update\n');
  writeFileSync(path.join(drift, 'drift.json'), JSON.stringify({ app: 'default', base: mainSha, drift: patch !== '', ...record }));
  return drift;
}

const pauseB = (checkout: string) => writeFileSync(path.join(checkout, 'rules', '020-b.yaml'), 'rules:\n  - name: B\n    status: paused\n');

async function propose(drift: string, rulesDir = 'rules') {
  const checkout = path.join(root, `propose-${Math.random().toString(36).slice(2)}`);
  git(root, 'clone', '--quiet', origin, checkout);
  const result = await runCli(['github', 'drift-pr', '--app', 'default', '--rules-dir', rulesDir, '--drift', drift, '--run-url', 'https://github.example/run/1'], {
    cwd: checkout,
    env: { ...github.env, GITHUB_SHA: mainSha, GITHUB_SERVER_URL: 'https://github.example' },
  });
  return { ...result, checkout };
}

const driftBranches = () => git(root, '--git-dir', origin, 'branch', '--list', 'botrules/*');
const ourPull = (number: number): FakePull => ({
  number, state: 'open', title: 'botrules drift: default', body: 'old', user: { login: 'github-actions[bot]' },
  head: { ref: 'botrules/drift-default', repo: { full_name: REPO.full_name } }, base: { ref: 'main' }, labels: [{ name: 'botrules-drift' }],
});

describe('botrules github drift-pr', () => {
  it('opens a labelled pull request from one bot commit on main, keeping comments, and leaves no credential behind', async () => {
    const result = await propose(driftArtifact(pauseB));
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('Opened drift pull request #7 of default\n');
    expect(result.code).toBe(0);
    expect(github.pulls).toEqual([expect.objectContaining({ number: 7, title: 'botrules drift: default', head: expect.objectContaining({ ref: 'botrules/drift-default' }), base: { ref: 'main' }, labels: [{ name: 'botrules-drift' }] })]);
    expect(github.pulls[0]?.body.split('\n')).toEqual([
      'The live rules of `default` differ from git ([run](https://github.example/run/1)). This pull request changes the rule files to declare the live rules; merged, the next apply has nothing to do.',
      '',
      'Closed instead, the next apply would undo the console edits with this plan:',
      '',
      'Plan: 1 to update',
      '',
    ]);
    const merged = path.join(root, 'merged');
    git(root, 'clone', '--quiet', '--branch', 'botrules/drift-default', origin, merged);
    expect(git(merged, 'log', '--format=%an <%ae>', 'origin/main..HEAD')).toBe('github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>');
    expect(readFileSync(path.join(merged, 'rules', '020-b.yaml'), 'utf8')).toBe('rules:\n  - name: B\n    status: paused\n');
    expect(readFileSync(path.join(merged, 'rules', '010-a.yaml'), 'utf8')).toContain('# Why A exists\n');
    expect(spawnSync('git', ['config', '--get-regexp', 'extraheader'], { cwd: result.checkout, encoding: 'utf8' }).stdout).toBe('');
    expect(new Set(github.authorizations)).toEqual(new Set(['Bearer workflow-token-7f3a']));
  });

  it('updates its own open pull request, never someone else\'s on the same branch', async () => {
    github.pulls.push({ ...ourPull(5), user: { login: 'mallory' } }, ourPull(12));
    const result = await propose(driftArtifact(pauseB));
    expect(result.stdout).toBe('Updated drift pull request #12 of default\n');
    expect(github.pulls.map((p) => [p.number, p.body.startsWith('The live rules')])).toEqual([[5, false], [12, true]]);
  });

  it('closes its pull request and deletes the branch once the live rules match git again', async () => {
    github.pulls.push(ourPull(12));
    const result = await propose(driftArtifact(() => {}));
    expect(result.stdout).toBe('Closed drift pull request #12 of default and deleted botrules/drift-default\n');
    expect(github.pulls[0]?.state).toBe('closed');
    expect(github.comments.get(12)?.map((c) => c.body)).toEqual(['The live rules of `default` match git again ([run](https://github.example/run/1)): closing.']);
    expect(github.deletedRefs).toEqual(['botrules/drift-default']);
  });

  it('leaves a run that is no longer the tip of refs/heads/main to the newer run, pushing nothing', async () => {
    github.heads.set('main', 'f'.repeat(40));
    const result = await propose(driftArtifact(pauseB));
    expect(result.stdout).toBe(`${mainSha} is no longer the tip of the default branch (${'f'.repeat(40)}): a newer run proposes.\n`);
    expect(result.code).toBe(0);
    expect(github.requests).toEqual(['GET /repos/acme/rules', 'GET /repos/acme/rules/git/ref/heads/main']);
    expect(driftBranches()).toBe('');
  });

  it('refuses a record made from another commit, and warns when there is none', async () => {
    const other = await propose(driftArtifact(pauseB, { base: 'e'.repeat(40) }));
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('the drift record of default was made from another commit or app: refused');
    const none = await propose(path.join(root, 'nowhere'));
    expect(none.code).toBe(0);
    expect(none.stderr).toBe('warning: no drift record for app default (its detect job failed): nothing proposed\n');
    expect(github.requests).toEqual([]);
  });

  it('accepts a rulesDir written as ./rules/', async () => {
    expect((await propose(driftArtifact(pauseB), './rules/')).stdout).toBe('Opened drift pull request #7 of default\n');
  });

  it.each([
    ['a workflow file', (dir: string) => {
      mkdirSync(path.join(dir, '.github', 'workflows'), { recursive: true });
      writeFileSync(path.join(dir, '.github', 'workflows', 'x.yml'), 'on: push\n');
    }, 'the drift patch of default touches a path that is not a rule file under rules/: refused (.github/workflows/x.yml)'],
    ['a file beside the rules directory', (dir: string) => writeFileSync(path.join(dir, 'rules.yaml.sh'), 'echo\n'), 'the drift patch of default touches a path that is not a rule file under rules/: refused (rules.yaml.sh)'],
    ['a file in the rules directory that is no rule file', (dir: string) => writeFileSync(path.join(dir, 'rules', 'run.sh'), 'echo\n'), 'the drift patch of default touches a path that is not a rule file under rules/: refused (rules/run.sh)'],
    ['a symbolic link in the rules directory', (dir: string) => symlinkSync('/etc/passwd', path.join(dir, 'rules', 'link.yaml')), 'the drift patch of default changes file modes, links or names: refused'],
  ])('refuses a patch that adds %s, pushing nothing', async (_what, tamper, message) => {
    const result = await propose(driftArtifact((dir) => {
      pauseB(dir);
      tamper(dir);
    }));
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toContain(`error: ${message}`);
    expect(driftBranches()).toBe('');
    expect(github.pulls).toEqual([]);
  });

  it('refuses a patch to a rule file through a symbolic link to a folder, by its own check, pushing nothing', async () => {
    const work = path.join(root, 'work');
    mkdirSync(path.join(work, 'outside'));
    writeFileSync(path.join(work, 'outside', 'keep'), 'x\n');
    symlinkSync('../outside', path.join(work, 'rules', 'linked'));
    git(work, 'add', '--all');
    commit(work, 'a folder of rules that is a link');
    git(work, 'push', '--quiet', 'origin', 'main');
    mainSha = git(work, 'rev-parse', 'HEAD');
    github.heads.set('main', mainSha);
    const drift = driftArtifact(pauseB);
    // What the detect job could never make from a checkout (git add refuses a path beyond a link), written by hand.
    const patch = [
      'diff --git a/rules/linked/x.yaml b/rules/linked/x.yaml', 'new file mode 100644', 'index 0000000..1b2f7e6', '--- /dev/null', '+++ b/rules/linked/x.yaml', '@@ -0,0 +1 @@', '+rules: []', '',
    ].join('\n');
    writeFileSync(path.join(drift, 'changes.patch'), patch);
    const result = await propose(drift);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toContain('error: the drift patch of default touches a path that goes through a symbolic link (rules/linked): refused (rules/linked/x.yaml)');
    expect(driftBranches()).toBe('');
    expect(github.pulls).toEqual([]);
  });

  it('cuts a plan too long for a pull-request body on a character, with a note', async () => {
    const drift = driftArtifact(pauseB);
    writeFileSync(path.join(drift, 'plan.md'), 'é'.repeat(70_000));
    await propose(drift);
    const body = github.pulls[0]?.body ?? '';
    expect(body.length).toBeLessThan(65_536);
    expect(body.split('\n').slice(-3)).toEqual(['é'.repeat(60_000), '', '*The plan is cut here: a pull-request body holds at most 65,536 characters. The whole plan is in the summary of the [run](https://github.example/run/1).*']);
  });
});
