// The drift pull-request workflow (examples/github-workflows/drift-pr.yml): which job holds
// which token, and — end to end — the detect job's hand-off and the propose job's script run
// as bash against a real git repository with a bare "GitHub" remote, the real CLI against the
// emulator, and a stand-in `gh` that records the API calls. Merging the proposed branch leaves
// nothing to apply; a patch that reaches outside the rules directory is refused.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/temp.js';
import { lettered, rule } from '../apply/fixtures.js';
import { mapAt, readYamlFile, type YamlMap } from './workflow-files.js';
import { runJob, type StepRecord } from './workflow-run.js';

const WORKFLOW = readYamlFile('examples/github-workflows/drift-pr.yml');
const JOBS = mapAt(WORKFLOW.data, 'jobs');
const DETECT = mapAt(JOBS, 'detect');
const PROPOSE = mapAt(JOBS, 'propose');
const stepsOf = (job: YamlMap) => job.steps as YamlMap[];
const KEEP = stepsOf(DETECT).find((s) => s.name === 'Keep the drift for the propose job') as YamlMap;
const PROPOSE_STEP = stepsOf(PROPOSE).find((s) => s.name === 'Open, update or close the drift pull request') as YamlMap;
const PROPOSE_SCRIPT = String(PROPOSE_STEP.run);

describe('the drift pull-request workflow', () => {
  it('runs on a schedule for the default branch only, one run at a time', () => {
    expect(Object.keys(mapAt(WORKFLOW.data, 'on')).sort()).toEqual(['schedule', 'workflow_dispatch']);
    for (const id of ['apps', 'detect']) expect(String(mapAt(JOBS, id).if)).toContain('github.ref_name == github.event.repository.default_branch');
    expect(mapAt(WORKFLOW.data, 'concurrency')['cancel-in-progress']).toBe(false);
  });

  it('keeps the rules token in the production environment, with a read-only workflow token', () => {
    expect(DETECT.environment).toBe('production');
    expect(mapAt(DETECT, 'permissions')).toEqual({ contents: 'read' });
    const imports = stepsOf(DETECT).filter((s) => mapAt(s, 'with').command === 'import');
    expect(imports.map((s) => mapAt(s, 'with').args)).toEqual(['--update --prune']);
  });

  it('proposes with no secret and exactly the write permissions a pull request needs', () => {
    expect(JSON.stringify(PROPOSE)).not.toMatch(/\bsecrets\b/);
    expect(PROPOSE.environment).toBeUndefined();
    expect(mapAt(PROPOSE, 'permissions')).toEqual({ contents: 'write', 'pull-requests': 'write', issues: 'write' });
    expect(mapAt(PROPOSE_STEP, 'env').GH_TOKEN).toBe('${{ github.token }}');
    // Untrusted values reach the script through env:, never as ${{ }} text inside it.
    expect(PROPOSE_SCRIPT).not.toContain('${{');
    expect(String(KEEP.run)).not.toContain('${{');
  });

  it('finds its own pull request by branch, exact bot login and label, and checks the patch before applying it', () => {
    expect(PROPOSE_SCRIPT).toContain('branch="botrules/drift-$APP"');
    expect(PROPOSE_SCRIPT).toContain("BOT='github-actions[bot]'");
    expect(PROPOSE_SCRIPT).toContain('jq -r --arg bot "$BOT" --arg branch "$branch" --arg wanted "$LABEL"');
    expect(PROPOSE_SCRIPT).toContain("select(.user.login == $bot and .head.ref == $branch and any(.labels[]; .name == $wanted))");
    expect(PROPOSE_SCRIPT.indexOf('/commits/$DEFAULT_BRANCH')).toBeLessThan(PROPOSE_SCRIPT.indexOf('git apply --index'));
    expect(PROPOSE_SCRIPT.indexOf('git apply --numstat')).toBeLessThan(PROPOSE_SCRIPT.indexOf('git apply --index'));
    expect(PROPOSE_SCRIPT.indexOf('git apply --summary')).toBeLessThan(PROPOSE_SCRIPT.indexOf('git apply --index'));
  });
});

describe('drift to pull request, end to end', () => {
  let emu: TestEmulator;
  let root: string;
  let origin: string;
  let work: string;

  beforeEach(async () => {
    emu = await startTestEmulator({ seedRules: lettered(3) });
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

  afterEach(() => emu.close());

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
      context: { 'matrix.app': 'default', 'matrix.tokenEnv': 'BOTRULES_TOKEN', 'secrets[matrix.tokenEnv]': emu.env.BOTRULES_TOKEN ?? '', 'runner.temp': runnerTemp },
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

  /** What the propose job does, in a fresh checkout, with a stand-in gh answering `openPr`. */
  function propose(drift: string, openPr = '', tip = '', rulesDir = 'rules'): { status: number | null; stdout: string; stderr: string; gh: string[]; checkout: string; runnerTemp: string } {
    const checkout = path.join(root, `propose-${Math.random().toString(36).slice(2)}`);
    git(root, 'clone', '--quiet', origin, checkout);
    const mainSha = git(checkout, 'rev-parse', 'HEAD');
    const bin = path.join(root, 'bin');
    mkdirSync(bin, { recursive: true });
    const log = path.join(root, 'gh.log');
    writeFileSync(log, '');
    writeFileSync(path.join(bin, 'gh'), [
      '#!/bin/sh',
      `printf '%s\\n' "$*" >> "${log}"`,
      `case "$*" in *"pulls?state=open"*) printf '%s\\n' '${openPullRequests(openPr)}' ;; */commits/*) echo "${tip || mainSha}" ;; *"/pulls -f title="*) echo 7 ;; esac`,
    ].join('\n'));
    chmodSync(path.join(bin, 'gh'), 0o755);
    // The runner's temp directory holds what download-artifact wrote.
    const runnerTemp = path.join(root, `runner-${path.basename(checkout)}`);
    mkdirSync(runnerTemp);
    spawnSync('cp', ['-R', drift, path.join(runnerTemp, 'drift')]);
    const result = bash(PROPOSE_SCRIPT, checkout, {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      GH_TOKEN: 'workflow-token',
      APP: 'default',
      RULES_DIR: rulesDir,
      DEFAULT_BRANCH: 'main',
      RUN_URL: 'https://github.example/run/1',
      RUNNER_TEMP: runnerTemp,
      GITHUB_REPOSITORY: 'acme/rules',
      GITHUB_SHA: mainSha,
    });
    return { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr), gh: readFileSync(log, 'utf8').trim().split('\n').filter(Boolean), checkout, runnerTemp };
  }

  it('opens a pull request whose branch declares the live rules: merged, apply has nothing to do', async () => {
    const live = emu.emulator.rules();
    emu.emulator.replaceRules([live[0], { ...(live[1] as (typeof live)[number]), status: 'paused' }, rule('Added in the console'), live[2]] as typeof live);
    const { drift, records } = await detect();
    expectGreen(records);
    expect(JSON.parse(readFileSync(path.join(drift, 'drift.json'), 'utf8'))).toMatchObject({ app: 'default', drift: true });
    expect(readFileSync(path.join(drift, 'plan.md'), 'utf8')).toMatch(/<b>B<\/b>[\s\S]*-status: paused\n\+status: active/);
    const result = propose(drift);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Opened drift pull request #7 of default');
    expect(result.gh).toEqual([
      'api repos/acme/rules/commits/main --jq .sha',
      'api repos/acme/rules/pulls?state=open&head=acme:botrules/drift-default&per_page=100',
      expect.stringMatching(/^api repos\/acme\/rules\/labels -f name=botrules-drift /),
      expect.stringMatching(/^api repos\/acme\/rules\/pulls -f title=botrules drift: default -f head=botrules\/drift-default -f base=main -F body=@\S+ --jq .number$/),
      'api repos/acme/rules/issues/7/labels -f labels[]=botrules-drift',
    ]);
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
    expect(JSON.parse(readFileSync(path.join(drift, 'drift.json'), 'utf8'))).toMatchObject({ drift: true });
    expect(readFileSync(path.join(drift, 'plan.md'), 'utf8')).toMatch(/^botrules could not plan the rule files of git against the live rules/);
    const result = propose(drift);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Opened drift pull request #7 of default');
    const merged = path.join(root, 'merged');
    git(root, 'clone', '--quiet', '--branch', 'botrules/drift-default', origin, merged);
    expect(git(merged, 'diff', '--no-renames', '--name-status', 'origin/main', 'HEAD').split('\n').sort()).toEqual(['D\trules/010-a.yaml', 'M\trules/020-b.yaml']);
    expect((await runCli(['plan', '--detailed-exitcode'], { cwd: merged, env: emu.env })).code).toBe(0);
  });

  it('updates its open pull request instead of opening another', async () => {
    const live = emu.emulator.rules();
    emu.emulator.replaceRules([live[0], { ...(live[1] as (typeof live)[number]), description: 'Changed at 3 a.m.' }, live[2]] as typeof live);
    const result = propose((await detect()).drift, '12');
    expect(result.status).toBe(0);
    expect(result.gh.slice(2)).toEqual([expect.stringMatching(/^api -X PATCH repos\/acme\/rules\/pulls\/12 -F body=@/)]);
  });

  it('accepts a rulesDir written as ./rules/ in botrules.yaml', async () => {
    const live = emu.emulator.rules();
    emu.emulator.replaceRules([live[0], { ...(live[1] as (typeof live)[number]), description: 'Changed at 3 a.m.' }, live[2]] as typeof live);
    const result = propose((await detect()).drift, '12', '', './rules/');
    expect(result.stdout).not.toContain('refused');
    expect(result.status).toBe(0);
  });

  it('closes its pull request and deletes the branch once the live rules match git again', async () => {
    const result = propose((await detect()).drift, '12');
    expect(result.status).toBe(0);
    expect(result.gh.slice(2)).toEqual([
      expect.stringMatching(/^api repos\/acme\/rules\/issues\/12\/comments -f body=The live rules of `default` match git again/),
      'api -X PATCH repos/acme/rules/pulls/12 -f state=closed',
      'api -X DELETE repos/acme/rules/git/refs/heads/botrules/drift-default',
    ]);
  });

  it('leaves a run that is no longer the tip of the default branch to the newer run, pushing nothing', async () => {
    const live = emu.emulator.rules();
    emu.emulator.replaceRules([live[0], { ...(live[1] as (typeof live)[number]), status: 'paused' }, live[2]] as typeof live);
    const result = propose((await detect()).drift, '', 'f'.repeat(40));
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`is no longer the tip of main (${'f'.repeat(40)}): a newer run proposes.`);
    expect(result.gh).toEqual(['api repos/acme/rules/commits/main --jq .sha']);
    expect(git(root, '--git-dir', origin, 'branch', '--list', 'botrules/*')).toBe('');
  });

  it('cuts a plan too long for a pull-request body on a character, with a note', async () => {
    const live = emu.emulator.rules();
    emu.emulator.replaceRules([live[0], { ...(live[1] as (typeof live)[number]), status: 'paused' }, live[2]] as typeof live);
    const { drift } = await detect();
    writeFileSync(path.join(drift, 'plan.md'), 'é'.repeat(70_000));
    const result = propose(drift);
    expect(result.status).toBe(0);
    const body = readFileSync(path.join(result.runnerTemp, 'drift-body.md'), 'utf8');
    expect(body.length).toBeLessThan(65_536);
    expect(body).not.toContain('\uFFFD');
    expect(body).toContain(`${'é'.repeat(100)}\n\n*The plan is cut here: a pull-request body holds at most 65,536 characters.`);
  });

  it.each([
    ['a workflow file', (dir: string) => {
      mkdirSync(path.join(dir, '.github', 'workflows'), { recursive: true });
      writeFileSync(path.join(dir, '.github', 'workflows', 'x.yml'), 'on: push\n');
    }, 'is not a rule file under rules/'],
    ['a file outside the rules directory', (dir: string) => writeFileSync(path.join(dir, 'rules.yaml.sh'), 'echo\n'), 'is not a rule file under rules/'],
    ['a symbolic link in the rules directory', (dir: string) => symlinkSync('/etc/passwd', path.join(dir, 'rules', 'link.yaml')), 'changes file modes, links or names'],
  ])('refuses a patch that adds %s, pushing nothing', async (_what, tamper, message) => {
    const live = emu.emulator.rules();
    emu.emulator.replaceRules([live[0], { ...(live[1] as (typeof live)[number]), description: 'Changed' }, live[2]] as typeof live);
    const checkout = path.join(root, 'tampered');
    git(root, 'clone', '--quiet', origin, checkout);
    writeFileSync(path.join(checkout, 'rules', '010-a.yaml'), `${readFileSync(path.join(checkout, 'rules', '010-a.yaml'), 'utf8')}# edited\n`);
    tamper(checkout);
    git(checkout, 'add', '--all');
    const drift = path.join(root, 'tampered-drift');
    mkdirSync(drift);
    writeFileSync(path.join(drift, 'changes.patch'), git(checkout, 'diff', '--cached', '--binary') + '\n');
    writeFileSync(path.join(drift, 'plan.md'), 'plan\n');
    writeFileSync(path.join(drift, 'drift.json'), JSON.stringify({ app: 'default', base: git(checkout, 'rev-parse', 'HEAD'), drift: true }));
    const result = propose(drift);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(message);
    expect(git(root, '--git-dir', origin, 'branch', '--list', 'botrules/*')).toBe('');
  });
});

/** The open pull requests the stand-in gh lists: someone else's on the same branch and label, and ours if `ours` is set. */
function openPullRequests(ours: string): string {
  const pr = (number: number, login: string) => ({ number, user: { login }, head: { ref: 'botrules/drift-default' }, labels: [{ name: 'botrules-drift' }] });
  return JSON.stringify([pr(99, 'mallory'), ...(ours ? [pr(Number(ours), 'github-actions[bot]')] : [])]);
}

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' } });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

function bash(script: string, cwd: string, env: Record<string, string>): ReturnType<typeof spawnSync> {
  return spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', GIT_CONFIG_NOSYSTEM: '1', ...env },
  });
}
