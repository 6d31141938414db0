// `botrules plan` end to end against the emulator: the three formats, --out, exit codes,
// matching errors, blocked rules, and what must hold before any request is sent.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { lettered, patches, rule, writeRules } from '../apply/fixtures.js';
import { emulatorProjectForEachTest } from '../helpers/emulator-project.js';
import { matrixCoverageLine, matrixCoverageNote } from '../helpers/operator-matrix.js';

const project = emulatorProjectForEachTest({ seedRules: lettered(4) });

const run = (argv: string[]) => project.run(argv);

/** Declared: D moved to the top, B with a new description. */
async function declareChanges(): Promise<void> {
  const [a, b, c, d] = lettered(4) as [ReturnType<typeof rule>, ReturnType<typeof rule>, ReturnType<typeof rule>, ReturnType<typeof rule>];
  await project.writeRules([d, a, { ...b, description: 'now described' }, c]);
}

describe('botrules plan', () => {
  it('prints the text plan: summary, the changed field, the move', async () => {
    await declareChanges();
    const result = await run(['plan']);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('Plan: 2 PATCH requests: 1 to update, 1 to move; 4 rules change position; 0 blocked; 0 not in the files, kept');
    expect(result.stdout).toContain('now described');
    expect(result.stdout).toMatch(/moves from position 4 to 1/);
    // What operator-matrix did not check, after the plan.
    expect(result.stdout.endsWith(`\n\n${matrixCoverageLine('rules/010-rule.yaml:2:5', 'socketIps', 4, 'D')}\n`)).toBe(true);
    expect(patches(project.emulator)).toHaveLength(0);
  });

  it('--verbose says how long reading the files, the LIST and planning took, on stderr', async () => {
    await declareChanges();
    const result = await run(['plan', '--verbose']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^read and checked \d+ rule files? in \d+ ms$/m);
    expect(result.stderr).toMatch(/^GET https:\/\/\S+ -> 200 in \d+ ms$/m);
    expect(result.stderr).toMatch(/^planned app default \(4 declared, 4 live rules\) in \d+ ms$/m);
    expect(result.stdout).not.toMatch(/ in \d+ ms/);
  });

  it('prints JSON (docs/behaviour.md, "Plan format") and writes the same plan to --out, with no token inside', async () => {
    await declareChanges();
    const result = await run(['plan', '--format', 'json', '--out', 'plan.json']);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed).toMatchObject({ formatVersion: 3, summary: { patches: 2, blocked: 0, unmanaged: 0 } });
    expect(printed.apps[0].steps.map((s: { name: string; body: object }) => [s.name, s.body])).toEqual([
      ['D', { priority: 0 }],
      ['B', { description: 'now described' }],
    ]);
    const saved = await readFile(path.join(project.dir, 'plan.json'), 'utf8');
    expect(JSON.parse(saved)).toEqual(printed);
    expect(saved).not.toContain(project.env.BOTRULES_TOKEN);
    expect(result.stdout + result.stderr).not.toContain(project.env.BOTRULES_TOKEN);
  });

  it('prints markdown for a pull-request comment', async () => {
    await declareChanges();
    const result = await run(['plan', '--format', 'markdown']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines.slice(0, 17)).toEqual([
      '### botrules plan',
      '',
      '**Plan: 2 PATCH requests: 1 to update, 1 to move; 4 rules change position; 0 blocked; 0 not in the files, kept**',
      '',
      '#### Rule changes (2 rules)',
      '',
      '| rule | change | before | after |',
      '| --- | --- | --- | --- |',
      '| **D** | position | position 4 | position 1 |',
      '| **B** | description | (empty) | &quot;now described&quot; |',
      '',
      '_The moves shift 3 other rules by a position or more, without a PATCH of their own (see Moves below)._',
      '',
      '| app | PATCH requests | to update | to move | to pause | rules changing position | blocked | not in the files, kept |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      '| default | 2 | 1 | 1 | 0 | 4 | 0 | 0 |',
      '',
    ]);
    const ids = new Map(project.emulator.rules().map((live) => [live.name, live.ruleId]));
    expect(lines).toContain(`| **D** | <code>${ids.get('D')}</code> | 4 → 1 |  |`);
    const changed = lines.indexOf(`<details><summary><b>B</b> <code>${ids.get('B')}</code>: updates description</summary>`);
    expect(lines.slice(changed, changed + 9)).toEqual([
      `<details><summary><b>B</b> <code>${ids.get('B')}</code>: updates description</summary>`,
      '',
      '```diff',
      '@@ -1,1 +1,1 @@',
      '-description: ""',
      '+description: now described',
      '```',
      '',
      '</details>',
    ]);
    expect(lines.slice(-3)).toEqual(['', matrixCoverageNote('rules/010-rule.yaml:2', 'socketIps', 4, 'D'), '']);
  });

  it('--detailed-exitcode: 2 with changes, 0 without', async () => {
    await declareChanges();
    expect((await run(['plan', '--detailed-exitcode'])).code).toBe(2);
    expect((await run(['plan'])).code).toBe(0);
    await project.writeRules(lettered(4));
    const clean = await run(['plan', '--detailed-exitcode']);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('No changes.');
  });

  it('blocked rules: prints the plan naming them, exits 1', async () => {
    await project.writeRules([...lettered(4), rule('Brand new')]);
    const result = await run(['plan', '--detailed-exitcode']);
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n');
    const blocked = lines.indexOf('    "Brand new" (rules/050-rule.yaml:2:5)');
    expect(lines.slice(blocked, blocked + 4)).toEqual([
      '    "Brand new" (rules/050-rule.yaml:2:5)',
      '      1. In the console, create a rule named "Brand new" with status paused, at position 5 (directly below "D").',
      '      2. Run `botrules import --update --pin` to write its ruleId into the file (nothing else in the files changes).',
      '      3. Run `botrules plan`: it shows only the remaining field changes, and apply sets them (its status too).',
    ]);
    // The advice is the plan's own paragraph (stdout): on a terminal both streams show, so
    // stderr points at it instead of saying it again. JSON has no advice: stderr gives it.
    expect(result.stdout.split('\n').filter((line) => line.includes('Create each in the console'))).toHaveLength(1);
    expect(result.stderr).toBe('error: 1 declared rule does not exist live, and the API cannot create rules: the plan cannot be applied (the plan lists the console steps for each)\n');
    const json = await run(['plan', '--format', 'json']);
    expect(json.stderr).toContain('\nCreate each in the console under the name shown');
  });

  it('a ruleId that is not live is an error naming the file and the id', async () => {
    await project.writeRules([...lettered(3), rule('D', { ruleId: 'no-such-id' })]);
    const result = await run(['plan']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/rules\/040-rule\.yaml:\d+:\d+: .*no-such-id/);
  });

  it('two live rules of the declared name is an error naming both ids', async () => {
    const live = project.emulator.replaceRules([rule('Twin'), rule('Twin', { description: 'other' })]);
    await project.writeRules([rule('Twin')]);
    const result = await run(['plan']);
    expect(result.code).toBe(1);
    for (const r of live) expect(result.stderr).toContain(r.ruleId);
  });

  it('unmanaged: fail makes the plan an error; keep names them as kept', async () => {
    await project.writeRules(lettered(3));
    expect((await run(['plan'])).stdout).toMatch(/^ {2}- "D" \([\w-]+\): declared in no rule file: stays live and ACTIVE$/m);
    await project.writeConfig({ apps: [{ name: 'default', rulesDir: 'rules', unmanaged: 'fail' }] });
    const result = await run(['plan']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('"D"');
  });

  it('reports the problems of every app together, before any request', async () => {
    await project.writeConfig({
      apps: [
        { name: 'default', rulesDir: 'rules' },
        { name: 'shop', rulesDir: 'shop', tokenEnv: 'BOTRULES_SHOP_TOKEN' },
      ],
    });
    await project.writeRules([{ ...rule('A'), priority: 1 } as never]);
    await writeRules(path.join(project.dir, 'shop'), [rule('S', { actions: ['explode'] } as never)]);
    const result = await run(['plan']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^rules\/010-rule\.yaml:\d+:\d+: .*priority/m);
    expect(result.stderr).toMatch(/^shop\/010-rule\.yaml:\d+:\d+: .*/m);
    expect(project.emulator.log).toHaveLength(0);
  });

  it('a missing token is named before any request', async () => {
    await project.writeRules(lettered(4));
    const result = await project.run(['plan'], { env: { BOTRULES_TOKEN: undefined } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('BOTRULES_TOKEN is not set');
    expect(project.emulator.log).toHaveLength(0);
  });
});
