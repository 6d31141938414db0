// `botrules apply` end to end against the emulator: it applies and verifies, asks on a TTY,
// refuses without one, refuses blocked plans and plans over the change limit before any
// PATCH, and honours each unmanaged-rule policy.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { lettered, liveFields, names, patches, rule } from '../apply/fixtures.js';
import type { NormalRule, Rule } from '../../src/semantics/model.js';
import { emulatorProjectForEachTest } from '../helpers/emulator-project.js';

const project = emulatorProjectForEachTest({ seedRules: lettered(5) });

const run = (argv: string[], options: { stdin?: string; tty?: boolean } = {}) =>
  project.run(argv, options);

/** E to the top, B described, C paused, A moved below D. */
function desired(): Rule[] {
  const [a, b, c, d, e] = lettered(5) as [NormalRule, NormalRule, NormalRule, NormalRule, NormalRule];
  return [e, { ...b, description: 'now described' }, { ...c, status: 'paused' }, d, a];
}

describe('botrules apply', () => {
  it('applies, verifies, and leaves nothing to plan', async () => {
    await project.writeRules(desired());
    const result = await run(['apply', '--auto-approve']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Plan: ');
    expect(result.stdout).toContain('✓ updated "B" (description)');
    expect(result.stdout).toMatch(/✓ moved "E" to position 1/);
    expect(result.stdout).toContain('Verified: live rules of app default match the rule files.');
    const sent = patches(project.emulator).length;
    expect(result.stdout).toContain(`Apply complete: ${sent} PATCH requests, 0 failed.`);
    expect(liveFields(project.emulator)).toEqual(desired());
    // Every body is minimal: never a ruleId, only changed fields.
    for (const entry of patches(project.emulator)) expect(entry.body).not.toHaveProperty('ruleId');
    expect(patches(project.emulator).find((e) => (e.body as { description?: string }).description)?.body).toEqual({ description: 'now described' });

    const again = await run(['plan', '--detailed-exitcode']);
    expect(again.code).toBe(0);
    expect(patches(project.emulator)).toHaveLength(sent);
  });

  it('says so and sends nothing when there are no changes', async () => {
    await project.writeRules(lettered(5));
    const result = await run(['apply', '--undo-out', 'undo.json']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('No changes to apply.');
    expect(patches(project.emulator)).toHaveLength(0);
    // The undo plan of nothing is empty, and runs.
    const undo = JSON.parse(await readFile(path.join(project.dir, 'undo.json'), 'utf8'));
    expect(undo.summary).toMatchObject({ patches: 0, blocked: 0, unmanaged: 0, positionChanges: 0 });
    expect((await run(['apply', '--plan', 'undo.json'])).stdout).toContain('No changes to apply.');
  });

  it('refuses without --auto-approve when stdin is not a terminal', async () => {
    await project.writeRules(desired());
    const result = await run(['apply']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('refusing to apply without --auto-approve when standard input is not a terminal');
    expect(patches(project.emulator)).toHaveLength(0);
  });

  it('on a TTY asks, and applies only on "yes"', async () => {
    await project.writeRules(desired());
    const declined = await run(['apply'], { tty: true, stdin: 'y\n' });
    expect(declined.stderr).toContain("Apply these 4 changes to app default? Only 'yes' will be accepted:");
    expect(declined.stderr).toContain('Apply cancelled.');
    expect(declined.code).toBe(1);
    expect(patches(project.emulator)).toHaveLength(0);

    const accepted = await run(['apply'], { tty: true, stdin: 'yes\n' });
    expect(accepted.code).toBe(0);
    expect(liveFields(project.emulator)).toEqual(desired());
  });

  it('on a TTY names what the plan loosens again right above the question', async () => {
    const [a, b, c, d, e] = lettered(5) as [NormalRule, NormalRule, NormalRule, NormalRule, NormalRule];
    await project.writeRules([{ ...a, status: 'paused' }, { ...b, actions: ['blockWithChallenge'] }, c, d, e]);
    const declined = await run(['apply', '--no-color'], { tty: true, stdin: 'no\n' });
    expect(declined.stderr.split('\n').slice(0, 5)).toEqual([
      '',
      'Before you answer: this plan loosens 2 rules:',
      '  ! "A" (hardBlock) is paused',
      '  ! "B" actions weakened from hardBlock to blockWithChallenge',
      "Apply these 2 changes to app default? Only 'yes' will be accepted: Apply cancelled.",
    ]);
    // Without loosenings, only the question.
    await project.writeRules([{ ...a, description: 'only words' }, b, c, d, e]);
    const plain = await run(['apply', '--no-color'], { tty: true, stdin: 'no\n' });
    expect(plain.stderr.split('\n').slice(0, 1)).toEqual(["Apply this change to app default? Only 'yes' will be accepted: Apply cancelled."]);
  });

  it('refuses a plan with blocked rules before any PATCH', async () => {
    await project.writeRules([...desired(), rule('Not in the console')]);
    const result = await run(['apply', '--auto-approve']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the plan cannot be applied');
    expect(result.stderr).toContain('"Not in the console"');
    expect(patches(project.emulator)).toHaveLength(0);
  });

  it('refuses more changes than --max-changes or the config allows, unless --force', async () => {
    await project.writeRules(desired());
    const flagged = await run(['apply', '--auto-approve', '--max-changes', '2']);
    expect(flagged.code).toBe(1);
    expect(flagged.stderr).toContain('more than --max-changes 2 allows');
    await project.writeConfig({ apps: [{ name: 'default', rulesDir: 'rules', maxChanges: 3 }] });
    const configured = await run(['apply', '--auto-approve']);
    expect(configured.code).toBe(1);
    expect(configured.stderr).toContain('maxChanges 3');
    expect(patches(project.emulator)).toHaveLength(0);

    const forced = await run(['apply', '--auto-approve', '--force']);
    expect(forced.code).toBe(0);
    expect(liveFields(project.emulator)).toEqual(desired());
  });

  it('policy keep: unmanaged rules keep their positions and fields', async () => {
    const [a, b, c, d, e] = lettered(5) as [NormalRule, NormalRule, NormalRule, NormalRule, NormalRule];
    // C is unmanaged; the managed rules are reversed around it.
    await project.writeRules([e, d, b, a]);
    const result = await run(['apply', '--auto-approve']);
    expect(result.code).toBe(0);
    expect(names(project.emulator.rules())).toEqual(['E', 'D', 'C', 'B', 'A']);
    expect(project.emulator.rules()[2]).toMatchObject(c);
  });

  it('policy pause: also pauses the active unmanaged rules', async () => {
    await project.writeConfig({ apps: [{ name: 'default', rulesDir: 'rules', unmanaged: 'pause' }] });
    await project.writeRules(lettered(3));
    const result = await run(['apply', '--auto-approve']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('✓ paused unmanaged rule "D"');
    expect(project.emulator.rules().map((r) => r.status)).toEqual(['active', 'active', 'active', 'paused', 'paused']);
    expect((await run(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('policy fail: refuses before any PATCH', async () => {
    await project.writeConfig({ apps: [{ name: 'default', rulesDir: 'rules', unmanaged: 'fail' }] });
    await project.writeRules(lettered(3));
    const result = await run(['apply', '--auto-approve']);
    expect(result.code).toBe(1);
    expect(patches(project.emulator)).toHaveLength(0);
  });
});
