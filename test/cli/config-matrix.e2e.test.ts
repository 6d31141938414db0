// `botrules config --json` through the real binary (docs/behaviour.md, "The workflow matrix"):
// the example workflows' per-app job matrix, read by the project's own config loader — the
// one-app project with or without botrules.yaml, every app of a config with its token variable
// and environment, and a config with a problem failing at its place with exit 1.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runBinary } from '../helpers/binary.js';
import { tempDir } from '../helpers/temp.js';

function project(config: string | undefined, dirs: string[]): string {
  const dir = tempDir('botrules-config-');
  for (const rules of dirs) mkdirSync(path.join(dir, rules), { recursive: true });
  if (config !== undefined) writeFileSync(path.join(dir, 'botrules.yaml'), config);
  return dir;
}

const ONE_APP = [{ app: 'default', tokenEnv: 'BOTRULES_TOKEN', environment: 'production', rulesDir: 'rules' }];

describe('botrules config --json', () => {
  it('is the one app "default" in environment production without botrules.yaml, on one line', async () => {
    const result = await runBinary(project(undefined, ['rules']), 'config', '--json');
    expect(result).toEqual({ code: 0, stdout: `${JSON.stringify(ONE_APP)}\n`, stderr: '' });
  });

  it('is the same one app for a botrules.yaml that names no apps', async () => {
    const result = await runBinary(project('maxChanges: 5\n', ['rules']), 'config', '--json');
    expect([result.code, JSON.parse(result.stdout)]).toEqual([0, ONE_APP]);
  });

  it('lists every app of botrules.yaml with its token variable, environment production-<app> and rules directory', async () => {
    const config = ['apps:', '  - name: shop', '    rulesDir: apps/shop', '    tokenEnv: BOTRULES_TOKEN_SHOP', '  - name: default', '    rulesDir: ./rules', ''].join('\n');
    const result = await runBinary(project(config, ['apps/shop', 'rules']), 'config', '--json');
    expect([result.code, JSON.parse(result.stdout)]).toEqual([0, [
      { app: 'shop', tokenEnv: 'BOTRULES_TOKEN_SHOP', environment: 'production-shop', rulesDir: 'apps/shop' },
      // An app named "default" in a config that names its apps has its own environment.
      { app: 'default', tokenEnv: 'BOTRULES_TOKEN', environment: 'production-default', rulesDir: 'rules' },
    ]]);
    const text = await runBinary(project(config, ['apps/shop', 'rules']), 'config');
    expect(text.stdout).toBe('shop: rules in apps/shop, token from BOTRULES_TOKEN_SHOP, environment production-shop\ndefault: rules in rules, token from BOTRULES_TOKEN, environment production-default\n');
  });

  it.each([
    ['a rules directory outside the project', ['apps:', '  - name: shop', '    rulesDir: ../outside'], 'botrules.yaml:3:15: rulesDir leads outside the project directory; a rules directory must be inside the directory botrules runs in, named relative to the config file'],
    ['an app without rulesDir', ['apps:', '  - name: shop', '    rulesDir: shop', '  - name: blog'], 'botrules.yaml:4:5: missing "rulesDir" in app'],
  ])('fails at the place of %s, with exit 1 and nothing on stdout', async (_what, lines, problem) => {
    const result = await runBinary(project([...lines, ''].join('\n'), ['shop']), 'config', '--json');
    expect(result).toEqual({ code: 1, stdout: '', stderr: `${problem}\nerror: 1 problem found\n` });
  });
});
