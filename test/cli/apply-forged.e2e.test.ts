// Saved plans cannot lie: a plan file edited after `plan --out` (or `apply --undo-out`) is
// refused by `apply --plan` through the real binary, naming the first difference, with no
// PATCH reaching the emulator; what apply shows comes from the live rules, not the file.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { lettered, patches, tempProject, writeRules, type Project } from '../apply/fixtures.js';
import type { NormalRule, Rule } from '../../src/semantics/model.js';
import { CLI_BINARY } from '../helpers/binary.js';

const BIN = CLI_BINARY;

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

/** The real binary, asynchronously (the emulator answers from this process). */
function binary(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...argv], { cwd: project.dir, env: { ...emu.env, PATH: process.env.PATH, NO_COLOR: '1' } }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr }),
    );
  });
}

/** D first, A's actions, B moved and described, E paused: a move-and-update, updates and a move. */
function desired(): Rule[] {
  const [a, b, c, d, e] = lettered(5) as [NormalRule, NormalRule, NormalRule, NormalRule, NormalRule];
  return [d, { ...a, actions: ['allow'] }, c, { ...b, description: 'moved and described' }, { ...e, status: 'paused' }];
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function savedPlan(): Promise<Json> {
  await writeRules(project.rulesDir, desired());
  expect((await runCli(['plan', '--out', 'plan.json'], { env: emu.env, cwd: project.dir })).code).toBe(0);
  return JSON.parse(await readFile(path.join(project.dir, 'plan.json'), 'utf8')) as Json;
}

async function applyForged(plan: Json): Promise<{ code: number; stdout: string; stderr: string }> {
  await writeFile(path.join(project.dir, 'forged.json'), JSON.stringify(plan));
  const result = await binary(['apply', '--plan', 'forged.json', '--auto-approve']);
  expect(patches(emu.emulator)).toHaveLength(0);
  expect(result.code).toBe(1);
  return result;
}

const stepOf = (plan: Json, name: string): Json => (plan.apps[0].steps as Json[]).find((s) => s.name === name) as Json;

describe('apply --plan refuses a forged plan, sending nothing', () => {
  it('a body changed together with its changes (consistent, but not what the rule files say)', async () => {
    const plan = await savedPlan();
    const step = stepOf(plan, 'E');
    step.body.status = 'active';
    step.changes = [{ field: 'description', before: '', after: 'forged' }];
    step.body = { description: 'forged' };
    const { stderr } = await applyForged(plan);
    expect(stderr).toContain('error: forged.json is not what re-planning app default from the rule files against the live rules gives');
    expect(stderr).toMatch(/step \d \(rule "[^"]+"\): its body in the file is \{"description":"forged"\}, re-planning gives \{"status":"paused"\}; they first differ at \/apps\/0\/steps\/\d\/body\/description$/m);
    expect(stderr).toContain('Nothing was sent.');
  });

  it('a body changed alone (the step contradicts its own changes)', async () => {
    const plan = await savedPlan();
    stepOf(plan, 'E').body.status = 'active';
    const { stderr } = await applyForged(plan);
    expect(stderr).toMatch(/forged\.json is not a valid botrules plan: apps\[0\]\.steps\[\d\]: the body does not send exactly the after values of its changes/);
  });

  it('a name changed', async () => {
    const plan = await savedPlan();
    stepOf(plan, 'A').name = 'Allow uptime monitors';
    const { stderr, stdout } = await applyForged(plan);
    expect(stderr).toMatch(/its name in the file is "Allow uptime monitors", re-planning gives "A"/);
    expect(stdout).not.toContain('Allow uptime monitors');
  });

  it('a step added', async () => {
    const plan = await savedPlan();
    const c = emu.emulator.rules().find((r) => r.name === 'C')!;
    plan.apps[0].steps.push({ ruleId: c.ruleId, name: 'C', kind: 'update', body: { status: 'paused' }, changes: [{ field: 'status', before: 'active', after: 'paused' }] });
    const { stderr } = await applyForged(plan);
    expect(stderr).toContain(`step 5 (update of rule "${c.ruleId}") is not in the steps re-planning gives`);
  });

  it('a step removed', async () => {
    const plan = await savedPlan();
    const removed = plan.apps[0].steps.pop() as Json;
    const { stderr } = await applyForged(plan);
    expect(stderr).toContain(`step 4 is missing from the file: re-planning gives ${removed.kind} of rule "${removed.ruleId}"`);
  });

  it('the changes (what a reviewer reads) edited', async () => {
    const plan = await savedPlan();
    stepOf(plan, 'A').changes[0].before = ['allow'];
    stepOf(plan, 'A').changes[0].after = ['allow'];
    const { stderr } = await applyForged(plan);
    expect(stderr).toContain('change of actions changes nothing');
    stepOf(plan, 'A').changes[0].before = ['blockWithChallenge'];
    const again = await applyForged(plan);
    expect(again.stderr).toMatch(/its changes in the file is \[\{"field":"actions","before":\["blockWithChallenge"\]/);
  });

  it('reasons written in the old style', async () => {
    const plan = await savedPlan();
    stepOf(plan, 'A').reasons = ['description'];
    const { stderr } = await applyForged(plan);
    expect(stderr).toMatch(/unknown key "reasons" in apps\[0\]\.steps\[\d\]/);
  });

  it('a forward plan presented as an undo plan', async () => {
    const plan = await savedPlan();
    plan.apps[0].restore = emu.emulator.rules();
    const { stderr } = await applyForged(plan);
    expect(stderr).toContain('error: forged.json is not what re-planning app default from the rules it records against the live rules gives, so the undo plan is refused');
    expect(stderr).toContain('step 1 (');
    expect(stderr).toContain(') is not in the steps re-planning gives');
  });

  it('an undo plan whose recorded rules were edited', async () => {
    await writeRules(project.rulesDir, desired());
    expect((await runCli(['apply', '--auto-approve', '--undo-out', 'undo.json'], { env: emu.env, cwd: project.dir })).code).toBe(0);
    const sent = patches(emu.emulator).length;
    const undo = JSON.parse(await readFile(path.join(project.dir, 'undo.json'), 'utf8')) as Json;
    undo.apps[0].restore[0].actions = ['allow'];
    await writeFile(path.join(project.dir, 'forged.json'), JSON.stringify(undo));
    const result = await binary(['apply', '--plan', 'forged.json', '--auto-approve']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('so the undo plan is refused');
    expect(patches(emu.emulator)).toHaveLength(sent);
    // The untouched undo plan still applies.
    expect((await binary(['apply', '--plan', 'undo.json', '--auto-approve'])).code).toBe(0);
  });

  it('a plan made from a live snapshot', async () => {
    const plan = await savedPlan();
    plan.snapshot = { takenAt: '2026-01-02T03:04:05.000Z' };
    const { stderr } = await applyForged(plan);
    expect(stderr).toContain(
      'error: forged.json was planned against a snapshot of the live rules taken at "2026-01-02T03:04:05.000Z" (plan --live), ' +
        'not against the live rules themselves; such a plan is for review and can never be applied',
    );
  });

  // Three spawns of the binary: over 30 s with two test runs side by side on the loaded 2-core machine.
  it('an unedited plan applies, showing exactly what plan showed, derived from the live rules', async () => {
    await savedPlan();
    const shown = await binary(['plan']);
    const result = await binary(['apply', '--plan', 'plan.json', '--auto-approve']);
    expect(result.code).toBe(0);
    // What operator-matrix did not check ends both; apply --plan reads no rule file, so it
    // places the line at the saved plan, as it places every built-in finding.
    const coverage = /^rules\/\S+:\d+:\d+(?=: info: operator-matrix: )/m;
    expect(shown.stdout).toMatch(coverage);
    expect(result.stdout.startsWith(shown.stdout.replace(coverage, 'plan.json:1:1'))).toBe(true);
    expect(result.stdout).toContain('-status: active\n    +status: paused');
    expect(result.stdout).toContain('Verified: live rules of app default match the plan.');
  });
});
