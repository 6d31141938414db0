import { join } from 'node:path';
import { UserError, ValidationError } from '../../src/errors.js';
import { loadProjectConfig } from '../../src/rules/config.js';
import { writeTree } from './tree.js';

async function problemsOf(promise: Promise<unknown>): Promise<string[]> {
  const err: unknown = await promise.then(() => undefined, (e: unknown) => e);
  if (!(err instanceof ValidationError)) throw new Error(`expected a ValidationError, got ${String(err)}`);
  return err.problems.map((p) => `${p.file}:${p.line}:${p.col}: ${p.message}`);
}

describe('loadProjectConfig', () => {
  it('without a config file: one app "default" with ./rules and BOTRULES_TOKEN', async () => {
    const cwd = writeTree({});
    expect(await loadProjectConfig({ cwd })).toEqual({
      apps: [{ name: 'default', rulesDir: join(cwd, 'rules'), tokenEnv: 'BOTRULES_TOKEN', unmanaged: 'keep' }],
      oneApp: true,
    });
    expect((await loadProjectConfig({ cwd, dir: 'custom' })).apps[0]?.rulesDir).toBe(join(cwd, 'custom'));
    expect((await loadProjectConfig({ cwd, app: 'default' })).apps).toHaveLength(1);
    await expect(loadProjectConfig({ cwd, app: 'shop' })).rejects.toThrow(new UserError('unknown app "shop"'));
  });

  it('reads botrules.yaml from the working directory: paths relative to it, defaults applied', async () => {
    const cwd = writeTree({
      'botrules.yaml': [
        'unmanaged: pause',
        'maxChanges: 20',
        'apps:',
        '  - name: shop',
        '    rulesDir: rules/shop',
        '    tokenEnv: BOTRULES_SHOP_TOKEN',
        '  - name: blog',
        '    rulesDir: rules/blog',
        '    unmanaged: fail',
        '    maxChanges: 5',
        '',
      ].join('\n'),
    });
    expect(await loadProjectConfig({ cwd })).toEqual({
      file: 'botrules.yaml',
      apps: [
        { name: 'shop', rulesDir: join(cwd, 'rules/shop'), tokenEnv: 'BOTRULES_SHOP_TOKEN', unmanaged: 'pause', maxChanges: 20 },
        { name: 'blog', rulesDir: join(cwd, 'rules/blog'), tokenEnv: 'BOTRULES_TOKEN', unmanaged: 'fail', maxChanges: 5 },
      ],
    });
    expect((await loadProjectConfig({ cwd, app: 'blog' })).apps.map((a) => a.name)).toEqual(['blog']);
    const unknown: unknown = await loadProjectConfig({ cwd, app: 'news' }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(UserError);
    expect((unknown as UserError).details).toEqual(['Apps in botrules.yaml: shop, blog']);
  });

  it('resolves rulesDir against the directory of a config given with --config', async () => {
    const cwd = writeTree({ 'deploy/prod.yaml': 'apps:\n  - { name: prod, rulesDir: ../rules }\n' });
    const config = await loadProjectConfig({ cwd, config: 'deploy/prod.yaml' });
    expect(config).toMatchObject({ file: 'deploy/prod.yaml', apps: [{ rulesDir: join(cwd, 'rules') }] });
  });

  it('refuses a missing --config file and --dir together with a config', async () => {
    const cwd = writeTree({ 'botrules.yaml': 'apps:\n  - { name: a, rulesDir: r }\n' });
    await expect(loadProjectConfig({ cwd, config: 'other.yaml' })).rejects.toThrow(new UserError('config file "other.yaml" does not exist'));
    await expect(loadProjectConfig({ cwd, dir: 'r' })).rejects.toThrow(/--dir is for use without a config file/);
  });

  it('rejects tokens written in the file, and token variable names that are not names', async () => {
    const cwd = writeTree({ 'botrules.yaml': 'apps:\n  - name: a\n    rulesDir: r\n    token: s3cr3t\n    tokenEnv: my-token\n' });
    const problems = await problemsOf(loadProjectConfig({ cwd }));
    expect(problems).toEqual([
      'botrules.yaml:4:5: "token" must not be in the config: tokens are never written in files; put the token in an environment variable and name that variable with tokenEnv',
      'botrules.yaml:5:15: tokenEnv "my-token" must be an environment variable name starting with BOTRULES_ (upper-case letters, digits and _, e.g. BOTRULES_TOKEN_SHOP), never a variable such as GITHUB_TOKEN, NODE_OPTIONS or PATH; it names the variable that holds the token, never the token itself',
    ]);
    expect(problems.join('\n')).not.toContain('s3cr3t');
  });

  it.each(['GITHUB_TOKEN', 'NODE_OPTIONS', 'PATH', 'BOTRULES'])('refuses tokenEnv %s: token variables start with BOTRULES_', async (name) => {
    const cwd = writeTree({ 'botrules.yaml': `apps:\n  - name: a\n    rulesDir: r\n    tokenEnv: ${name}\n` });
    expect(await problemsOf(loadProjectConfig({ cwd }))).toEqual([
      expect.stringMatching(new RegExp(`^botrules\\.yaml:4:15: tokenEnv "${name}" must be an environment variable name starting with BOTRULES_`)),
    ]);
  });

  it('rejects repeated app names and two apps reading the same token variable', async () => {
    const cwd = writeTree({
      'botrules.yaml': 'apps:\n  - { name: a, rulesDir: r1 }\n  - { name: a, rulesDir: r2, tokenEnv: BOTRULES_A2 }\n  - { name: c, rulesDir: r3 }\n',
    });
    expect(await problemsOf(loadProjectConfig({ cwd }))).toEqual([
      'botrules.yaml:3:13: duplicate app name "a" (also at line 2)',
      'botrules.yaml:4:5: apps must read their tokens from different variables; BOTRULES_TOKEN is also used by the app at line 2',
    ]);
  });

  it('words schema problems for people', async () => {
    const cwd = writeTree({ 'botrules.yaml': 'unmanaged: erase\napps:\n  - { name: "a b", maxChanges: -1 }\n' });
    expect(await problemsOf(loadProjectConfig({ cwd }))).toEqual([
      'botrules.yaml:1:12: unmanaged "erase" is not one of keep, pause, fail, delete',
      'botrules.yaml:3:5: missing "rulesDir" in app',
      'botrules.yaml:3:13: app name "a b" may hold only letters, digits, ".", "_" and "-", starting with a letter or digit',
      'botrules.yaml:3:32: maxChanges must be at least 0',
    ]);
    const empty = writeTree({ 'botrules.yaml': '# nothing yet\n' });
    expect(await problemsOf(loadProjectConfig({ cwd: empty }))).toEqual(['botrules.yaml:1:1: the config file is empty; it holds a mapping with an "apps:" list']);
  });
});
