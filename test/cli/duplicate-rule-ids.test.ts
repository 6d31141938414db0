// Two live rules with one ruleId cannot be told apart: a plan would match one and lose the
// other. Every command that reads the list refuses it with the same sentence, before any
// update is sent: plan, apply, import, import --update, live, and plan --live with a snapshot.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { lettered, patches, rule, tempProject, writeRules, type Project } from '../apply/fixtures.js';

const SENTENCE = 'ruleId "dup" appears twice in app "default": two live rules with one id cannot be told apart; botrules sends no update while the list holds them';

let emu: TestEmulator;
let project: Project;

beforeEach(async () => {
  emu = await startTestEmulator({ seedRules: lettered(2) });
  project = await tempProject();
  await writeRules(project.rulesDir, [rule('A'), rule('B', { description: 'changed' })]);
});

afterEach(async () => {
  await emu.close();
  await project.close();
});

const run = (argv: string[]) => runCli(argv, { env: emu.env, cwd: project.dir });

describe('a ruleId listed twice', () => {
  it.each([
    [['plan']],
    [['apply', '--auto-approve']],
    [['import', '--out', 'imported']],
    [['import', '--update']],
    [['live']],
  ])('%j refuses the list with the one sentence and sends nothing', async (argv) => {
    emu.emulator.replaceRules([{ ...rule('A'), ruleId: 'dup' } as never, { ...rule('B'), ruleId: 'dup' } as never]);
    const result = await run(argv);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toContain(`error: the service returned a rule list botrules does not understand: content[1]: ${SENTENCE}`);
    expect(patches(emu.emulator)).toHaveLength(0);
  });

  it('plan --live refuses a snapshot holding it with the same sentence', async () => {
    expect((await run(['live', '--out', 'live.json'])).code).toBe(0);
    const snapshot = JSON.parse(await readFile(path.join(project.dir, 'live.json'), 'utf8')) as { apps: { rules: { ruleId: string }[] }[] };
    for (const r of snapshot.apps[0]?.rules ?? []) r.ruleId = 'dup';
    await writeFile(path.join(project.dir, 'live.json'), JSON.stringify(snapshot, null, 2));
    const result = await run(['plan', '--live', 'live.json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(SENTENCE);
  });
});
