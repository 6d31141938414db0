// Two live rules with one ruleId cannot be told apart: a plan would match one and lose the
// other. Every command that reads the list refuses it with the same sentence, before any
// update is sent: plan, apply, import, import --update, live, and plan --live with a snapshot.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { lettered, patches, rule } from '../apply/fixtures.js';
import { emulatorProjectForEachTest } from '../helpers/emulator-project.js';

const SENTENCE = 'ruleId "dup" appears twice in app "default": two live rules with one id cannot be told apart; botrules sends no update while the list holds them';

const project = emulatorProjectForEachTest({ seedRules: lettered(2) });
beforeEach(async () => {
  await project.writeRules([rule('A'), rule('B', { description: 'changed' })]);
});

const run = (argv: string[]) => project.run(argv);

describe('a ruleId listed twice', () => {
  it.each([
    [['plan']],
    [['apply', '--auto-approve']],
    [['import', '--out', 'imported']],
    [['import', '--update']],
    [['live']],
  ])('%j refuses the list with the one sentence and sends nothing', async (argv) => {
    project.emulator.replaceRules([{ ...rule('A'), ruleId: 'dup' } as never, { ...rule('B'), ruleId: 'dup' } as never]);
    const result = await run(argv);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toContain(`error: the service returned a rule list botrules does not understand: content[1]: ${SENTENCE}`);
    expect(patches(project.emulator)).toHaveLength(0);
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
