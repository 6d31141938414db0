// Two apps of botrules.yaml that are really one application (docs/behaviour.md, "Apps that list
// the same rules"): the same token value in both variables (a copy-paste in CI secrets), or
// live rules with the same ruleIds. plan and apply refuse before any change, naming both apps
// and never printing the token. With `unmanaged: pause`, one app's plan would otherwise pause
// the other app's rules. With --app the other apps are not listed: the selected app is still
// compared with them, by token value where their variables are set, and by the ruleIds their
// rule files pin (a CI job that holds only its own app's token).
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

/** The default app's rule files with each rule's live ruleId written, as import writes them. */
async function pinDefaultRules(): Promise<void> {
  await writeRules(project.rulesDir, emu.emulator.rules('default').map(({ priority: _p, ...r }) => r));
}

describe.each([['plan'], ['apply', '--auto-approve']])('%s --app shop', (...argv) => {
  it('refuses when a left-out app\'s token variable holds the same value, before any request', async () => {
    const result = await run([...argv, '--app', 'shop'], { ...emu.env, BOTRULES_TOKEN: tokens.default, BOTRULES_SHOP_TOKEN: tokens.default });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toEqual([
      'error: apps shop and default use the same token: BOTRULES_SHOP_TOKEN and BOTRULES_TOKEN hold the same value, so both would manage the same live rules',
      'Give each app the server token of its own application. Nothing was sent.',
      '',
    ]);
    expect(emu.emulator.log).toHaveLength(0);
  });

  it('refuses when its token lists rules another app\'s files pin by ruleId (a job holding only its own token), before any PATCH', async () => {
    await pinDefaultRules();
    const first = emu.emulator.rules('default')[0];
    // The shop job's secret holds the default app's token; the default app's token is not in this job.
    const result = await run([...argv, '--app', 'shop'], { ...emu.env, BOTRULES_TOKEN: '', BOTRULES_SHOP_TOKEN: tokens.default });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toEqual([
      'error: apps shop and default list the same live rules: 3 of the 3 live rules of app shop are pinned by ruleId in the rule files of app default, ' +
        `for example "A" (${first?.ruleId}) at rules/010-rule.yaml:2:5: the token in BOTRULES_SHOP_TOKEN is for the application of app default`,
      'Give each app the server token of its own application. Nothing was sent.',
      '',
    ]);
    expect(patches(emu.emulator)).toHaveLength(0);
  });

  it('goes ahead with its own token, the other app\'s pinned rules being another application\'s', async () => {
    await pinDefaultRules();
    const result = await run([...argv, '--app', 'shop'], { ...emu.env, BOTRULES_TOKEN: '', BOTRULES_SHOP_TOKEN: tokens.shop });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});

describe('apply --plan of one app', () => {
  it('compares the app with the apps the plan leaves out, before any PATCH', async () => {
    await pinDefaultRules();
    await writeRules(path.join(project.dir, 'shop'), [rule('S1', { description: 'changed' })]);
    expect((await run(['plan', '--app', 'shop', '--out', 'plan.json'], { ...emu.env, BOTRULES_SHOP_TOKEN: tokens.shop })).code).toBe(0);
    // Applied by a job whose secret holds the wrong application's token.
    const result = await run(['apply', '--plan', 'plan.json', '--auto-approve'], { ...emu.env, BOTRULES_TOKEN: '', BOTRULES_SHOP_TOKEN: tokens.default });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toMatch(/^error: apps shop and default list the same live rules: 3 of the 3 live rules of app shop are pinned by ruleId in the rule files of app default, /);
    expect(patches(emu.emulator)).toHaveLength(0);
  });
});
