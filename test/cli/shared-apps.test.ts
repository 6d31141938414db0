// Two apps of botrules.yaml that are really one application (docs/behaviour.md, "Apps that list
// the same rules"): the same token value in both variables (a copy-paste in CI secrets), or
// live rules with the same ruleIds. plan and apply refuse before any change, naming both apps
// and never printing the token. With `unmanaged: pause`, one app's plan would otherwise pause
// the other app's rules.
import path from 'node:path';
import { runCli, type CliResult } from '../helpers/cli.js';
import { distinctiveToken, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { lettered, patches, rule, tempProject, writeConfig, writeRules, type Project } from '../apply/fixtures.js';

let emu: TestEmulator;
let project: Project;
const tokens = { default: distinctiveToken('default'), shop: distinctiveToken('shop') };

beforeEach(async () => {
  emu = await startTestEmulator({
    apps: [
      { name: 'default', token: tokens.default, rules: lettered(3) },
      { name: 'shop', token: tokens.shop, rules: [rule('S1')] },
    ],
  });
  project = await tempProject();
  await writeConfig(project.dir, {
    unmanaged: 'pause',
    apps: [
      { name: 'default', rulesDir: 'rules' },
      { name: 'shop', rulesDir: 'shop', tokenEnv: 'BOTRULES_SHOP_TOKEN' },
    ],
  });
  await writeRules(project.rulesDir, lettered(3));
  await writeRules(path.join(project.dir, 'shop'), [rule('S1')]);
});

afterEach(async () => {
  await emu.close();
  await project.close();
});

async function run(argv: string[], env: Record<string, string>): Promise<CliResult> {
  const result = await runCli(argv, { env, cwd: project.dir });
  for (const token of Object.values(tokens)) expect(result.stdout + result.stderr).not.toContain(token);
  return result;
}

describe.each([['plan'], ['apply', '--auto-approve']])('%s', (...argv) => {
  it('refuses two apps whose token variables hold the same value, before any request', async () => {
    const result = await run(argv, { ...emu.env, BOTRULES_TOKEN: tokens.default, BOTRULES_SHOP_TOKEN: tokens.default });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toEqual([
      'error: apps default and shop use the same token: BOTRULES_TOKEN and BOTRULES_SHOP_TOKEN hold the same value, so both would manage the same live rules',
      'Give each app the server token of its own application. Nothing was sent.',
      '',
    ]);
    expect(emu.emulator.log).toHaveLength(0);
  });

  it('refuses two apps that list rules with the same ruleIds, before any PATCH', async () => {
    // The shop app's application holds the default app's rules (the same live fingerprint).
    emu.emulator.replaceRules(emu.emulator.rules('default').map(({ priority: _p, ...r }) => r), 'shop');
    const first = emu.emulator.rules('default')[0];
    const result = await run(argv, { ...emu.env, BOTRULES_SHOP_TOKEN: tokens.shop });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toEqual([
      `error: apps default and shop list the same live rules (3 of 3 with the same ruleId, for example "A" (${first?.ruleId})): ` +
        'their tokens (BOTRULES_TOKEN, BOTRULES_SHOP_TOKEN) are for the same application',
      'Give each app the server token of its own application. Nothing was sent.',
      '',
    ]);
    expect(patches(emu.emulator)).toHaveLength(0);
  });
});
