// `botrules import --update` end to end: console edits come back into the existing files,
// comments stay, plan is clean afterwards; --dry-run writes nothing; a rule gone live is
// listed and nothing written without --prune.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { lettered, patches, rule } from '../apply/fixtures.js';
import { emulatorProjectForEachTest } from '../helpers/emulator-project.js';

const project = emulatorProjectForEachTest({ seedRules: lettered(3) });

const run = (argv: string[]) => project.run(argv);

async function importWithComments(): Promise<string> {
  const imported = await run(['import']);
  expect(imported).toMatchObject({ code: 0, stderr: '' });
  const file = path.join(project.rulesDir, '020-b.yaml');
  const text = (await readFile(file, 'utf8')).replace('rules:\n', 'rules:\n  # Why B exists: ticket 42\n');
  await writeFile(file, text);
  return text;
}

describe('botrules import --update', () => {
  it('brings a console edit back into its file, keeping comments, and plan is clean afterwards', async () => {
    const before = await importWithComments();
    const live = project.emulator.rules();
    project.emulator.replaceRules([
      ...live.slice(0, 1),
      { ...(live[1] as (typeof live)[number]), status: 'paused' },
      rule('Added in the console'),
      ...live.slice(2),
    ]);
    const result = await run(['import', '--update']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('updated rule "B" (status)');
    expect(result.stdout).toContain('added rule "Added in the console" in a new file rules/025-added-in-the-console.yaml');
    const after = await readFile(path.join(project.rulesDir, '020-b.yaml'), 'utf8');
    expect(after).toBe(before.replace('    status: active\n', '    status: paused\n'));
    expect(await readdir(project.rulesDir)).toEqual(['010-a.yaml', '020-b.yaml', '025-added-in-the-console.yaml', '030-c.yaml']);
    const plan = await run(['plan', '--detailed-exitcode']);
    expect(plan.code).toBe(0);
    expect(patches(project.emulator)).toHaveLength(0);
  });

  it('keeps the $schema modeline of every file, and a new file names the one the files already name', async () => {
    expect((await run(['import'])).code).toBe(0);
    const custom = '# yaml-language-server: $schema=https://schemas.example.com/botrules/rules.schema.json\n';
    for (const name of await readdir(project.rulesDir)) {
      const file = path.join(project.rulesDir, name);
      await writeFile(file, (await readFile(file, 'utf8')).replace(/^# yaml-language-server: .*\n/, custom));
    }
    const live = project.emulator.rules();
    project.emulator.replaceRules([...live.slice(0, 2), rule('Added in the console'), { ...(live[2] as (typeof live)[number]), description: 'edited' }]);
    expect(await run(['import', '--update'])).toMatchObject({ code: 0, stderr: '' });
    for (const name of await readdir(project.rulesDir)) {
      expect([name, (await readFile(path.join(project.rulesDir, name), 'utf8')).split('\n')[0]]).toEqual([name, custom.trimEnd()]);
    }
    expect(await readdir(project.rulesDir)).toContain('025-added-in-the-console.yaml');
  });

  it('--dry-run prints the diff and writes nothing', async () => {
    const before = await importWithComments();
    const live = project.emulator.rules();
    project.emulator.replaceRules([live[0], { ...(live[1] as (typeof live)[number]), description: 'Changed at 3 a.m.' }, live[2]] as typeof live);
    const result = await run(['import', '--update', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--- a/rules/020-b.yaml');
    expect(result.stdout).toContain('-    description: ""');
    expect(result.stdout).toContain('+    description: "Changed at 3 a.m."');
    expect(await readFile(path.join(project.rulesDir, '020-b.yaml'), 'utf8')).toBe(before);
  });

  it('lists a rule gone live and writes nothing without --prune; removes it with --prune', async () => {
    await importWithComments();
    const live = project.emulator.rules();
    project.emulator.replaceRules([live[0], live[2]] as typeof live);
    const refused = await run(['import', '--update']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('1 declared rule does not exist live:');
    expect(refused.stderr).toContain('rules/020-b.yaml');
    expect(await readdir(project.rulesDir)).toHaveLength(3);

    const pruned = await run(['import', '--update', '--prune']);
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toContain('removed rule "B" from rules/020-b.yaml (gone live)');
    expect(await readdir(project.rulesDir)).toEqual(['010-a.yaml', '030-c.yaml']);
    expect((await run(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('--dry-run --format json-patch prints each file\'s RFC 6902 operations as one JSON document, the summary on stderr', async () => {
    const before = await importWithComments();
    const live = project.emulator.rules();
    project.emulator.replaceRules([live[0], { ...(live[1] as (typeof live)[number]), status: 'paused' }] as typeof live);
    const result = await run(['import', '--update', '--dry-run', '--format', 'json-patch']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      files: [
        { app: 'default', file: 'rules/020-b.yaml', change: 'edit', operations: [{ op: 'replace', path: '/rules/0/status', value: 'paused' }] },
        { app: 'default', file: 'rules/030-c.yaml', change: 'delete', operations: [{ op: 'remove', path: '/rules' }] },
      ],
    });
    expect(result.stderr.split('\n')).toEqual([
      'would remove rule "C" from rules/030-c.yaml (gone live; writing this needs --prune)',
      'updated rule "B" (status)',
      'App default: would change 2 files in rules. (dry run: nothing written)',
      '',
    ]);
    expect(await readFile(path.join(project.rulesDir, '020-b.yaml'), 'utf8')).toBe(before);
    expect(await readdir(project.rulesDir)).toHaveLength(3);
  });

  it('--dry-run shows the whole change when a rule is gone live, not only the refusal', async () => {
    await importWithComments();
    const live = project.emulator.rules();
    project.emulator.replaceRules([live[0], { ...(live[2] as (typeof live)[number]), description: 'edited' }] as typeof live);
    const result = await run(['import', '--update', '--dry-run']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines).toContain('--- a/rules/020-b.yaml');
    expect(lines).toContain('+++ /dev/null');
    expect(lines).toContain('+    description: "edited"');
    expect(lines.slice(-4)).toEqual([
      'would remove rule "B" from rules/020-b.yaml (gone live; writing this needs --prune)',
      'updated rule "C" (description)',
      'App default: would change 2 files in rules. (dry run: nothing written)',
      '',
    ]);
    expect(await readdir(project.rulesDir)).toHaveLength(3);
  });

  it('--format needs --dry-run', async () => {
    expect(await run(['import', '--update', '--format', 'json-patch'])).toEqual({ code: 1, stdout: '', stderr: 'error: --format needs --dry-run\n' });
  });

  it('edits a file saved with CRLF line endings and a byte-order mark in its own style', async () => {
    const lf = await importWithComments();
    const file = path.join(project.rulesDir, '020-b.yaml');
    const crlf = `\uFEFF${lf.replace(/\n/g, '\r\n')}`;
    await writeFile(file, crlf);
    const live = project.emulator.rules();
    project.emulator.replaceRules([live[0], { ...(live[1] as (typeof live)[number]), status: 'paused' }, live[2]] as typeof live);

    const dry = await run(['import', '--update', '--dry-run']);
    expect(dry.code).toBe(0);
    const lines = dry.stdout.split('\n');
    expect(lines.filter((line) => /^[-+] /.test(line))).toEqual(['-    status: active', '+    status: paused']);

    expect(await run(['import', '--update'])).toMatchObject({ code: 0, stderr: '' });
    const after = await readFile(file, 'utf8');
    expect(after).toBe(crlf.replace('    status: active\r\n', '    status: paused\r\n'));
    expect(after.match(/(?<!\r)\n/g)).toBeNull();
    expect((await run(['plan', '--detailed-exitcode'])).code).toBe(0);
  });
});
