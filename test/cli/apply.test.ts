// `botrules apply` end to end against the emulator: it applies and verifies, asks on a TTY,
// refuses without one, refuses blocked plans and plans over the change limit before any
// PATCH, and honours each unmanaged-rule policy.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { lettered, liveFields, names, patches, rule, tempProject, writeConfig, writeRules, type Project } from '../apply/fixtures.js';
import type { NormalRule, Rule } from '../../src/rules/model.js';

let emu: TestEmulator;
let project: Project;

beforeEach(async () => {
  emu = await startTestEmulator({ seedRules: lettered(5) });
  project = await tempProject();
});

afterEach(async () => {
  await emu.close();
  await project.close();
});

const run = (argv: string[], options: { stdin?: string; tty?: boolean } = {}) =>
  runCli(argv, { env: emu.env, cwd: project.dir, ...options });

/** E to the top, B described, C paused, A moved below D. */
function desired(): Rule[] {
  const [a, b, c, d, e] = lettered(5) as [NormalRule, NormalRule, NormalRule, NormalRule, NormalRule];
  return [e, { ...b, description: 'now described' }, { ...c, status: 'paused' }, d, a];
}

describe('botrules apply', () => {
  it('applies, verifies, and leaves nothing to plan', async () => {
    await writeRules(project.rulesDir, desired());
    const result = await run(['apply', '--auto-approve']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Plan: ');
    expect(result.stdout).toContain('✓ updated "B" (description)');
    expect(result.stdout).toMatch(/✓ moved "E" to position 1/);
    expect(result.stdout).toContain('Verified: live rules of app default match the rule files.');
    const sent = patches(emu.emulator).length;
    expect(result.stdout).toContain(`Apply complete: ${sent} PATCH requests, 0 failed.`);
    expect(liveFields(emu.emulator)).toEqual(desired());
    // Every body is minimal: never a ruleId, only changed fields.
    for (const entry of patches(emu.emulator)) expect(entry.body).not.toHaveProperty('ruleId');
    expect(patches(emu.emulator).find((e) => (e.body as { description?: string }).description)?.body).toEqual({ description: 'now described' });

    const again = await run(['plan', '--detailed-exitcode']);
    expect(again.code).toBe(0);
    expect(patches(emu.emulator)).toHaveLength(sent);
  });

  it('says so and sends nothing when there are no changes', async () => {
    await writeRules(project.rulesDir, lettered(5));
    const result = await run(['apply', '--undo-out', 'undo.json']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('No changes to apply.');
    expect(patches(emu.emulator)).toHaveLength(0);
    // The undo plan of nothing is empty, and runs.
    const undo = JSON.parse(await readFile(path.join(project.dir, 'undo.json'), 'utf8'));
    expect(undo.summary).toMatchObject({ patches: 0, blocked: 0, unmanaged: 0, positionChanges: 0 });
    expect((await run(['apply', '--plan', 'undo.json'])).stdout).toContain('No changes to apply.');
  });

  it('refuses without --auto-approve when stdin is not a terminal', async () => {
    await writeRules(project.rulesDir, desired());
    const result = await run(['apply']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('refusing to apply without --auto-approve when standard input is not a terminal');
    expect(patches(emu.emulator)).toHaveLength(0);
  });

  it('on a TTY asks, and applies only on "yes"', async () => {
    await writeRules(project.rulesDir, desired());
    const declined = await run(['apply'], { tty: true, stdin: 'y\n' });
    expect(declined.stderr).toContain("Apply these 4 changes to app default? Only 'yes' will be accepted:");
    expect(declined.stderr).toContain('Apply cancelled.');
    expect(declined.code).toBe(1);
    expect(patches(emu.emulator)).toHaveLength(0);

    const accepted = await run(['apply'], { tty: true, stdin: 'yes\n' });
    expect(accepted.code).toBe(0);
    expect(liveFields(emu.emulator)).toEqual(desired());
  });

  it('refuses a plan with blocked rules before any PATCH', async () => {
    await writeRules(project.rulesDir, [...desired(), rule('Not in the console')]);
    const result = await run(['apply', '--auto-approve']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the plan cannot be applied');
    expect(result.stderr).toContain('"Not in the console"');
    expect(patches(emu.emulator)).toHaveLength(0);
  });

  it('refuses more changes than --max-changes or the config allows, unless --force', async () => {
    await writeRules(project.rulesDir, desired());
    const flagged = await run(['apply', '--auto-approve', '--max-changes', '2']);
    expect(flagged.code).toBe(1);
    expect(flagged.stderr).toContain('more than --max-changes 2 allows');
    await writeConfig(project.dir, { apps: [{ name: 'default', rulesDir: 'rules', maxChanges: 3 }] });
    const configured = await run(['apply', '--auto-approve']);
    expect(configured.code).toBe(1);
    expect(configured.stderr).toContain('maxChanges 3');
    expect(patches(emu.emulator)).toHaveLength(0);

    const forced = await run(['apply', '--auto-approve', '--force']);
    expect(forced.code).toBe(0);
    expect(liveFields(emu.emulator)).toEqual(desired());
  });

  it('policy keep: unmanaged rules keep their positions and fields', async () => {
    const [a, b, c, d, e] = lettered(5) as [NormalRule, NormalRule, NormalRule, NormalRule, NormalRule];
    // C is unmanaged; the managed rules are reversed around it.
    await writeRules(project.rulesDir, [e, d, b, a]);
    const result = await run(['apply', '--auto-approve']);
    expect(result.code).toBe(0);
    expect(names(emu.emulator.rules())).toEqual(['E', 'D', 'C', 'B', 'A']);
    expect(emu.emulator.rules()[2]).toMatchObject(c);
  });

  it('policy pause: also pauses the active unmanaged rules', async () => {
    await writeConfig(project.dir, { apps: [{ name: 'default', rulesDir: 'rules', unmanaged: 'pause' }] });
    await writeRules(project.rulesDir, lettered(3));
    const result = await run(['apply', '--auto-approve']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('✓ paused unmanaged rule "D"');
    expect(emu.emulator.rules().map((r) => r.status)).toEqual(['active', 'active', 'active', 'paused', 'paused']);
    expect((await run(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('policy fail: refuses before any PATCH', async () => {
    await writeConfig(project.dir, { apps: [{ name: 'default', rulesDir: 'rules', unmanaged: 'fail' }] });
    await writeRules(project.rulesDir, lettered(3));
    const result = await run(['apply', '--auto-approve']);
    expect(result.code).toBe(1);
    expect(patches(emu.emulator)).toHaveLength(0);
  });
});
