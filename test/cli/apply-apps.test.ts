// Several apps in botrules.yaml, each with its own token: planned and applied together,
// `--app` limits to one, and no token ever reaches any output or file.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli, type CliResult } from '../helpers/cli.js';
import { distinctiveToken, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { lettered, liveFields, rule, tempProject, writeConfig, writeRules, type Project } from '../apply/fixtures.js';
import type { NormalRule, Rule } from '../../src/semantics/model.js';

let emu: TestEmulator;
let project: Project;
let env: Record<string, string>;
const tokens = { default: distinctiveToken('default'), shop: distinctiveToken('shop') };
const shopRules = (): Rule[] => [rule('S1'), rule('S2'), rule('S3')];

beforeEach(async () => {
  emu = await startTestEmulator({
    apps: [
      { name: 'default', token: tokens.default, rules: lettered(3) },
      { name: 'shop', token: tokens.shop, rules: shopRules() },
    ],
  });
  project = await tempProject();
  env = { ...emu.env, BOTRULES_SHOP_TOKEN: tokens.shop };
  await writeConfig(project.dir, {
    apps: [
      { name: 'default', rulesDir: 'rules' },
      { name: 'shop', rulesDir: 'shop', tokenEnv: 'BOTRULES_SHOP_TOKEN' },
    ],
  });
  const [a, b, c] = lettered(3) as [NormalRule, NormalRule, NormalRule];
  await writeRules(project.rulesDir, [c, a, { ...b, description: 'default app' }]);
  const [s1, s2, s3] = shopRules() as [Rule, Rule, Rule];
  await writeRules(path.join(project.dir, 'shop'), [s1, { ...s2, status: 'paused' }, s3]);
});

afterEach(async () => {
  await emu.close();
  await project.close();
});

function expectNoToken(text: string): void {
  expect(text).not.toContain(tokens.default);
  expect(text).not.toContain(tokens.shop);
}

/** Runs the CLI and checks, for every run of this file, that no token reached its output. */
async function run(argv: string[], runEnv: Record<string, string | undefined> = env): Promise<CliResult> {
  const result = await runCli(argv, { env: runEnv, cwd: project.dir });
  expectNoToken(result.stdout);
  expectNoToken(result.stderr);
  return result;
}

describe('several apps', () => {
  it('plans and applies every app with its own token', async () => {
    const plan = await run(['plan', '--verbose', '--out', 'plan.json']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('App default');
    expect(plan.stdout).toContain('App shop');
    const saved = await readFile(path.join(project.dir, 'plan.json'), 'utf8');
    expect(JSON.parse(saved).apps.map((a: { app: string }) => a.app)).toEqual(['default', 'shop']);

    const applied = await run(['apply', '--plan', 'plan.json', '--auto-approve', '--verbose', '--undo-out', 'undo.json']);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('App default:\n');
    expect(applied.stdout).toContain('Verified: live rules of app shop match the plan.');
    expect(liveFields(emu.emulator, 'default').map((r) => r.name)).toEqual(['C', 'A', 'B']);
    expect(liveFields(emu.emulator, 'shop')[1]?.status).toBe('paused');

    expectNoToken(saved);
    expectNoToken(await readFile(path.join(project.dir, 'undo.json'), 'utf8'));
  });

  it('--app limits plan and apply to one app', async () => {
    const plan = await run(['plan', '--app', 'shop', '--format', 'json']);
    expect(JSON.parse(plan.stdout).apps.map((a: { app: string }) => a.app)).toEqual(['shop']);
    const applied = await run(['apply', '--app', 'shop', '--auto-approve']);
    expect(applied.code).toBe(0);
    expect(liveFields(emu.emulator, 'shop')[1]?.status).toBe('paused');
    expect(liveFields(emu.emulator, 'default')).toEqual(lettered(3));
  });

  it('names the missing token of one app before any request', async () => {
    const { BOTRULES_SHOP_TOKEN: _shop, ...withoutShop } = env;
    const result = await run(['apply', '--auto-approve'], withoutShop);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('BOTRULES_SHOP_TOKEN is not set');
    expect(emu.emulator.log).toHaveLength(0);
  });

  it('a token the service rejects is an error naming the variable, never the token', async () => {
    const wrong = distinctiveToken('wrong');
    const result = await run(['plan', '--verbose'], { ...env, BOTRULES_SHOP_TOKEN: wrong });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('BOTRULES_SHOP_TOKEN');
    expect(result.stdout + result.stderr).not.toContain(wrong);
  });
});
