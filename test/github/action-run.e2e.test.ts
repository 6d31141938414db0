// The action's shell step with the real CLI as its bundle: it runs `botrules github action`
// with the inputs, or fails with a message when the commit has no bundle. What the command
// does with each input is tested in process (action-step.test.ts); here, that the step and
// the binary carry it through: exit codes, outputs, the job summary, the token, and args that
// never become shell code.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { lettered, rule } from '../apply/fixtures.js';
import { distinctiveToken } from '../helpers/emulator.js';
import { emulatorProjectOnDemand } from '../helpers/emulator-project.js';
import { runActionStep } from './action-run.js';

describe('the action step', () => {
  const project = emulatorProjectOnDemand();

  it('plans with --detailed-exitcode and Markdown, and treats exit code 2 as changes, not failure', async () => {
    const { dir, env, writeRules } = await project.start({ seedRules: lettered(2) });
    await writeRules([rule('A'), rule('B', { status: 'paused' })]);
    const run = await runActionStep({ inputs: { command: 'plan' }, cwd: dir, env });
    expect(run.status).toBe(0);
    expect(run.outputs).toMatchObject({ exitcode: '2', 'has-changes': 'true' });
    expect(JSON.parse(readFileSync(run.outputs['plan-file'] ?? '', 'utf8'))).toMatchObject({ formatVersion: expect.any(Number) });
    expect(readFileSync(run.outputs['markdown-file'] ?? '', 'utf8')).toBe(run.stdout);
    expect(run.summary).toContain('**Plan: 1 PATCH request: 1 to update');
  });

  it('hands BOTRULES_TOKEN to botrules under the name token-env gives, and never prints it', async () => {
    const token = distinctiveToken('shop');
    const { dir, env, writeRules, writeConfig } = await project.start({ apps: [{ name: 'shop', token }], seedRules: lettered(1) });
    await writeConfig({ apps: [{ name: 'shop', rulesDir: 'rules', tokenEnv: 'BOTRULES_TOKEN_SHOP' }] });
    await writeRules(lettered(1));
    const run = await runActionStep({ inputs: { command: 'plan', app: 'shop', 'token-env': 'BOTRULES_TOKEN_SHOP' }, cwd: dir, env: { ...env, BOTRULES_TOKEN: token } });
    expect([run.status, run.outputs.exitcode, run.outputs['has-changes']]).toEqual([0, '0', 'false']);
    expect(JSON.stringify([run.stdout, run.stderr, run.outputs, run.summary])).not.toContain(token);
  });

  it('fails with the exit code of botrules after writing its outputs', async () => {
    const run = await runActionStep({ inputs: { command: 'validate' } });
    expect(run.status).toBe(1);
    expect(run.outputs).toMatchObject({ exitcode: '1', 'has-changes': 'false' });
    expect(run.stderr).toContain('::error title=botrules::botrules validate exited with code 1');
  });

  it('passes args as words, never as shell code: no substitution, no globbing', async () => {
    const run = await runActionStep({ inputs: { command: 'validate', args: '$(touch injected) `touch injected2` * ; $HOME' } });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('"$(touch", "injected)", "`touch", "injected2`", "*", ";", "$HOME"');
    expect(readdirSync(run.cwd)).toEqual([]);
    expect(existsSync(path.join(run.cwd, 'injected'))).toBe(false);
  });

  it.each(['X=1; touch injected', 'NODE_OPTIONS'])('refuses token-env %s without running a command', async (name) => {
    const run = await runActionStep({ inputs: { command: 'plan', 'token-env': name }, env: { BOTRULES_TOKEN: 't' } });
    expect(run.status).toBe(1);
    expect(run.outputs).toEqual({});
    expect(run.stderr).toContain("::error title=botrules action::input 'token-env' must be an environment variable name starting with BOTRULES_");
    expect(readdirSync(run.cwd)).toEqual([]);
  });

  it('refuses an unknown command without starting botrules', async () => {
    const run = await runActionStep({ inputs: { command: 'destroy' } });
    expect([run.status, run.outputs]).toEqual([1, {}]);
    expect(run.stderr).toContain("input 'command' must be one of validate, test, plan, apply, live, import, config, scripts-report, scripts-diff, scripts-verify, scripts-evidence");
  });

  it('fails with a clear message when the commit has no bundled CLI', async () => {
    const run = await runActionStep({ inputs: { command: 'validate' }, withoutBundle: true });
    expect([run.status, run.outputs]).toEqual([1, {}]);
    expect(run.stdout).toContain('has no bundled CLI (dist-action/botrules.mjs): pin uses: to the commit of a release tag');
  });
});
