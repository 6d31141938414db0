// Saved plans: `plan --out` then `apply --plan` applies exactly the saved steps; a plan whose
// live rules changed since is refused with the rules named; an undo plan written by
// `apply --undo-out` restores the original live rules exactly.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { lettered, liveFields, patches, rule } from '../apply/fixtures.js';
import { fingerprintRules } from '../../src/plan/fingerprint.js';
import type { NormalRule, Rule } from '../../src/semantics/model.js';
import { live } from '../helpers/rules.js';
import { emulatorProjectForEachTest } from '../helpers/emulator-project.js';

const project = emulatorProjectForEachTest({ seedRules: lettered(5) });

const run = (argv: string[]) => project.run(argv);

function desired(): Rule[] {
  const [a, b, c, d, e] = lettered(5) as [NormalRule, NormalRule, NormalRule, NormalRule, NormalRule];
  return [d, { ...a, actions: ['allow'] }, c, { ...b, description: 'moved and described' }, { ...e, status: 'paused' }];
}

describe('apply --plan', () => {
  it('applies the saved plan and verifies it', async () => {
    await project.writeRules(desired());
    expect((await run(['plan', '--out', 'plan.json'])).code).toBe(0);
    const result = await run(['apply', '--plan', 'plan.json', '--auto-approve']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Verified: live rules of app default match the plan.');
    expect(liveFields(project.emulator)).toEqual(desired());
  });

  it('shows what the plan loosens and why removed rules cannot be told, as plan does, and the file carries both', async () => {
    const [a, b, c, d] = lettered(4) as [NormalRule, NormalRule, NormalRule, NormalRule];
    // A's hardBlock becomes allow; E is in no file; the project is not in a git repository.
    await project.writeRules([d, { ...a, actions: ['allow'] }, c, { ...b, description: 'moved and described' }]);
    const planned = await run(['plan', '--out', 'plan.json']);
    const applied = await run(['apply', '--plan', 'plan.json', '--auto-approve']);
    expect(applied.code).toBe(0);
    const note = 'Rules removed from the files cannot be told apart from rules never declared: the rules directory is not in a git repository (or git is not installed).';
    for (const shown of [planned.stdout, applied.stdout]) {
      const lines = shown.split('\n');
      expect(lines.slice(1, 5)).toEqual(['', 'What this plan loosens (review before applying):', '  ! "A" actions weakened from hardBlock to allow', '']);
      expect(lines).toContain(note);
    }
    const saved = JSON.parse(await readFile(path.join(project.dir, 'plan.json'), 'utf8'));
    expect(saved.notes).toEqual([note]);
    expect(saved.apps[0].risks).toEqual([{ ruleId: project.emulator.rules().find((r) => r.name === 'A')?.ruleId, name: 'A', what: 'actions weakened from hardBlock to allow' }]);
  });

  it('refuses a stale plan, naming what changed, before any PATCH', async () => {
    await project.writeRules(desired());
    expect((await run(['plan', '--out', 'plan.json'])).code).toBe(0);
    // Someone edits B in the console after the plan was made.
    const changed = project.emulator.rules().map(({ priority: _p, ...r }) => (r.name === 'B' ? { ...r, description: 'edited in the console' } : r));
    project.emulator.replaceRules(changed);
    const result = await run(['apply', '--plan', 'plan.json', '--auto-approve']);
    expect(result.code).toBe(1);
    const b = project.emulator.rules().find((r) => r.name === 'B');
    expect(result.stderr).toContain(`the live rules of app default changed since the plan was made: "B" (${b?.ruleId}) changed.`);
    expect(result.stderr).toContain('Run botrules plan again');
    expect(patches(project.emulator)).toHaveLength(0);
  });

  it('refuses a plan file that is not a plan', async () => {
    await writeFile(path.join(project.dir, 'plan.json'), '{"formatVersion": 3, "apps": [{"app": "default"}]}');
    const result = await run(['apply', '--plan', 'plan.json', '--auto-approve']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('plan.json is not a valid botrules plan');
    expect(project.emulator.log).toHaveLength(0);
  });

  it('refuses a plan of formatVersion 1 with what to do, before any request', async () => {
    await writeFile(path.join(project.dir, 'plan.json'), '{"formatVersion": 1, "apps": [], "summary": {"patches": 0, "blocked": 0, "unmanaged": 0}}');
    const result = await run(['apply', '--plan', 'plan.json', '--auto-approve']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: plan.json is not a plan this botrules can apply: it has formatVersion 1, and this version reads formatVersion 3');
    expect(result.stderr).toContain('Write the plan again with this version: botrules plan --out FILE');
    expect(project.emulator.log).toHaveLength(0);
  });

  it('refuses a plan for an app the config does not name, before any request', async () => {
    await project.writeRules(desired());
    await run(['plan', '--out', 'plan.json']);
    const file = path.join(project.dir, 'plan.json');
    const saved = JSON.parse(await readFile(file, 'utf8'));
    saved.apps[0].app = 'shop';
    await writeFile(file, JSON.stringify(saved));
    const requestsBefore = project.emulator.log.length;
    const result = await run(['apply', '--plan', 'plan.json', '--auto-approve']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('plan.json plans app shop, which the config does not name');
    expect(project.emulator.log).toHaveLength(requestsBefore);
  });
});

describe('apply --undo-out', () => {
  it('writes a plan that restores every field and position, and runs with apply --plan', async () => {
    const original = project.emulator.rules();
    await project.writeRules(desired());
    const applied = await run(['apply', '--auto-approve', '--undo-out', 'undo.json']);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Undo plan written to undo.json');
    expect(liveFields(project.emulator)).toEqual(desired());

    const undone = await run(['apply', '--plan', 'undo.json', '--auto-approve']);
    expect(undone.code).toBe(0);
    expect(project.emulator.rules()).toEqual(original);
    // The fingerprint of what the tool reads: the listed rules in normal form.
    expect(fingerprintRules(project.emulator.rules().map((rule) => live(rule)))).toBe(fingerprintRules(original.map((rule) => live(rule))));
  });

  it('an undo plan is refused once the rules changed again', async () => {
    await project.writeRules(desired());
    await run(['apply', '--auto-approve', '--undo-out', 'undo.json']);
    await project.writeRules([...desired().slice(0, 4), rule('E', { description: 'changed again' })]);
    expect((await run(['apply', '--auto-approve'])).code).toBe(0);
    const result = await run(['apply', '--plan', 'undo.json', '--auto-approve']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/"E" \([^)]+\) changed/);
  });
});
