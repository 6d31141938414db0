// Output paths are checked before the first request, files are written whole and never through
// a symbolic link, an empty rules directory needs --allow-empty, and import --force replaces only
// rule files. Every failure is a user error naming the path and the reason.
import { lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { lettered, patches, rule } from '../apply/fixtures.js';
import { emulatorProjectForEachTest } from '../helpers/emulator-project.js';

const project = emulatorProjectForEachTest({ seedRules: lettered(3) });
beforeEach(async () => {
  await project.writeRules([rule('A', { description: 'changed' }), rule('B'), rule('C')]);
});

const run = (argv: string[]) => project.run(argv);

describe('output paths are checked before acting', () => {
  it('apply --undo-out into a missing directory sends nothing and names the path', async () => {
    const result = await run(['apply', '--auto-approve', '--undo-out', 'no/such/dir/undo.json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: cannot write --undo-out no/such/dir/undo.json: its directory');
    expect(result.stderr).not.toContain('internal error');
    expect(project.emulator.log).toHaveLength(0);
    expect(patches(project.emulator)).toHaveLength(0);
  });

  it('apply --undo-out onto a directory sends nothing', async () => {
    await mkdir(path.join(project.dir, 'undo.json'));
    const result = await run(['apply', '--auto-approve', '--undo-out', 'undo.json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('cannot write --undo-out undo.json: it is a directory');
    expect(project.emulator.log).toHaveLength(0);
  });

  it('apply writes the undo plan it was asked for', async () => {
    const result = await run(['apply', '--auto-approve', '--undo-out', 'undo.json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(await readFile(path.join(project.dir, 'undo.json'), 'utf8'))).toMatchObject({ summary: { patches: 1 } });
  });

  it.each([
    ['a missing directory', 'missing/plan.json', 'its directory'],
    ['a directory', 'rules', 'it is a directory'],
  ])('plan --out into %s fails before listing', async (_label, out, reason) => {
    const result = await run(['plan', '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`cannot write --out ${out}: ${reason}`);
    expect(project.emulator.log).toHaveLength(0);
  });

  it('plan --out never writes through a symbolic link', async () => {
    await symlink(path.join(project.dir, 'elsewhere.json'), path.join(project.dir, 'plan.json'));
    const result = await run(['plan', '--out', 'plan.json']);
    expect(result.stderr).toContain('cannot write --out plan.json: it is a symbolic link');
    await expect(readFile(path.join(project.dir, 'elsewhere.json'))).rejects.toThrow();
  });

  it('scripts report --out onto a directory is a user error', async () => {
    await mkdir(path.join(project.dir, 'out'));
    const result = await run(['scripts', 'report', '--app-id', 'a', '--tld', 'example.com', '--out', 'out']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('cannot write --out out: it is a directory');
    expect(result.stderr).not.toContain('internal error');
  });
});

describe('an empty rules directory', () => {
  it('is an error for validate, plan and apply unless --allow-empty', async () => {
    const empty = path.join(project.dir, 'empty');
    await mkdir(empty);
    for (const command of ['validate', 'plan', 'apply']) {
      const result = await run([command, '--dir', 'empty', '--auto-approve'].slice(0, command === 'apply' ? 4 : 3));
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('the rules directory empty (app default) holds no rule files');
    }
    expect(patches(project.emulator)).toHaveLength(0);
    expect(await run(['validate', '--dir', 'empty', '--allow-empty'])).toMatchObject({ code: 0 });
    expect(await run(['--allow-empty', 'plan', '--dir', 'empty'])).toMatchObject({ code: 0 });
  });
});

describe('import writes only rule files', () => {
  it('--force refuses a directory that holds other YAML, deleting nothing', async () => {
    await mkdir(path.join(project.dir, 'charts'));
    await writeFile(path.join(project.dir, 'charts', 'values.yaml'), 'replicas: 2\n');
    await writeFile(path.join(project.dir, 'docker-compose.yml'), 'services: {}\n');
    const result = await run(['import', '--out', '.', '--force']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('refusing --force: 2 YAML files are not botrules rule files:');
    expect(result.stderr).toContain('charts/values.yaml');
    expect(await readFile(path.join(project.dir, 'docker-compose.yml'), 'utf8')).toBe('services: {}\n');
    expect(project.emulator.log).toHaveLength(0);
  });

  it('never writes through a dangling symbolic link', async () => {
    const target = path.join(project.dir, 'fresh');
    await mkdir(target);
    await symlink(path.join(project.dir, 'outside.yaml'), path.join(target, '010-a.yaml'));
    const result = await run(['import', '--out', 'fresh']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('refusing to overwrite 1 existing rule file:\n  fresh/010-a.yaml');
    expect(await readdir(project.dir)).not.toContain('outside.yaml');
    // A dangling link is not a rule file: --force refuses rather than write through it.
    const forced = await run(['import', '--out', 'fresh', '--force']);
    expect(forced.code).toBe(1);
    expect(forced.stderr).toContain('refusing --force: 1 YAML file is not a botrules rule file:\n  fresh/010-a.yaml');
    expect(await readdir(project.dir)).not.toContain('outside.yaml');
    expect((await lstat(path.join(target, '010-a.yaml'))).isSymbolicLink()).toBe(true);
    expect(project.emulator.log).toHaveLength(0);
  });
});
