// Behaviour of the action's shell step: the command line it builds from the inputs, the exit
// codes it passes on or absorbs, its outputs and the job summary.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { runActionStep } from './action-run.js';

const MARKDOWN_PLAN = '## Plan for shop\n\n| rule | change |\n|---|---|\n| Block scrapers | priority |\n';

describe('the action step', () => {
  it('plans with --detailed-exitcode and Markdown, and treats exit code 2 as changes, not failure', () => {
    const run = runActionStep({ inputs: { command: 'plan', app: 'shop' }, cliExitCode: 2, cliStdout: MARKDOWN_PLAN });
    expect(run.status).toBe(0);
    const planFile = run.outputs['plan-file'] ?? '';
    expect(run.argv).toEqual(['plan', '--app', 'shop', '--detailed-exitcode', '--format', 'markdown', '--out', planFile]);
    expect(run.outputs).toMatchObject({ exitcode: '2', 'has-changes': 'true' });
    expect(readFileSync(planFile, 'utf8')).toBe('{"formatVersion":1}');
    expect(readFileSync(run.outputs['markdown-file'] ?? '', 'utf8')).toBe(MARKDOWN_PLAN);
    expect(run.summary).toContain(MARKDOWN_PLAN);
    expect(run.stdout).toContain('| Block scrapers | priority |');
  });

  it('reports no changes for exit code 0', () => {
    const run = runActionStep({ inputs: { command: 'plan' }, cliExitCode: 0, cliStdout: 'No changes.\n' });
    expect(run.status).toBe(0);
    expect(run.outputs).toMatchObject({ exitcode: '0', 'has-changes': 'false' });
  });

  it('fails on exit code 1 after writing its outputs', () => {
    const run = runActionStep({ inputs: { command: 'plan' }, cliExitCode: 1 });
    expect(run.status).toBe(1);
    expect(run.outputs).toMatchObject({ exitcode: '1', 'has-changes': 'false' });
    expect(run.stdout).toContain('::error title=botrules::botrules plan exited with code 1');
  });

  it('passes scripts diff its arguments and fails with exit code 3 when the policy matched', () => {
    const run = runActionStep({
      inputs: { command: 'scripts-diff', format: 'markdown', args: 'old.json new.json\n  --fail-on new,unapproved' },
      cliExitCode: 3,
      cliStdout: '## 1 new script\n',
    });
    expect(run.status).toBe(3);
    expect(run.argv).toEqual(['scripts', 'diff', '--format', 'markdown', 'old.json', 'new.json', '--fail-on', 'new,unapproved']);
    expect(run.outputs).toMatchObject({ exitcode: '3', 'has-changes': 'false' });
    expect(run.outputs['plan-file']).toBeUndefined();
    expect(run.summary).toContain('## 1 new script');
  });

  it('runs validate and test with SARIF output and gives its path as sarif-file, failing on exit code 1', () => {
    const sarif = '{"version":"2.1.0","runs":[]}\n';
    const validate = runActionStep({ inputs: { command: 'validate', format: 'sarif' }, cliExitCode: 1, cliStdout: sarif });
    expect(validate.status).toBe(1);
    expect(validate.argv).toEqual(['validate', '--format', 'sarif']);
    expect(readFileSync(validate.outputs['sarif-file'] ?? '', 'utf8')).toBe(sarif);
    expect(validate.summary).toBe('');
    const test = runActionStep({ inputs: { command: 'test', args: '--tests checks' }, cliStdout: '3 tests: 3 passed, 0 failed\n' });
    expect(test.status).toBe(0);
    expect(test.argv).toEqual(['test', '--tests', 'checks']);
    expect(test.outputs['sarif-file']).toBeUndefined();
  });

  it('adds --config and --app, and keeps non-Markdown output out of the summary', () => {
    const run = runActionStep({
      inputs: { command: 'scripts-report', config: 'ops/botrules.yaml', app: 'blog', format: 'json', args: '--app-id A B --tld x.example' },
      cliStdout: '{"records":[]}\n',
    });
    expect(run.status).toBe(0);
    expect(run.argv).toEqual(['scripts', 'report', '--config', 'ops/botrules.yaml', '--app', 'blog', '--format', 'json', '--app-id', 'A', 'B', '--tld', 'x.example']);
    expect(run.outputs['markdown-file']).toBeUndefined();
    expect(readFileSync(run.outputs['output-file'] ?? '', 'utf8')).toBe('{"records":[]}\n');
    expect(run.summary).toBe('');
  });

  it('passes args as words, never as shell code: no substitution, no globbing', () => {
    const run = runActionStep({ inputs: { command: 'validate', args: '$(touch injected) `touch injected2` * ; $HOME' } });
    expect(run.status).toBe(0);
    expect(run.argv).toEqual(['validate', '$(touch', 'injected)', '`touch', 'injected2`', '*', ';', '$HOME']);
    expect(readdirSync(run.cwd)).toEqual([]);
    expect(existsSync(path.join(run.cwd, 'injected'))).toBe(false);
  });

  it('hands BOTRULES_TOKEN to botrules under the name token-env gives, and never prints it', () => {
    const token = 'token-value-for-the-test';
    const run = runActionStep({
      inputs: { command: 'plan', app: 'shop', 'token-env': 'BOTRULES_TOKEN_SHOP' },
      env: { BOTRULES_TOKEN: token },
      cliStdout: 'No changes.\n',
    });
    expect(run.status).toBe(0);
    expect(run.tokens).toEqual({ BOTRULES_TOKEN: token, BOTRULES_TOKEN_SHOP: token });
    expect(JSON.stringify([run.stdout, run.outputs, run.summary])).not.toContain(token);
  });

  it('refuses a token-env that is not a variable name', () => {
    const run = runActionStep({ inputs: { command: 'plan', 'token-env': 'X=1; touch injected' }, env: { BOTRULES_TOKEN: 't' } });
    expect(run.status).toBe(1);
    expect(run.argv).toBeUndefined();
    expect(readdirSync(run.cwd)).toEqual([]);
  });

  it.each(['GITHUB_TOKEN', 'NODE_OPTIONS', 'PATH', 'BOTRULES_'])('refuses token-env %s: names start with BOTRULES_', (name) => {
    const run = runActionStep({ inputs: { command: 'plan', 'token-env': name }, env: { BOTRULES_TOKEN: 't' } });
    expect(run.status).toBe(1);
    expect(run.argv).toBeUndefined();
    expect(run.stdout).toContain("input 'token-env' must be an environment variable name starting with BOTRULES_");
  });

  it('runs live, and fails with a clear message when the commit has no bundled CLI', () => {
    expect(runActionStep({ inputs: { command: 'live', args: '--out live.json' } }).argv).toEqual(['live', '--out', 'live.json']);
    const run = runActionStep({ inputs: { command: 'validate' }, withoutBundle: true });
    expect(run.status).toBe(1);
    expect(run.argv).toBeUndefined();
    expect(run.stdout).toContain('has no bundled CLI (dist-action/botrules.mjs): pin uses: to the commit of a release tag');
  });

  it('leaves the token variables alone without token-env', () => {
    const run = runActionStep({ inputs: { command: 'validate' }, env: { BOTRULES_TOKEN: 't' } });
    expect(run.tokens).toEqual({ BOTRULES_TOKEN: 't' });
  });

  it('refuses an unknown command without starting botrules', () => {
    const run = runActionStep({ inputs: { command: 'destroy' } });
    expect(run.status).toBe(1);
    expect(run.argv).toBeUndefined();
    expect(run.stdout).toContain("input 'command' must be one of validate, test, plan, apply, live, import, config, scripts-report, scripts-diff, scripts-verify, scripts-evidence");
  });

  it('refuses a non-Markdown format for plan', () => {
    const run = runActionStep({ inputs: { command: 'plan', format: 'json' } });
    expect(run.status).toBe(1);
    expect(run.argv).toBeUndefined();
    expect(run.stdout).toContain('plan always prints Markdown here');
  });
});
