// `botrules github action`, the step of the botrules action (action.yml): the command line it
// builds from the INPUT_* variables, the exit codes it passes on or absorbs, its outputs and
// the job summary. The command lines are checked word for word; the runs go through the real
// CLI in process, against the emulator. The step's own shell: action-run.e2e.test.ts.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { actionEnv, actionInvocation, type ActionInputs } from '../../src/github/action-step.js';
import { renderSnapshotJson } from '../../src/render/scripts/index.js';
import type { SnapshotRecord } from '../../src/scripts/model.js';
import { buildSnapshot } from '../../src/scripts/snapshot.js';
import { lettered, rule } from '../apply/fixtures.js';
import { runCli } from '../helpers/cli.js';
import { distinctiveToken } from '../helpers/emulator.js';
import { emulatorProjectOnDemand } from '../helpers/emulator-project.js';
import { tempDir } from '../helpers/temp.js';

const INPUTS: ActionInputs = { command: '', args: '', app: '', config: '', format: '', tokenEnv: '' };
const invocation = (inputs: Partial<ActionInputs>) => actionInvocation({ ...INPUTS, ...inputs }, '/run/plan.json').argv;

describe('the command line of the action\'s inputs', () => {
  it('plans with --detailed-exitcode, Markdown and a saved JSON plan', () => {
    expect(invocation({ command: 'plan', app: 'shop' })).toEqual(['plan', '--app', 'shop', '--detailed-exitcode', '--format', 'markdown', '--out', '/run/plan.json']);
    expect(invocation({ command: 'plan', format: 'markdown' })).toEqual(['plan', '--detailed-exitcode', '--format', 'markdown', '--out', '/run/plan.json']);
  });

  it('passes the format and the args as words, --config and --app before them', () => {
    expect(invocation({ command: 'scripts-diff', format: 'markdown', args: 'old.json new.json\n  --fail-on new,unapproved' })).toEqual(['scripts', 'diff', '--format', 'markdown', 'old.json', 'new.json', '--fail-on', 'new,unapproved']);
    expect(invocation({ command: 'validate', format: 'sarif' })).toEqual(['validate', '--format', 'sarif']);
    expect(invocation({ command: 'test', args: '--tests checks' })).toEqual(['test', '--tests', 'checks']);
    expect(invocation({ command: 'scripts-report', config: 'ops/botrules.yaml', app: 'blog', format: 'json', args: '--app-id A B --tld x.example' })).toEqual([
      'scripts', 'report', '--config', 'ops/botrules.yaml', '--app', 'blog', '--format', 'json', '--app-id', 'A', 'B', '--tld', 'x.example',
    ]);
    expect(invocation({ command: 'live', args: '--out live.json' })).toEqual(['live', '--out', 'live.json']);
  });

  it('passes args as words, never as shell code: no substitution, no globbing', () => {
    expect(invocation({ command: 'validate', args: '$(touch injected) `touch injected2` * ; $HOME' })).toEqual(['validate', '$(touch', 'injected)', '`touch', 'injected2`', '*', ';', '$HOME']);
  });

  it('says which outputs the command\'s output is', () => {
    const run = (inputs: Partial<ActionInputs>) => actionInvocation({ ...INPUTS, ...inputs }, 'plan.json');
    expect([run({ command: 'plan' }), run({ command: 'validate', format: 'sarif' }), run({ command: 'test' })].map(({ markdown, sarif }) => ({ markdown, sarif }))).toEqual([
      { markdown: true, sarif: false }, { markdown: false, sarif: true }, { markdown: false, sarif: false },
    ]);
  });

  it('hands BOTRULES_TOKEN over under the name token-env gives, and leaves the variables alone without it', () => {
    expect(actionEnv({ BOTRULES_TOKEN: 't' }, 'BOTRULES_TOKEN_SHOP')).toEqual({ BOTRULES_TOKEN: 't', BOTRULES_TOKEN_SHOP: 't' });
    expect(actionEnv({ BOTRULES_TOKEN: 't' }, '')).toEqual({ BOTRULES_TOKEN: 't' });
  });

  it.each(['GITHUB_TOKEN', 'NODE_OPTIONS', 'PATH', 'BOTRULES_', 'X=1; touch injected'])('refuses token-env %s: names start with BOTRULES_', (name) => {
    expect(() => actionEnv({ BOTRULES_TOKEN: 't' }, name)).toThrow("input 'token-env' must be an environment variable name starting with BOTRULES_");
  });
});

interface StepRun {
  code: number;
  /** stdout and stderr, as the job log shows them. */
  log: string;
  stdout: string;
  outputs: Record<string, string>;
  summary: string;
  cwd: string;
}

/** `botrules github action` in `cwd` as the step runs it: GitHub's variables, the inputs, and `env`. */
async function runStep(inputs: Record<string, string>, options: { cwd?: string; env?: Record<string, string> } = {}): Promise<StepRun> {
  const root = tempDir('botrules-action-step-');
  const cwd = options.cwd ?? path.join(root, 'workspace');
  mkdirSync(cwd, { recursive: true });
  const files = { output: path.join(root, 'output'), summary: path.join(root, 'summary'), temp: path.join(root, 'runner-temp') };
  writeFileSync(files.output, '');
  writeFileSync(files.summary, '');
  mkdirSync(files.temp);
  const variables = Object.fromEntries(Object.entries(inputs).map(([name, value]) => [`INPUT_${name.toUpperCase().replace(/-/g, '_')}`, value]));
  const env = { ...options.env, ...variables, GITHUB_ACTIONS: 'true', RUNNER_TEMP: files.temp, GITHUB_OUTPUT: files.output, GITHUB_STEP_SUMMARY: files.summary };
  const result = await runCli(['github', 'action'], { cwd, env });
  const outputs = Object.fromEntries(readFileSync(files.output, 'utf8').split('\n').filter((line) => line.includes('=')).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
  return { code: result.code, log: result.stdout + result.stderr, stdout: result.stdout, outputs, summary: readFileSync(files.summary, 'utf8'), cwd };
}

describe('botrules github action', () => {
  const project = emulatorProjectOnDemand();

  it('plans with Markdown and treats exit code 2 as changes, not failure', async () => {
    const { dir, env, writeRules } = await project.start({ seedRules: lettered(2) });
    await writeRules([rule('A'), rule('B', { status: 'paused' })]);
    const run = await runStep({ command: 'plan' }, { cwd: dir, env });
    expect(run.code).toBe(0);
    expect(run.outputs).toMatchObject({ exitcode: '2', 'has-changes': 'true' });
    expect(JSON.parse(readFileSync(run.outputs['plan-file'] ?? '', 'utf8'))).toMatchObject({ formatVersion: expect.any(Number) });
    expect(readFileSync(run.outputs['markdown-file'] ?? '', 'utf8')).toBe(run.stdout);
    expect(run.stdout).toContain('**Plan: 1 PATCH request: 1 to update');
    expect(run.summary).toBe(`${run.stdout}\n`);
  });

  it('reports no changes for exit code 0', async () => {
    const { dir, env, writeRules } = await project.start({ seedRules: lettered(2) });
    await writeRules(lettered(2));
    const run = await runStep({ command: 'plan' }, { cwd: dir, env });
    expect(run.code).toBe(0);
    expect(run.outputs).toMatchObject({ exitcode: '0', 'has-changes': 'false' });
  });

  it('fails on exit code 1 after writing its outputs', async () => {
    const { dir, env } = await project.start({ seedRules: lettered(1) });
    writeFileSync(path.join(dir, 'rules', 'broken.yaml'), 'rules: [');
    const run = await runStep({ command: 'plan' }, { cwd: dir, env });
    expect(run.code).toBe(1);
    expect(run.outputs).toMatchObject({ exitcode: '1', 'has-changes': 'false' });
    expect(run.log).toContain('::error title=botrules::botrules plan exited with code 1');
  });

  it('hands BOTRULES_TOKEN to botrules under the name token-env gives, and never prints it', async () => {
    const token = distinctiveToken('shop');
    const { dir, env, writeRules, writeConfig } = await project.start({ apps: [{ name: 'shop', token }], seedRules: lettered(1) });
    await writeConfig({ apps: [{ name: 'shop', rulesDir: 'rules', tokenEnv: 'BOTRULES_TOKEN_SHOP' }] });
    await writeRules(lettered(1));
    const run = await runStep({ command: 'plan', app: 'shop', 'token-env': 'BOTRULES_TOKEN_SHOP' }, { cwd: dir, env: { ...env, BOTRULES_TOKEN: token } });
    expect([run.code, run.outputs.exitcode]).toEqual([0, '0']);
    expect(JSON.stringify([run.log, run.outputs, run.summary, readFileSync(run.outputs['plan-file'] ?? '', 'utf8')])).not.toContain(token);
    const without = await runStep({ command: 'plan', app: 'shop' }, { cwd: dir, env: { ...env, BOTRULES_TOKEN: token } });
    expect([without.code, without.log]).toEqual([1, expect.stringContaining('BOTRULES_TOKEN_SHOP')]);
  });

  it('passes scripts diff its arguments and fails with exit code 3 when the policy matched', async () => {
    const cwd = tempDir('botrules-action-diff-');
    const records: SnapshotRecord[] = [{ key: 's', id: 'https://js.stripe.com/v3/', vendor: 'Stripe', risk: { level: 'low' }, page_types: ['checkout'] }];
    const added: SnapshotRecord = { key: 'x', id: 'https://cdn.evil.example/x.js', vendor: 'Unknown', risk: { level: 'critical' }, page_types: ['checkout'], approved: false };
    writeSnapshot(path.join(cwd, 'old.json'), records);
    writeSnapshot(path.join(cwd, 'new.json'), [...records, added]);
    const run = await runStep({ command: 'scripts-diff', format: 'markdown', args: 'old.json new.json\n  --fail-on new,unapproved' }, { cwd });
    expect(run.code).toBe(3);
    expect(run.outputs).toMatchObject({ exitcode: '3', 'has-changes': 'false' });
    expect(run.outputs['plan-file']).toBeUndefined();
    expect(run.stdout).toContain('cdn.evil.example');
    expect(run.summary).toBe(`${run.stdout}\n`);
  });

  it('runs validate with SARIF output and gives its path as sarif-file, failing on exit code 1', async () => {
    const cwd = tempDir('botrules-action-validate-');
    mkdirSync(path.join(cwd, 'rules'));
    writeFileSync(path.join(cwd, 'rules', 'broken.yaml'), 'rules:\n  - name: x\n');
    const run = await runStep({ command: 'validate', format: 'sarif' }, { cwd });
    expect(run.code).toBe(1);
    expect(JSON.parse(readFileSync(run.outputs['sarif-file'] ?? '', 'utf8'))).toMatchObject({ version: '2.1.0' });
    expect(run.summary).toBe('');
    const text = await runStep({ command: 'validate' }, { cwd });
    expect([text.code, text.outputs['sarif-file']]).toEqual([1, undefined]);
  });

  it('adds --config and --app, and keeps non-Markdown output out of the summary', async () => {
    const cwd = tempDir('botrules-action-config-');
    mkdirSync(path.join(cwd, 'ops'));
    writeFileSync(path.join(cwd, 'ops', 'botrules.yaml'), 'apps:\n  - name: shop\n    rulesDir: shop\n    tokenEnv: BOTRULES_TOKEN_SHOP\n  - name: blog\n    rulesDir: blog\n');
    const run = await runStep({ command: 'config', config: 'ops/botrules.yaml', app: 'blog', args: '--json' }, { cwd });
    expect([run.code, run.log]).toEqual([0, run.stdout]);
    expect(JSON.parse(readFileSync(run.outputs['output-file'] ?? '', 'utf8'))).toEqual([{ app: 'blog', tokenEnv: 'BOTRULES_TOKEN', environment: 'production-blog', rulesDir: 'ops/blog' }]);
    expect(run.outputs['markdown-file']).toBeUndefined();
    expect(run.summary).toBe('');
  });

  it.each([
    [{ command: 'destroy' }, "input 'command' must be one of validate, test, plan, apply, live, import, config, scripts-report, scripts-diff, scripts-verify, scripts-evidence"],
    [{ command: 'plan', format: 'json' }, 'plan always prints Markdown here'],
    [{ command: 'plan', 'token-env': 'X=1; touch injected' }, "input 'token-env' must be an environment variable name starting with BOTRULES_"],
    [{ command: 'plan', 'token-env': 'NODE_OPTIONS' }, "input 'token-env' must be an environment variable name starting with BOTRULES_"],
  ])('refuses %j without running a command, as an annotation of the action', async (inputs, message) => {
    const run = await runStep(inputs, { env: { BOTRULES_TOKEN: 't' } });
    expect(run.code).toBe(1);
    expect(run.log).toContain(`::error title=botrules action::${message}`);
    expect(run.outputs).toEqual({});
    expect(readdirSync(run.cwd)).toEqual([]);
  });

  it('leaves the GitHub steps their refusal of a rules token', async () => {
    const run = await runStep({ command: 'github-drift-issue', args: '--reports r' }, { env: { BOTRULES_TOKEN: 't' } });
    expect([run.code, run.outputs.exitcode]).toEqual([1, '1']);
    expect(run.log).toContain('never runs where a rules token is in scope: BOTRULES_TOKEN is set');
    expect(existsSync(path.join(run.cwd, 'r'))).toBe(false);
  });
});

function writeSnapshot(file: string, records: SnapshotRecord[]): void {
  const snapshot = buildSnapshot({ query: { appId: ['app-1'], tld: ['shop.example'], from: Date.UTC(2025, 5, 1), to: Date.UTC(2025, 5, 8) }, takenAt: Date.UTC(2025, 5, 8), records, warnings: [] });
  writeFileSync(file, renderSnapshotJson(snapshot));
}
