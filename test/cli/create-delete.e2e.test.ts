// Rules created and deleted from git (docs/behaviour.md, "Creating and deleting rules"), the
// whole way through the real binary against an emulator serving POST and DELETE
// (`--capabilities create,delete`), its requests read from its request log (`--log`): a pull
// request that adds two rules (one in the middle, one at the end), deletes one rule file and
// reverses three rules applies with exactly the fewest requests, leaves the declared state,
// plans clean, and its undo plan restores the rules as they were (the deleted one under a new
// ruleId, which apply reports).
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { CLI_BINARY } from '../helpers/binary.js';
import { conditionsFor, lettered, rule, tempProject, type Project } from '../apply/fixtures.js';
import type { Rule } from '../../src/semantics/model.js';

let emu: TestEmulator;
let project: Project;
let logFile: string;

function botrules(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI_BINARY, ...argv], { cwd: project.dir, env: { ...emu.env, PATH: process.env.PATH, NO_COLOR: '1' } }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr }),
    );
  });
}

/** The requests the emulator logged since `from` lines, as `METHOD path` without the list calls. */
async function changesLogged(from = 0): Promise<string[]> {
  const lines = (await readFile(logFile, 'utf8')).split('\n').filter((line) => line !== '').slice(from);
  return lines.map((line) => JSON.parse(line) as { method: string; path: string }).filter((entry) => entry.method !== 'GET').map((entry) => entry.method);
}

async function logLength(): Promise<number> {
  return (await readFile(logFile, 'utf8')).split('\n').filter((line) => line !== '').length;
}

/** One rule per file, named so that the files sort in the order given. */
async function writeFiles(files: Record<string, Rule>): Promise<void> {
  await Promise.all(Object.entries(files).map(([file, declared]) => writeFile(path.join(project.rulesDir, file), stringify({ rules: [declared] }))));
}

const [A, B, C, D, E, F, G, H] = lettered(8) as unknown as [Rule, Rule, Rule, Rule, Rule, Rule, Rule, Rule];
const MIDDLE = rule('Challenge scrapers', { description: 'added in the middle', actions: ['blockWithChallenge'], conditions: conditionsFor('scrapy') });
const END = rule('Allow the monitor', { description: 'added at the end', actions: ['allow'], conditions: conditionsFor('uptime-monitor') });

beforeEach(async () => {
  project = await tempProject();
  logFile = path.join(project.dir, 'emulator-requests.ndjson');
  emu = await startTestEmulator({ seedRules: lettered(8), capabilities: ['create', 'delete'], logFile });
  await writeFile(path.join(project.dir, 'botrules.yaml'), stringify({ service: { create: true, delete: true }, unmanaged: 'delete', apps: [{ name: 'default', rulesDir: 'rules' }] }));
  // The files as they were before the pull request: the live rules, one file each.
  await writeFiles({ '010-a.yaml': A, '020-b.yaml': B, '030-c.yaml': C, '040-d.yaml': D, '050-e.yaml': E, '060-f.yaml': F, '070-g.yaml': G, '080-h.yaml': H });
});

afterEach(async () => {
  await emu.close();
  await project.close();
});

describe('a pull request that creates, deletes and reorders rules', () => {
  it('applies with the fewest requests, plans clean, and its undo restores the rules', async () => {
    const before = emu.emulator.rules();
    // The pull request: C's file is deleted, a rule is added after B and one at the end, and D, E, F are reversed.
    await rm(path.join(project.rulesDir, '030-c.yaml'));
    await rm(path.join(project.rulesDir, '040-d.yaml'));
    await rm(path.join(project.rulesDir, '060-f.yaml'));
    await writeFiles({ '025-middle.yaml': MIDDLE, '040-f.yaml': F, '060-d.yaml': D, '090-end.yaml': END });
    const declaredOrder = ['A', 'B', 'Challenge scrapers', 'F', 'E', 'D', 'G', 'H', 'Allow the monitor'];

    const planned = await botrules(['plan', '--format', 'json']);
    expect(planned.code).toBe(0);
    const steps = (JSON.parse(planned.stdout) as { apps: { steps: { kind: string; name: string; body?: Record<string, unknown> }[] }[] }).apps[0]?.steps ?? [];
    expect(steps.filter((step) => step.kind !== 'move').map((step) => `${step.kind} ${step.name}`).sort()).toEqual(['create Allow the monitor', 'create Challenge scrapers', 'delete C']);
    // Two of the three reversed rules move (which two is the planner's choice: both are fewest).
    expect(steps.filter((step) => step.kind === 'move').map((step) => step.name).every((name) => ['D', 'E', 'F'].includes(name))).toBe(true);
    expect(steps.filter((step) => step.kind === 'move')).toHaveLength(2);
    expect(steps.find((step) => step.kind === 'delete')).not.toHaveProperty('body');
    expect(Object.keys(steps.find((step) => step.name === 'Challenge scrapers')?.body ?? {}).sort()).toEqual(['actions', 'conditions', 'description', 'name', 'priority', 'status']);

    const logged = await logLength();
    const applied = await botrules(['apply', '--auto-approve', '--undo-out', 'undo.json']);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    // The lower bound (docs/design.md, "Creates and deletes in the order search"): one POST per
    // new rule (2), one DELETE per deleted rule (1), and for the staying rules no field change and
    // a reversal of three, whose longest run in declared order is one rule: 2 PATCHes. 5 in all.
    expect((await changesLogged(logged)).sort()).toEqual(['DELETE', 'PATCH', 'PATCH', 'POST', 'POST']);
    const live = emu.emulator.rules();
    expect(live.map((r) => r.name)).toEqual(declaredOrder);
    for (const created of live.filter((r) => r.name === MIDDLE.name || r.name === END.name)) {
      expect(applied.stdout.split('\n')).toContain(`✓ created "${created.name}" at position ${created.priority + 1}: new ruleId ${created.ruleId}`);
      const { ruleId: _id, priority: _p, ...fields } = created;
      expect(fields).toEqual(created.name === MIDDLE.name ? MIDDLE : END);
    }
    expect(applied.stdout).toContain('Apply complete: 5 requests, 0 failed.');
    expect((await botrules(['plan', '--detailed-exitcode'])).code).toBe(0);

    const beforeUndo = await logLength();
    const undone = await botrules(['apply', '--plan', 'undo.json', '--auto-approve']);
    expect(undone.stderr).toBe('');
    expect(undone.code).toBe(0);
    // Undo: the two created rules deleted, C created again, and D and F back in their places.
    expect((await changesLogged(beforeUndo)).sort()).toEqual(['DELETE', 'DELETE', 'PATCH', 'PATCH', 'POST']);
    const restored = emu.emulator.rules();
    const withoutIds = (rules: readonly { ruleId: string }[]): unknown[] => rules.map(({ ruleId: _id, ...rest }) => rest);
    expect(withoutIds(restored)).toEqual(withoutIds(before));
    const recreated = restored.find((r) => r.name === 'C');
    expect(recreated?.ruleId).not.toBe(before.find((r) => r.name === 'C')?.ruleId);
    expect(restored.filter((r) => r.name !== 'C').map((r) => r.ruleId)).toEqual(before.filter((r) => r.name !== 'C').map((r) => r.ruleId));
    expect(undone.stdout.split('\n')).toContain(`✓ created "C" at position 3: new ruleId ${recreated?.ruleId}`);
  });

  it('without the capabilities the emulator answers 405 to POST and DELETE, and apply stops and names the setting', async () => {
    await emu.close();
    emu = await startTestEmulator({ seedRules: lettered(3), logFile });
    await rm(project.rulesDir, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(project.rulesDir));
    await writeFiles({ '010-a.yaml': A, '015-middle.yaml': MIDDLE, '020-b.yaml': B, '030-c.yaml': C });
    const logged = await logLength().catch(() => 0);
    const applied = await botrules(['apply', '--auto-approve']);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toMatch(/^error: apply stopped: .*the service does not create rules \(405 to the request\): set service\.create: false for app default in botrules\.yaml/);
    expect(applied.stdout).toContain('✗ failed: created "Challenge scrapers" at position 2');
    expect(await changesLogged(logged)).toEqual(['POST']);
    expect(emu.emulator.rules().map((r) => r.name)).toEqual(['A', 'B', 'C']);
    // The undo plan is written without --undo-out, as after an interrupt: nothing was applied, so it changes nothing.
    const undoFile = /Undo plan of what was applied written to (botrules-undo-\d{8}T\d{6}Z\.json)/.exec(applied.stdout)?.[1] ?? '';
    const undo = JSON.parse(await readFile(path.join(project.dir, undoFile), 'utf8')) as { summary: { patches: number } };
    expect(undo.summary.patches).toBe(0);
  });
});
