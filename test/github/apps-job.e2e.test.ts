// The `apps` job of every example workflow that runs the action, as the runner would run it:
// the action's `command: config` (botrules config --json, with the built CLI standing in for
// the bundle) and the step that hands its one line to the job's outputs, which the per-app jobs
// read with fromJSON. The one-app project, a config with apps, and a config with a problem,
// which fails the job at the config's line.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers/temp.js';
import { mapAt, readYamlFile, type YamlMap } from './workflow-files.js';
import { runJob, type StepRecord } from './workflow-run.js';

const WORKFLOWS = ['apply.yml', 'drift.yml', 'drift-pr.yml', 'plan.yml'].map((file) => readYamlFile(`examples/github-workflows/${file}`));

async function runAppsJob(file: string, config: string | undefined, rulesDirs: string[]): Promise<StepRecord[]> {
  const workflow = WORKFLOWS.find((w) => w.file === `examples/github-workflows/${file}`);
  const repository = tempDir('botrules-apps-job-');
  for (const dir of rulesDirs) mkdirSync(path.join(repository, dir), { recursive: true });
  if (config !== undefined) writeFileSync(path.join(repository, 'botrules.yaml'), config);
  const runnerTemp = path.join(repository, '.runner-temp');
  mkdirSync(runnerTemp);
  return runJob(mapAt(mapAt(workflow?.data ?? {}, 'jobs'), 'apps').steps as YamlMap[], {
    cwd: repository,
    // plan.yml checks out the pull request's base commit: the checkout is the repository as it is.
    context: { 'github.event.pull_request.base.sha': 'b'.repeat(40) },
    env: { PATH: process.env.PATH ?? '', HOME: repository, RUNNER_TEMP: runnerTemp },
    otherAction: (step) => /^actions\/(checkout|setup-node)@/.test(String(step.uses)),
  });
}

/** The job's `apps` output, as the per-app jobs' fromJSON reads it. */
function appsOutput(records: StepRecord[]): unknown {
  return JSON.parse(records.find((record) => record.id === 'list')?.outputs.apps ?? 'null');
}

describe.each(WORKFLOWS.map((w) => path.basename(w.file)))('the apps job of %s', (file) => {
  it('is the one app "default" in the environment production without botrules.yaml', async () => {
    const records = await runAppsJob(file, undefined, ['rules']);
    expect(appsOutput(records)).toEqual([{ app: 'default', tokenEnv: 'BOTRULES_TOKEN', environment: 'production', rulesDir: 'rules' }]);
  });

  it('is every app of botrules.yaml, each in its own environment', async () => {
    const config = 'apps:\n  - name: shop\n    rulesDir: apps/shop\n    tokenEnv: BOTRULES_TOKEN_SHOP\n  - name: blog\n    rulesDir: apps/blog\n';
    const records = await runAppsJob(file, config, ['apps/shop', 'apps/blog']);
    expect(appsOutput(records)).toEqual([
      { app: 'shop', tokenEnv: 'BOTRULES_TOKEN_SHOP', environment: 'production-shop', rulesDir: 'apps/shop' },
      { app: 'blog', tokenEnv: 'BOTRULES_TOKEN', environment: 'production-blog', rulesDir: 'apps/blog' },
    ]);
  });

  it('fails at the line of a problem of botrules.yaml, so no per-app job runs', async () => {
    const records = await runAppsJob(file, 'apps:\n  - name: shop\n', []);
    const config = records.find((record) => record.id === 'config');
    expect([config?.result?.status, records.some((record) => record.id === 'list')]).toEqual([1, false]);
    expect(config?.result?.stderr).toContain('botrules.yaml:2:5: missing "rulesDir" in app');
  });
});
