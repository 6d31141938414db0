// Input files stay inside the project directory: rule files, the rules directory, the config
// and the policy are read only when their real path lies inside the working directory.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { ruleYaml, writeTree } from '../rules/tree.js';
import { loadPolicy } from '../../src/scripts/policy.js';
import { ValidationError } from '../../src/errors.js';

const RULE = `rules:\n${ruleYaml('A')}`;
const SECRET = 'rules:\n  - name: do-not-print-me-7f3a\n';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A project with rules/a.yaml, and a file outside it. */
function project(): { cwd: string; outside: string } {
  const cwd = writeTree({ 'rules/a.yaml': RULE, 'shared/b.yaml': `rules:\n${ruleYaml('B')}` });
  const elsewhere = mkdtempSync(join(tmpdir(), 'botrules-outside-'));
  dirs.push(cwd, elsewhere);
  const outside = join(elsewhere, 'secret.yaml');
  writeFileSync(outside, SECRET);
  return { cwd, outside };
}

describe('symbolic links', () => {
  it('follows a link to a file inside the project', async () => {
    const { cwd } = project();
    symlinkSync(join(cwd, 'shared', 'b.yaml'), join(cwd, 'rules', 'b.yaml'));
    symlinkSync('../shared/b.yaml', join(cwd, 'rules', 'c.yml'));
    const result = await runCli(['validate'], { cwd });
    expect(result.stderr).toContain('duplicate rule name "B"');
    writeFileSync(join(cwd, 'shared', 'b.yaml'), `rules:\n${ruleYaml('B')}`);
    rmSync(join(cwd, 'rules', 'c.yml'));
    const after = await runCli(['validate'], { cwd });
    expect(after.code).toBe(0);
    // A and B have the same conditions, which the rule-set analysis reports as warnings.
    expect(after.stdout).toBe('2 files, 2 rules: valid (2 warnings)\n');
    expect(after.stderr).not.toContain('symbolic link');
  });

  it('refuses a rule file linked to outside the project, naming it, without reading it', async () => {
    const { cwd, outside } = project();
    symlinkSync(outside, join(cwd, 'rules', 'z.yaml'));
    const result = await runCli(['validate'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('rules/z.yaml:1:1: the file is a symbolic link to outside the project directory');
    expect(result.stderr).not.toContain('do-not-print-me');
    const plan = await runCli(['plan'], { cwd });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('rules/z.yaml:1:1: the file is a symbolic link to outside the project directory');
  });

  it('reports a dangling link as a problem naming it', async () => {
    const { cwd } = project();
    symlinkSync(join(cwd, 'nowhere.yaml'), join(cwd, 'rules', 'gone.yaml'));
    const result = await runCli(['validate'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('rules/gone.yaml:1:1: the file is a symbolic link to a file that does not exist');
  });

  it('refuses a rules directory linked to outside the project', async () => {
    const { cwd, outside } = project();
    const outsideDir = join(outside, '..', 'rules');
    mkdirSync(outsideDir);
    writeFileSync(join(outsideDir, 'a.yaml'), RULE);
    symlinkSync(outsideDir, join(cwd, 'linked'));
    const result = await runCli(['validate', '--dir', 'linked'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: rules directory "linked" is a symbolic link to outside the project directory');
  });

  it('follows a linked rules subdirectory inside the project: its rules stay managed', async () => {
    const { cwd } = project();
    symlinkSync(join(cwd, 'shared'), join(cwd, 'rules', 'team'));
    const result = await runCli(['validate'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^2 files, 2 rules: valid/);
    expect(result.stderr).toContain('rules/team/b.yaml:2:5: warning:');
  });

  it('refuses a linked rules subdirectory outside the project by name, and one that loops', async () => {
    const { cwd, outside } = project();
    symlinkSync(join(outside, '..'), join(cwd, 'rules', 'ext'));
    symlinkSync(join(cwd, 'rules'), join(cwd, 'rules', 'loop'));
    const result = await runCli(['validate'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toEqual([
      'rules/ext:1:1: this directory is a symbolic link to outside the project directory; botrules follows links only to places inside the directory it runs in',
      'rules/loop:1:1: this directory is a symbolic link back into a directory it is in; botrules does not walk it (it would never end)',
      'error: 2 problems found',
      '',
    ]);
  });

  it('refuses a test file linked to outside the project without quoting it', async () => {
    const { cwd, outside } = project();
    mkdirSync(join(cwd, 'tests'));
    symlinkSync(outside, join(cwd, 'tests', 'a.yaml'));
    const result = await runCli(['test'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toContain('tests/a.yaml:1:1: the file is a symbolic link to outside the project directory; botrules follows links only to places inside the directory it runs in');
    expect(result.stderr).not.toContain('do-not-print-me');
  });

  it.each([['../outside'], ['/etc']])('refuses rulesDir %j in the config, at its line, reading nothing there', async (rulesDir) => {
    const { cwd } = project();
    writeFileSync(join(cwd, 'botrules.yaml'), `apps:\n  - name: default\n    rulesDir: ${rulesDir}\n`);
    const result = await runCli(['validate'], { cwd });
    expect(result.code).toBe(1);
    const why = rulesDir.startsWith('/') ? 'is an absolute path' : 'leads outside the project directory';
    expect(result.stderr.split('\n')).toEqual([
      `botrules.yaml:3:15: rulesDir ${why}; a rules directory must be inside the directory botrules runs in, named relative to the config file`,
      'error: 1 problem found',
      '',
    ]);
  });

  it('refuses a config file linked to outside the project, and a dangling one', async () => {
    const { cwd, outside } = project();
    symlinkSync(outside, join(cwd, 'botrules.yaml'));
    const result = await runCli(['validate'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('botrules.yaml:1:1: the config file is a symbolic link to outside the project directory');
    expect(result.stderr).not.toContain('do-not-print-me');
    rmSync(join(cwd, 'botrules.yaml'));
    symlinkSync(join(cwd, 'gone.yaml'), join(cwd, 'botrules.yaml'));
    const dangling = await runCli(['validate'], { cwd });
    expect(dangling.code).toBe(1);
    expect(dangling.stderr).toContain('botrules.yaml:1:1: the config file is a symbolic link to a file that does not exist');
  });

  it('refuses a policy file linked to outside the project, and a dangling one', async () => {
    const { cwd, outside } = project();
    symlinkSync(outside, join(cwd, 'policy.yaml'));
    await expect(loadPolicy(join(cwd, 'policy.yaml'), cwd)).rejects.toThrow(ValidationError);
    await expect(loadPolicy(join(cwd, 'policy.yaml'), cwd)).rejects.toMatchObject({
      problems: [{ file: 'policy.yaml', line: 1, col: 1, message: expect.stringMatching(/^the policy file is a symbolic link to outside the project directory/) }],
    });
    symlinkSync(join(cwd, 'gone.yaml'), join(cwd, 'dangling.yaml'));
    await expect(loadPolicy(join(cwd, 'dangling.yaml'), cwd)).rejects.toMatchObject({
      problems: [{ file: 'dangling.yaml', line: 1, col: 1, message: expect.stringMatching(/^the policy file is a symbolic link to a file that does not exist/) }],
    });
  });
});
