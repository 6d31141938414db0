// The drift pull-request workflow (examples/github-workflows/drift-pr.yml): which job holds
// which token, and — end to end, in the slow project — the detect job's steps (the action's
// shell step running the real CLI against the emulator, and the hand-off script) and the
// propose job's steps (the action running `botrules github drift-pr` against a fake GitHub
// API, pushing to a bare "GitHub" remote). Merging the proposed branch leaves nothing to apply.
// The propose command's own cases (refused patches, updates, tip checks) are in
// drift-pr-command.e2e.test.ts and drift-patch.test.ts.
import { jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/temp.js';
import { lettered, rule } from '../apply/fixtures.js';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';
import { mapAt, readYamlFile, type YamlMap } from './workflow-files.js';
import { runJob, type StepRecord } from './workflow-run.js';

// Spawns git, bash and the CLI dozens of times a test: generous on a loaded 2-core machine.
jest.setTimeout(180_000);

const WORKFLOW = readYamlFile('examples/github-workflows/drift-pr.yml');
const JOBS = mapAt(WORKFLOW.data, 'jobs');
const DETECT = mapAt(JOBS, 'detect');
const PROPOSE = mapAt(JOBS, 'propose');
const stepsOf = (job: YamlMap) => job.steps as YamlMap[];
const KEEP = stepsOf(DETECT).find((s) => s.name === 'Keep the drift for the propose job') as YamlMap;
const PROPOSE_STEP = stepsOf(PROPOSE).find((s) => s.name === 'Open, update or close the drift pull request') as YamlMap;
const SCHEDULED_OR_DEFAULT_BRANCH = "github.event_name == 'schedule' || github.ref == format('refs/heads/{0}', github.event.repository.default_branch)";

describe('the drift pull-request workflow', () => {
  it('runs on a schedule for the default branch only, one run at a time', () => {
    expect(Object.keys(mapAt(WORKFLOW.data, 'on')).sort()).toEqual(['schedule', 'workflow_dispatch']);
    for (const id of ['apps', 'detect']) expect(mapAt(JOBS, id).if).toBe(SCHEDULED_OR_DEFAULT_BRANCH);
    expect(mapAt(WORKFLOW.data, 'concurrency')['cancel-in-progress']).toBe(false);
  });

  it('keeps each app\'s rules token in its own environment, with a read-only workflow token', () => {
    expect(DETECT.environment).toBe('${{ matrix.environment }}');
    expect(mapAt(DETECT, 'permissions')).toEqual({ contents: 'read' });
    const imports = stepsOf(DETECT).filter((s) => mapAt(s, 'with').command === 'import');
    expect(imports.map((s) => mapAt(s, 'with').args)).toEqual(['--update --prune']);
  });

  it('proposes with no secret, exactly the write permissions a pull request needs, through botrules github drift-pr', () => {
    expect(JSON.stringify(PROPOSE)).not.toMatch(/\bsecrets\b/);
    expect(PROPOSE.environment).toBeUndefined();
    expect(mapAt(PROPOSE, 'permissions')).toEqual({ contents: 'write', 'pull-requests': 'write', issues: 'write' });
    expect(mapAt(PROPOSE_STEP, 'env')).toEqual({ GH_TOKEN: '${{ github.token }}' });
    expect(mapAt(PROPOSE_STEP, 'with')).toEqual({
      command: 'github-drift-pr',
      args: '--app ${{ matrix.app }} --rules-dir ${{ matrix.rulesDir }} --drift ${{ runner.temp }}/drift --run-url ${{ github.server_url }}/${{ github.repository }}/actions/runs/${{ github.run_id }}',
    });
    // No jq, gh or git logic left in the propose job.
    expect(stepsOf(PROPOSE).filter((s) => typeof s.run === 'string')).toEqual([]);
    expect(String(KEEP.run)).not.toContain('${{');
  });
});

describe('drift to pull request, end to end', () => {
  let emu: TestEmulator;
  let github: FakeGitHub;
  let root: string;
  let origin: string;
  let work: string;

  beforeEach(async () => {
    emu = await startTestEmulator({ seedRules: lettered(3) });
    github = await startFakeGitHub();
    root = tempDir('botrules-drift-pr-');
    origin = path.join(root, 'origin.git');
    work = path.join(root, 'work');
    git(root, 'init', '--quiet', '--bare', '--initial-branch=main', origin);
    git(root, 'clone', '--quiet', origin, work);
    expect((await runCli(['import'], { cwd: work, env: emu.env })).code).toBe(0);
    writeFileSync(path.join(work, 'rules', '020-b.yaml'), readFileSync(path.join(work, 'rules', '020-b.yaml'), 'utf8').replace('rules:\n', 'rules:\n  # Why B exists: ticket 42\n'));
    git(work, 'add', '--all');
    git(work, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '--quiet', '-m', 'rules');
    git(work, 'push', '--quiet', 'origin', 'main');
  });

  afterEach(async () => {
    await emu.close();
    await github.close();
  });

  /**
   * The detect job's own steps in a fresh clone of main: the action's shell step running the
   * real CLI (plan, import --update --prune, live) and the hand-off script; uploads are copies.
   */
  async function detect(): Promise<{ drift: string; records: StepRecord[] }> {
    const checkout = path.join(root, `detect-${Math.random().toString(36).slice(2)}`);
    git(root, 'clone', '--quiet', origin, checkout);
    const runnerTemp = path.join(root, `runner-${path.basename(checkout)}`);
    const artifacts = path.join(root, `artifacts-${path.basename(checkout)}`);
    mkdirSync(runnerTemp);
    const records = await runJob(stepsOf(DETECT), {
      cwd: checkout,
      // The token reaches the steps only as the workflow gives it: through the secret.
      context: { 'matrix.app': 'default', 'matrix.tokenEnv': 'BOTRULES_TOKEN', 'secrets.BOTRULES_TOKEN': emu.env.BOTRULES_TOKEN ?? '', 'runner.temp': runnerTemp },
      env: {
        PATH: process.env.PATH ?? '',
        HOME: root,
        GIT_CONFIG_NOSYSTEM: '1',
        RUNNER_TEMP: runnerTemp,
        GITHUB_SHA: git(checkout, 'rev-parse', 'HEAD'),
        BOTRULES_CONSOLE_URL: emu.env.BOTRULES_CONSOLE_URL ?? '',
        NODE_EXTRA_CA_CERTS: emu.env.NODE_EXTRA_CA_CERTS ?? '',
      },
      otherAction: (step, given) => {
        if (String(step.uses).startsWith('actions/checkout@')) return true;
        if (!String(step.uses).startsWith('actions/upload-artifact@')) return false;
        const into = path.join(artifacts, given.name ?? '');
        mkdirSync(into, { recursive: true });
        const from = given.path ?? '';
        cpSync(from, statSync(from).isDirectory() ? into : path.join(into, path.basename(from)), { recursive: true });
        return true;
      },
    });
    return { drift: path.join(artifacts, 'botrules-drift-pr-default'), records };
  }

  /** Every step of the job ran green, but for those named (which may fail and let the job go on). */
  const expectGreen = (records: StepRecord[], mayFail: string[] = []) =>
    expect(records.filter((r) => !r.skipped && r.result?.status !== 0 && !mayFail.includes(r.id)).map((r) => [r.id, r.result])).toEqual([]);

  /** The propose job's steps in a fresh checkout of main: the download is a copy, the action runs the real CLI against the fake GitHub. */
  async function propose(drift: string): Promise<StepRecord[]> {
    const checkout = path.join(root, `propose-${Math.random().toString(36).slice(2)}`);
    git(root, 'clone', '--quiet', origin, checkout);
    const mainSha = git(checkout, 'rev-parse', 'HEAD');
    github.heads.set('main', mainSha);
    const runnerTemp = path.join(root, `runner-${path.basename(checkout)}`);
    mkdirSync(runnerTemp);
    return runJob(stepsOf(PROPOSE), {
      cwd: checkout,
      context: {
        'matrix.app': 'default', 'matrix.rulesDir': 'rules', 'runner.temp': runnerTemp, 'github.token': github.env.GH_TOKEN ?? '',
        'github.server_url': 'https://github.example', 'github.repository': 'acme/rules', 'github.run_id': '1',
      },
      env: {
        PATH: process.env.PATH ?? '', HOME: root, GIT_CONFIG_NOSYSTEM: '1', RUNNER_TEMP: runnerTemp, GITHUB_SHA: mainSha,
        GITHUB_REPOSITORY: 'acme/rules', GITHUB_SERVER_URL: 'https://github.example', GITHUB_API_URL: github.env.GITHUB_API_URL ?? '',
        NODE_EXTRA_CA_CERTS: github.env.NODE_EXTRA_CA_CERTS ?? '',
      },
      otherAction: (step, given) => {
        if (String(step.uses).startsWith('actions/checkout@')) return true;
        if (!String(step.uses).startsWith('actions/download-artifact@')) return false;
        cpSync(drift, given.path ?? '', { recursive: true });
        return true;
      },
    });
  }

  const proposeStep = (records: StepRecord[]) => records.find((r) => !r.skipped && r.result?.stdout.includes('drift pull request'))?.result;

  it('opens a pull request whose branch declares the live rules: merged, apply has nothing to do', async () => {
    const live = emu.emulator.rules();
    emu.emulator.replaceRules([live[0], { ...(live[1] as (typeof live)[number]), status: 'paused' }, rule('Added in the console'), live[2]] as typeof live);
    const { drift, records } = await detect();
    expectGreen(records);
    expect(JSON.parse(readFileSync(path.join(drift, 'drift.json'), 'utf8'))).toMatchObject({ app: 'default', drift: true });
    expect(readFileSync(path.join(drift, 'plan.md'), 'utf8')).toMatch(/<b>B<\/b>[\s\S]*-status: paused\n\+status: active/);
    const proposed = await propose(drift);
    expectGreen(proposed);
    expect(proposeStep(proposed)?.stdout.split('\n')).toContain('Opened drift pull request #7 of default');
    expect(github.pulls.map((p) => [p.number, p.title, p.head.ref, p.base.ref, p.labels])).toEqual([[7, 'botrules drift: default', 'botrules/drift-default', 'main', [{ name: 'botrules-drift' }]]]);
    expect(github.pulls[0]?.body).toMatch(/^The live rules of `default` differ from git \(\[run\]\(https:\/\/github\.example\/acme\/rules\/actions\/runs\/1\)\)\./);
    // The pushed branch: one commit by the bot on top of main, comments kept.
    const merged = path.join(root, 'merged');
    git(root, 'clone', '--quiet', '--branch', 'botrules/drift-default', origin, merged);
    expect(git(merged, 'log', '--format=%an', 'origin/main..HEAD')).toBe('github-actions[bot]');
    expect(readFileSync(path.join(merged, 'rules', '020-b.yaml'), 'utf8')).toContain('# Why B exists: ticket 42\n');
    expect(git(merged, 'diff', '--stat', 'origin/main', 'HEAD')).toMatch(/2 files changed/);
    expect((await runCli(['plan', '--detailed-exitcode'], { cwd: merged, env: emu.env })).code).toBe(0);
  });

  it('brings a rule deleted in the console back too: the plan fails, the pull request still comes', async () => {
    const live = emu.emulator.rules();
    emu.emulator.replaceRules([{ ...(live[1] as (typeof live)[number]), status: 'paused' }, live[2]] as typeof live);
    const { drift, records } = await detect();
    expect(records.find((r) => r.id === 'plan')?.result?.stderr).toContain('does not exist live');
    expectGreen(records, ['plan']);
    expect(readFileSync(path.join(drift, 'plan.md'), 'utf8')).toMatch(/^botrules could not plan the rule files of git against the live rules/);
    const proposed = await propose(drift);
    expectGreen(proposed);
    expect(proposeStep(proposed)?.stdout.split('\n')).toContain('Opened drift pull request #7 of default');
    const merged = path.join(root, 'merged');
    git(root, 'clone', '--quiet', '--branch', 'botrules/drift-default', origin, merged);
    expect(git(merged, 'diff', '--no-renames', '--name-status', 'origin/main', 'HEAD').split('\n').sort()).toEqual(['D\trules/010-a.yaml', 'M\trules/020-b.yaml']);
    expect((await runCli(['plan', '--detailed-exitcode'], { cwd: merged, env: emu.env })).code).toBe(0);
  });

  it('closes its pull request and deletes the branch once the live rules match git again', async () => {
    github.pulls.push({
      number: 12, state: 'open', title: 'botrules drift: default', body: 'old', user: { login: 'github-actions[bot]' },
      head: { ref: 'botrules/drift-default', repo: { full_name: 'acme/rules' } }, base: { ref: 'main' }, labels: [{ name: 'botrules-drift' }],
    });
    const proposed = await propose((await detect()).drift);
    expectGreen(proposed);
    expect(proposeStep(proposed)?.stdout.split('\n')).toContain('Closed drift pull request #12 of default and deleted botrules/drift-default');
    expect(github.pulls[0]?.state).toBe('closed');
    expect(github.deletedRefs).toEqual(['botrules/drift-default']);
  });
});

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' } });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}
