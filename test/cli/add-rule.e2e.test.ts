// Adding a rule, the whole way, through the real binary against the emulator: the plan says
// exactly what to do in the console; the emulator's console creates the placeholder paused;
// `import --update --pin` writes its ruleId and nothing else; the plan then shows only the
// fields left to set, and apply sets them (docs/behaviour.md, "Adding a rule"). Six spawns of
// the binary in one test: 22.5 s at a load average of 22, so the slow tier, with a 120 s limit.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { CLI_BINARY } from '../helpers/binary.js';
import { conditionsFor, lettered, rule, tempProject, writeRules, type Project } from '../apply/fixtures.js';

let emu: TestEmulator;
let project: Project;

function botrules(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI_BINARY, ...argv], { cwd: project.dir, env: { ...emu.env, PATH: process.env.PATH, NO_COLOR: '1' } }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr }),
    );
  });
}

beforeEach(async () => {
  emu = await startTestEmulator({ seedRules: lettered(2) });
  project = await tempProject();
});

afterEach(async () => {
  await emu.close();
  await project.close();
});

const NEW_RULE = rule('Block scrapers', { description: 'declared in the pull request', conditions: conditionsFor('scrapy') });

describe('adding a rule', () => {
  it('plan → console create (paused) → import --update --pin → plan shows the remaining field changes → apply', async () => {
    const [a, b] = lettered(2) as [ReturnType<typeof rule>, ReturnType<typeof rule>];
    await writeRules(project.rulesDir, [a, NEW_RULE, b]);

    const blocked = await botrules(['plan']);
    expect(blocked.code).toBe(1);
    expect(blocked.stdout.split('\n')).toContain('      1. In the console, create a rule named "Block scrapers" with status paused, at position 2 (directly below "A").');
    expect(blocked.stdout.split('\n')).toContain('      2. Run `botrules import --update --pin` to write its ruleId into the file (nothing else in the files changes).');
    // The other way, where the service accepts POST: a create step.
    expect(blocked.stdout).toContain('`service.create: true` in botrules.yaml makes each a create step instead (docs/behaviour.md, "Creating and deleting rules").');

    const created = await botrules(['emulator', 'console', 'create', 'Block scrapers', '--paused', '--position', '2']);
    expect(created.code).toBe(0);
    const live = emu.emulator.rules().find((r) => r.name === 'Block scrapers');
    expect(created.stdout).toBe(`Created "Block scrapers" (${live?.ruleId}) at position 2, paused.\n`);
    expect(emu.emulator.rules().map((r) => [r.name, r.status])).toEqual([['A', 'active'], ['Block scrapers', 'paused'], ['B', 'active']]);
    // The console is not the service API: its own path, never a PATCH.
    expect(emu.emulator.log.map((entry) => `${entry.method} ${entry.path}`)).toEqual(['GET /api/v2/botProtection/customRules', 'POST /emulator-console/rules']);

    const pinned = await botrules(['import', '--update', '--pin']);
    expect(pinned.code).toBe(0);
    expect(pinned.stdout.split('\n')).toContain(`pinned rule "Block scrapers" to ruleId ${live?.ruleId}`);
    const file = await readFile(path.join(project.rulesDir, '020-rule.yaml'), 'utf8');
    // Only the ruleId line is new: the declared fields are kept, not the placeholder's.
    expect(file).toBe(stringify({ rules: [NEW_RULE] }).replace('- name: Block scrapers\n', `- name: Block scrapers\n    ruleId: ${live?.ruleId}\n`));

    const remaining = await botrules(['plan', '--detailed-exitcode']);
    expect(remaining.code).toBe(2);
    expect(remaining.stdout.split('\n')[0]).toBe('Plan: 1 PATCH request: 1 to update, 0 to move; 0 rules change position; 0 blocked; 0 not in the files, kept');
    expect(remaining.stdout.split('\n')).toContain(`~ "Block scrapers" (${live?.ruleId}): updates description, status, actions, conditions`);

    expect((await botrules(['apply', '--auto-approve'])).code).toBe(0);
    expect((await botrules(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('import refuses to overwrite existing files and says what --update and --update --pin do', async () => {
    await writeRules(project.rulesDir, lettered(2));
    const result = await botrules(['import']);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toContain(
      'Use --update to edit them in place so they declare the live rules (--update --pin only adds the ruleId of rules created in the console), ' +
        '--force to replace them (only *.yaml and *.yml files are removed), or --out to write elsewhere.',
    );
  });

  it('the console deletes a rule by name; the service API has no such request', async () => {
    const deleted = await botrules(['emulator', 'console', 'delete', 'A']);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toMatch(/^Deleted "A" \([\w-]+\), which was at position 1\.\n$/);
    expect(emu.emulator.rules().map((r) => r.name)).toEqual(['B']);
    const missing = await botrules(['emulator', 'console', 'delete', 'A']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('error: no rule has the ruleId or name "A"\n');
  });
});
