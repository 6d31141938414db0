// The workflows for teams that will not host an action (examples/github-workflows/npx/): the
// rules repository commits botrules' packed tarball, installs it with `npm ci`, and runs
// `npx --no-install botrules`. Here the README's steps make such a repository from this
// checkout's `npm pack`, and the apply workflow's job runs as the runner would run it against
// the emulator: the install step for real, checkout and uploads as copies, and `gh` (which only
// answers what the tip of the default branch is) as a stand-in.
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/temp.js';
import { lettered } from '../apply/fixtures.js';
import { mapAt, readYamlFile, REPO_ROOT, stepsOf } from './workflow-files.js';
import { runJob } from './workflow-run.js';

const APPLY = readYamlFile('examples/github-workflows/npx/apply.yml');
const PLAN = readYamlFile('examples/github-workflows/npx/plan.yml');

function npm(cwd: string, ...args: string[]): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('the npx workflows: a rules repository that runs the packed tarball', () => {
  let emu: TestEmulator;
  let root: string;
  let rulesRepo: string;

  beforeAll(async () => {
    root = tempDir('botrules-npx-');
    // The README's steps: pack in the botrules checkout, commit the tarball and the lock that
    // `npm install --save-dev --save-exact ./vendor/<tarball>` writes.
    const [packed] = JSON.parse(npm(REPO_ROOT, 'pack', '--json', '--ignore-scripts', '--pack-destination', root)) as { filename: string }[];
    rulesRepo = path.join(root, 'rules-repository');
    mkdirSync(path.join(rulesRepo, 'vendor'), { recursive: true });
    cpSync(path.join(root, packed?.filename ?? ''), path.join(rulesRepo, 'vendor', packed?.filename ?? ''));
    writeFileSync(path.join(rulesRepo, 'package.json'), `${JSON.stringify({ name: 'our-rules', private: true }, null, 2)}\n`);
    npm(rulesRepo, 'install', '--save-dev', '--save-exact', `./vendor/${packed?.filename ?? ''}`, '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund');
    // What the repository holds: the workflow installs node_modules itself.
    rmSync(path.join(rulesRepo, 'node_modules'), { recursive: true });
    emu = await startTestEmulator({ seedRules: lettered(3) });
    expect((await runCli(['import'], { cwd: rulesRepo, env: emu.env })).code).toBe(0);
  });
  afterAll(async () => {
    await emu.close();
  });

  it('declares the tarball, exactly, in package.json', () => {
    const manifest = JSON.parse(readFileSync(path.join(rulesRepo, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(Object.entries(manifest.devDependencies)).toEqual([['botrules', expect.stringMatching(/^file:vendor\/botrules-\d+\.\d+\.\d+\.tgz$/)]]);
  });

  it.each([['apply', APPLY], ['plan', PLAN]] as const)('lists the apps of the %s workflow with the installed botrules (config --json)', async (_name, workflow) => {
    const records = await runJob(stepsOf(workflow).filter((ref) => ref.where.startsWith('jobs.apps.')).map((ref) => ref.step), {
      cwd: rulesRepo,
      context: { 'github.event.pull_request.base.sha': 'b'.repeat(40) },
      env: { PATH: process.env.PATH ?? '', HOME: root, npm_config_prefer_offline: 'true' },
      otherAction: (step) => /^actions\/(checkout|setup-node)@/.test(String(step.uses)),
    });
    // The repository has no botrules.yaml: the one app "default", in the environment production.
    expect(JSON.parse(records.find((r) => r.id === 'list')?.outputs.apps ?? 'null')).toEqual([
      { app: 'default', tokenEnv: 'BOTRULES_TOKEN', environment: 'production', rulesDir: 'rules' },
    ]);
  });

  it('applies what a console edit undid, snapshots the live rules and keeps the undo plan', async () => {
    const live = emu.emulator.rules();
    emu.emulator.replaceRules([live[0], { ...(live[1] as (typeof live)[number]), status: 'paused' }, live[2]] as typeof live);
    const bin = path.join(root, 'bin');
    mkdirSync(bin, { recursive: true });
    // `gh api …/git/ref/heads/main --jq .object.sha`: the commit under test is the tip.
    writeFileSync(path.join(bin, 'gh'), '#!/bin/sh\necho "$GITHUB_SHA"\n');
    chmodSync(path.join(bin, 'gh'), 0o755);
    const artifacts = path.join(root, 'artifacts');
    const runnerTemp = path.join(root, 'runner-temp');
    mkdirSync(runnerTemp, { recursive: true });
    const records = await runJob(stepsOf(APPLY).filter((ref) => ref.where.startsWith('jobs.apply.')).map((ref) => ref.step), {
      cwd: rulesRepo,
      // The apps job's answer for a repository without botrules.yaml.
      context: {
        'matrix.app': 'default',
        'matrix.tokenEnv': 'BOTRULES_TOKEN',
        'secrets.BOTRULES_TOKEN': emu.env.BOTRULES_TOKEN ?? '',
        'github.token': 'workflow-token',
        'github.event.repository.default_branch': 'main',
        'github.run_number': '7',
      },
      env: {
        PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
        HOME: root,
        RUNNER_TEMP: runnerTemp,
        GITHUB_SHA: 'a'.repeat(40),
        GITHUB_REPOSITORY: 'our-org/our-rules',
        // The workflow's env:, with the emulator's console for the example's.
        ...Object.fromEntries(Object.entries(mapAt(APPLY.data, 'env')).map(([name, value]) => [name, String(value)])),
        BOTRULES_CONSOLE_URL: emu.env.BOTRULES_CONSOLE_URL ?? '',
        NODE_EXTRA_CA_CERTS: emu.env.NODE_EXTRA_CA_CERTS ?? '',
        npm_config_prefer_offline: 'true',
      },
      otherAction: (step, given) => {
        const uses = String(step.uses);
        if (/^actions\/(checkout|setup-node)@/.test(uses)) return true;
        if (!uses.startsWith('actions/upload-artifact@')) return false;
        mkdirSync(path.join(artifacts, given.name ?? ''), { recursive: true });
        cpSync(path.join(rulesRepo, given.path ?? ''), path.join(artifacts, given.name ?? '', given.path ?? ''));
        return true;
      },
    });
    expect(records.map((r) => [r.id, r.skipped, r.result?.status])).toEqual([
      ['step-0', false, 0], ['step-1', false, 0], ['step-2', false, 0], ['tip', false, 0], ['apply', false, 0], ['step-5', false, 0], ['step-6', false, 0], ['step-7', false, 0],
    ]);
    expect(records.find((r) => r.id === 'apply')?.result?.stdout).toMatch(/Apply complete/);
    expect(emu.emulator.rules().map((r) => r.status)).toEqual(['active', 'active', 'active']);
    const snapshot = JSON.parse(readFileSync(path.join(artifacts, 'botrules-live-snapshot-default', 'live.json'), 'utf8')) as unknown;
    expect(JSON.stringify(snapshot)).toContain('"B"');
    expect(readFileSync(path.join(artifacts, 'botrules-undo-default-7', 'undo-default.json'), 'utf8')).toContain('paused');
  });
});
