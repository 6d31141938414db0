// The trust model of the workflows (README, "Trust model"): which job may hold which token,
// which events can reach it, and what the apply job checks before it applies. Each rule is
// checked over every workflow of this repository and every example workflow.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_BRANCH_ONLY, isMap, mapAt, readYamlFile, SCHEDULED_OR_DEFAULT_BRANCH, workflowFiles, type YamlFile, type YamlMap } from './workflow-files.js';
import { tempDir } from '../helpers/temp.js';

const WORKFLOWS = workflowFiles().map(readYamlFile);

interface Job {
  file: string;
  id: string;
  job: YamlMap;
  /** The job's YAML as text, to look for expressions anywhere in it. */
  text: string;
}

function jobsOf(yaml: YamlFile): Job[] {
  return Object.entries(mapAt(yaml.data, 'jobs')).flatMap(([id, job]) => (isMap(job) ? [{ file: yaml.file, id, job, text: JSON.stringify(job) }] : []));
}

const JOBS = WORKFLOWS.flatMap(jobsOf);
const label = (j: Job): string => `${j.file} ${j.id}`;

function triggers(yaml: YamlFile): string[] {
  const on = yaml.data.on;
  if (typeof on === 'string') return [on];
  if (Array.isArray(on)) return on.map(String);
  return Object.keys(isMap(on) ? on : {});
}

function writeGrants(job: YamlMap): string[] {
  return Object.entries(mapAt(job, 'permissions')).filter(([, level]) => level === 'write').map(([scope]) => scope);
}

/** The rules token: the secret named after an app's tokenEnv, or a BOTRULES_TOKEN* secret by name. */
const RULES_TOKEN = /secrets\[matrix\.tokenEnv\]|secrets\.BOTRULES_TOKEN/;

describe('permissions', () => {
  it.each(WORKFLOWS.map((w) => w.file))('%s grants nothing at the top, and each job declares its own', (file) => {
    const yaml = WORKFLOWS.find((w) => w.file === file) as YamlFile;
    expect(yaml.data.permissions).toEqual({});
    for (const job of jobsOf(yaml)) expect([label(job), isMap(job.job.permissions)]).toEqual([label(job), true]);
  });

  it('grants write access only where a job comments, files issues, proposes drift, uploads code-scanning findings or releases', () => {
    const grants = JOBS.flatMap((j) => writeGrants(j.job).map((scope) => `${label(j)}: ${scope}`));
    expect(grants.sort()).toEqual([
      '.github/workflows/release.yml release: contents',
      'examples/github-workflows/drift-pr.yml propose: contents',
      'examples/github-workflows/drift-pr.yml propose: issues',
      'examples/github-workflows/drift-pr.yml propose: pull-requests',
      'examples/github-workflows/drift.yml report: issues',
      'examples/github-workflows/plan.yml comment: pull-requests',
      'examples/github-workflows/plan.yml validate: security-events',
      // The chain head, committed through the contents API by a job without secrets.
      'examples/github-workflows/scripts-inventory.yml anchor: contents',
    ]);
  });

  it('never puts a secret or an environment in a job whose workflow token can write', () => {
    const mixed = JOBS.filter((j) => writeGrants(j.job).length > 0 && (/\bsecrets\b/.test(j.text) || j.job.environment !== undefined));
    expect(mixed.map(label)).toEqual([]);
  });

  it('gives every job a timeout', () => {
    expect(JOBS.filter((j) => typeof j.job['timeout-minutes'] !== 'number').map(label)).toEqual([]);
  });
});

describe('the rules token', () => {
  const holders = JOBS.filter((j) => RULES_TOKEN.test(j.text));

  it('is read by the apply and drift jobs only', () => {
    expect(holders.map(label).sort()).toEqual([
      'examples/github-workflows/apply.yml apply',
      'examples/github-workflows/drift-pr.yml detect',
      'examples/github-workflows/drift.yml drift',
      'examples/github-workflows/npx/apply.yml apply',
      'examples/github-workflows/npx/replay-matrix.yml snapshot',
    ]);
  });

  it('lives only in each app\'s own environment, in jobs that run for the default branch only', () => {
    for (const j of holders) {
      const guard = triggers(WORKFLOWS.find((w) => w.file === j.file) as YamlFile).includes('schedule') ? SCHEDULED_OR_DEFAULT_BRANCH : DEFAULT_BRANCH_ONLY;
      // One app chosen by hand (the replay matrix) takes its environment from its config job.
      const jobs = mapAt((WORKFLOWS.find((w) => w.file === j.file) as YamlFile).data, 'jobs');
      const chosenByHand = jobs.apps === undefined;
      const environment = chosenByHand ? '${{ needs.config.outputs.environment }}' : '${{ matrix.environment }}';
      expect([label(j), j.job.environment, String(j.job.if)]).toEqual([label(j), environment, guard]);
      // The matrix comes from the default branch's botrules.yaml, as botrules reads it (botrules
      // config --json: one environment production-<app> per app; test/cli/config-matrix.e2e.test.ts).
      if (chosenByHand) {
        const plan = (mapAt(jobs, 'config').steps as YamlMap[]).find((step) => step.id === 'plan');
        expect([label(j), String(plan?.run)]).toEqual([label(j), expect.stringContaining('apps="$(npx --no-install botrules config --json)"')]);
        continue;
      }
      const appsJob = mapAt(jobs, 'apps');
      const steps = appsJob.steps as YamlMap[];
      const list = String(steps.find((step) => step.id === 'list')?.run);
      const byAction = steps.find((step) => step.id === 'config');
      const matrixCommand = byAction === undefined ? list : `botrules ${String(mapAt(byAction, 'with').command)} ${String(mapAt(byAction, 'with').args)}`;
      expect([label(j), matrixCommand]).toEqual([label(j), expect.stringContaining('botrules config --json')]);
      expect(list).toMatch(/^echo "apps=\$\((cat "\$MATRIX_FILE"|npx --no-install botrules config --json)\)" >> "\$GITHUB_OUTPUT"$/);
    }
  });

  it('is read by a fixed secret name, so a job receives that one secret only', () => {
    // secrets[<expression>] (or toJSON(secrets)) makes GitHub hand the runner every secret.
    const dynamic = WORKFLOWS.filter((w) => /secrets\s*\[|toJSON\(\s*secrets\s*\)/.test(w.text)).map((w) => w.file);
    expect(dynamic).toEqual([]);
    for (const j of holders) expect([label(j), [...new Set(j.text.match(/secrets\.\w+/g))]]).toEqual([label(j), ['secrets.BOTRULES_TOKEN']]);
  });

  it('is never in a workflow a pull request can start', () => {
    const files = WORKFLOWS.filter((w) => triggers(w).some((t) => t.startsWith('pull_request'))).map((w) => w.file);
    expect(files).toEqual(expect.arrayContaining(['.github/workflows/ci.yml', 'examples/github-workflows/plan.yml']));
    expect(holders.filter((j) => files.includes(j.file))).toEqual([]);
  });
});

describe('jobs a pull request can run', () => {
  const prWorkflows = WORKFLOWS.filter((w) => triggers(w).some((t) => t.startsWith('pull_request')));

  it('never use pull_request_target (which would run with secrets)', () => {
    expect(WORKFLOWS.filter((w) => triggers(w).includes('pull_request_target')).map((w) => w.file)).toEqual([]);
  });

  it('reference no secret at all and no environment', () => {
    const offending = prWorkflows.flatMap(jobsOf).filter((j) => /\bsecrets\b/.test(j.text) || j.job.environment !== undefined);
    expect(offending.map(label)).toEqual([]);
    expect(prWorkflows.filter((w) => /\bsecrets\b/.test(JSON.stringify(w.data.env ?? {}))).map((w) => w.file)).toEqual([]);
  });

  it('plan against the newest trusted live snapshot, with apps from the base branch', () => {
    const plan = readYamlFile('examples/github-workflows/plan.yml');
    const apps = mapAt(mapAt(plan.data, 'jobs'), 'apps');
    const checkout = (apps.steps as YamlMap[]).find((s) => String(s.uses).startsWith('actions/checkout@')) as YamlMap;
    expect(mapAt(checkout, 'with').ref).toBe('${{ github.event.pull_request.base.sha }}');
    const steps = mapAt(mapAt(plan.data, 'jobs'), 'plan').steps as YamlMap[];
    const planStep = steps.find((s) => s.id === 'plan') as YamlMap;
    // Outside the checkout, so no file of the pull request can stand in for the snapshot.
    expect(mapAt(planStep, 'with').args).toBe('--live ${{ runner.temp }}/snapshot/live.json');
    // Chosen by botrules github artifact (its provenance checks: test/github/artifact-provenance.test.ts), then downloaded by run id.
    const snapshot = steps.find((s) => s.id === 'snapshot') as YamlMap;
    expect(mapAt(snapshot, 'with')).toEqual({
      command: 'github-artifact',
      args: '--name ${{ env.SNAPSHOT_ARTIFACT }}-${{ matrix.app }} --workflow botrules-apply.yml --workflow botrules-drift.yml --workflow botrules-drift-pr.yml',
    });
    expect(mapAt(snapshot, 'env')).toEqual({ GH_TOKEN: '${{ github.token }}' });
    const download = steps.find((s) => s.name === 'Download the newest live snapshot') as YamlMap;
    expect(download.run).toBe('gh run download "$RUN_ID" --repo "$GITHUB_REPOSITORY" --name "$NAME" --dir "$RUNNER_TEMP/snapshot"');
    expect(mapAt(download, 'env').RUN_ID).toBe('${{ steps.snapshot.outputs.run-id }}');
    expect(steps.indexOf(snapshot) + 1).toBe(steps.indexOf(download));
    expect(mapAt(mapAt(mapAt(plan.data, 'jobs'), 'plan'), 'permissions')).toEqual({ contents: 'read', actions: 'read' });
  });
});

describe('the live snapshot', () => {
  it('is refreshed by apply and drift under the name the pull-request plan looks for', () => {
    const plan = readYamlFile('examples/github-workflows/plan.yml');
    const name = String(mapAt(plan.data, 'env').SNAPSHOT_ARTIFACT);
    for (const file of ['examples/github-workflows/apply.yml', 'examples/github-workflows/drift.yml', 'examples/github-workflows/drift-pr.yml']) {
      const yaml = readYamlFile(file);
      const uploads = jobsOf(yaml).flatMap((j) => (j.job.steps as YamlMap[]).filter((s) => String(s.uses).startsWith('actions/upload-artifact@')));
      expect(uploads.map((s) => mapAt(s, 'with').name)).toContain(`${name}-\${{ matrix.app }}`);
      expect(JSON.stringify(yaml.data)).toContain('"command":"live"');
      const pick = (mapAt(mapAt(plan.data, 'jobs'), 'plan').steps as YamlMap[]).find((s) => s.id === 'snapshot') as YamlMap;
      expect(String(mapAt(pick, 'with').args).split(' ')).toContain(`botrules-${path.basename(file)}`);
    }
  });
});

describe('own comments, issues and pull requests', () => {
  const steps = WORKFLOWS.flatMap((w) => jobsOf(w).flatMap((j) => (j.job.steps as YamlMap[]).map((step) => ({ where: label(j), step }))));

  it('are kept by botrules github commands (tests: plan-comment, drift-issue, drift-pr-command), never by scripts in the workflows', () => {
    expect(steps.filter(({ step }) => /github-script|listComments|listForRepo/.test(JSON.stringify(step))).map(({ where }) => where)).toEqual([]);
    const commands = steps.filter(({ step }) => /^github-/.test(String(mapAt(step, 'with').command))).map(({ where, step }) => `${where}: ${String(mapAt(step, 'with').command)}`);
    expect(commands.sort()).toEqual([
      'examples/github-workflows/drift-pr.yml propose: github-drift-pr',
      'examples/github-workflows/drift.yml report: github-drift-issue',
      'examples/github-workflows/plan.yml comment: github-plan-comment',
      'examples/github-workflows/plan.yml plan: github-artifact',
      'examples/github-workflows/scripts-inventory.yml inventory: github-artifact',
    ]);
  });

  it('with the workflow token only, and only in jobs that hold no secret', () => {
    for (const { where, step } of steps.filter(({ step: s }) => /^github-/.test(String(mapAt(s, 'with').command)))) {
      expect([where, mapAt(step, 'env')]).toEqual([where, { GH_TOKEN: '${{ github.token }}' }]);
    }
  });

  it('plan comments name the pull request and the run', () => {
    const comment = mapAt(mapAt(readYamlFile('examples/github-workflows/plan.yml').data, 'jobs'), 'comment');
    const step = (comment.steps as YamlMap[]).find((s) => mapAt(s, 'with').command === 'github-plan-comment') as YamlMap;
    expect(String(mapAt(step, 'with').args)).toMatch(/^--pr \$\{\{ github\.event\.pull_request\.number \}\} --plans plans --run-url /);
  });
});

describe('the apply job', () => {
  const apply = readYamlFile('examples/github-workflows/apply.yml');
  const job = mapAt(mapAt(apply.data, 'jobs'), 'apply');
  const steps = job.steps as YamlMap[];
  const tip = steps.find((s) => s.id === 'tip') as YamlMap;

  it('runs only for the default branch, on push to it, daily (rule lifetimes) or by hand, one at a time per app', () => {
    expect(triggers(apply).sort()).toEqual(['push', 'schedule', 'workflow_dispatch']);
    expect(mapAt(mapAt(apply.data, 'on'), 'push').branches).toEqual(['main']);
    expect(String(job.if)).toBe(SCHEDULED_OR_DEFAULT_BRANCH);
    expect(mapAt(job, 'concurrency')['cancel-in-progress']).toBe(false);
  });

  it('applies, snapshots and uploads only when the commit is still the tip, with an explicit change limit', () => {
    const after = steps.slice(steps.indexOf(tip) + 1);
    expect(after.length).toBeGreaterThan(0);
    for (const step of after) expect(String(step.if)).toContain("steps.tip.outputs.current == 'true'");
    const applyStep = steps.find((s) => s.id === 'apply') as YamlMap;
    expect(String(mapAt(applyStep, 'with').args)).toMatch(/--auto-approve --max-changes \S+/);
  });

  /** Runs the tip step's script with a stand-in `gh` that answers `tip` as the branch head. */
  function runTip(sha: string, head: string, defaultBranch = 'main'): { status: number | null; outputs: string; stdout: string; ghArgs: string } {
    const dir = tempDir('botrules-tip-');
    mkdirSync(path.join(dir, 'bin'));
    // Asked for the repository, it names its default branch; asked for a ref, the head.
    writeFileSync(path.join(dir, 'bin', 'gh'), `#!/bin/sh\necho "$*" >> "${dir}/gh-args"\ncase "$2" in */git/ref/*) echo "${head}";; *) echo main;; esac\n`);
    chmodSync(path.join(dir, 'bin', 'gh'), 0o755);
    writeFileSync(path.join(dir, 'output'), '');
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', String(tip.run)], {
      encoding: 'utf8',
      env: {
        PATH: `${path.join(dir, 'bin')}:${process.env.PATH ?? ''}`,
        GITHUB_OUTPUT: path.join(dir, 'output'),
        GITHUB_SHA: sha,
        GITHUB_REPOSITORY: 'acme/rules',
        DEFAULT_BRANCH: defaultBranch,
        GH_TOKEN: 'read-only',
      },
    });
    return { status: result.status, outputs: readFileSync(path.join(dir, 'output'), 'utf8'), stdout: result.stdout, ghArgs: readFileSync(path.join(dir, 'gh-args'), 'utf8') };
  }

  it('the tip check lets the newest commit apply', () => {
    const run = runTip('a'.repeat(40), 'a'.repeat(40));
    expect(run).toMatchObject({ status: 0, outputs: 'current=true\n', stdout: '' });
    // The branch by its full ref: commits/main would answer for a tag named main.
    expect(run.ghArgs.trim()).toBe('api repos/acme/rules/git/ref/heads/main --jq .object.sha');
  });

  it('a scheduled run, whose event names no default branch, asks for it and then checks the tip', () => {
    const run = runTip('a'.repeat(40), 'a'.repeat(40), '');
    expect(run).toMatchObject({ status: 0, outputs: 'current=true\n', stdout: '' });
    expect(run.ghArgs.trim().split('\n')).toEqual(['api repos/acme/rules --jq .default_branch', 'api repos/acme/rules/git/ref/heads/main --jq .object.sha']);
  });

  it('the tip check stops an older commit with a one-line note, and succeeds', () => {
    const run = runTip('a'.repeat(40), 'b'.repeat(40));
    expect(run).toMatchObject({ status: 0, outputs: 'current=false\n' });
    expect(run.stdout.trim().split('\n')).toEqual([
      `::notice title=botrules apply::${'a'.repeat(40)} is no longer the tip of main (${'b'.repeat(40)}): not applied, a newer run will apply.`,
    ]);
  });
});

describe('default-branch guards', () => {
  it('compare the full ref github.ref, never github.ref_name (a tag named main has the same ref_name)', () => {
    const guarded = JOBS.filter((j) => /default_branch/.test(String(j.job.if ?? '')));
    expect(guarded.length).toBeGreaterThanOrEqual(7);
    for (const j of guarded) expect([label(j), [DEFAULT_BRANCH_ONLY, SCHEDULED_OR_DEFAULT_BRANCH]]).toEqual([label(j), expect.arrayContaining([String(j.job.if)])]);
    expect(WORKFLOWS.filter((w) => w.text.includes('github.ref_name')).map((w) => w.file)).toEqual([]);
  });
});
