// `botrules import` end to end against the emulator: the files it writes validate and plan
// clean, it never overwrites without --force, and --force leaves no stale rule file behind.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { lettered, patches, rule } from '../apply/fixtures.js';
import { emulatorProjectForEachTest } from '../helpers/emulator-project.js';

const project = emulatorProjectForEachTest({
  seedRules: [
    ...lettered(3),
    rule('Allow monitors: "uptime"', {
      description: 'Synthetic checks',
      status: 'paused',
      actions: ['allow', 'blockWithChallenge'],
      conditions: {
        operator: '$and',
        children: [
          { operator: '$or', children: [{ conditionType: 'header', fieldOption: 'x-monitor', operator: '$exists' }] },
          { operator: '$and', children: [{ conditionType: 'path', operator: '$re', value: ['^/health$', '^/status#?'] }] },
        ],
      },
    }),
  ],
});

const run = (argv: string[]) => project.run(argv);

describe('botrules import', () => {
  it('writes files that validate and plan with no changes', async () => {
    const imported = await run(['import']);
    expect(imported).toMatchObject({ code: 0, stderr: '' });
    expect(imported.stdout).toContain('Imported 4 rules of app default into rules as 4 files.');
    const files = await readdir(project.rulesDir);
    expect(files).toEqual(['010-a.yaml', '020-b.yaml', '030-c.yaml', '040-allow-monitors-uptime.yaml']);
    const text = await readFile(path.join(project.rulesDir, '040-allow-monitors-uptime.yaml'), 'utf8');
    expect(text.startsWith('# yaml-language-server: $schema=../node_modules/botrules/schemas/rules.schema.json\nrules:\n')).toBe(true);
    expect(text).toContain(`ruleId: ${project.emulator.rules()[3]?.ruleId}`);

    expect(await run(['validate'])).toMatchObject({ code: 0 });
    const plan = await run(['plan', '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    expect(patches(project.emulator)).toHaveLength(0);
  });

  it('refuses to overwrite existing rule files before any request', async () => {
    await writeFile(path.join(project.rulesDir, 'mine.yml'), 'rules: []\n');
    const result = await run(['import']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('refusing to overwrite 1 existing rule file');
    expect(result.stderr).toContain('rules/mine.yml');
    expect(result.stderr).toContain('--force');
    expect(project.emulator.log).toHaveLength(0);
    expect(await readFile(path.join(project.rulesDir, 'mine.yml'), 'utf8')).toBe('rules: []\n');
  });

  it('with --force replaces the old rule files (only those) so none lingers', async () => {
    await writeFile(path.join(project.rulesDir, '999-deleted-in-console.yaml'), 'rules: []\n');
    await writeFile(path.join(project.rulesDir, 'README.md'), 'notes\n');
    const result = await run(['import', '--force']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('replacing 1 old rule file');
    expect((await readdir(project.rulesDir)).sort()).toEqual(['010-a.yaml', '020-b.yaml', '030-c.yaml', '040-allow-monitors-uptime.yaml', 'README.md']);
  });

  it('with --force writes every new file before removing an old one: a write that fails leaves the old rule files whole', async () => {
    await writeFile(path.join(project.rulesDir, '010-a.yaml'), 'rules: []\n');
    await writeFile(path.join(project.rulesDir, '999-deleted-in-console.yaml'), 'rules: []\n');
    // The fourth file cannot be written (a folder has its name), as a full disk stops a write part-way.
    await mkdir(path.join(project.rulesDir, '040-allow-monitors-uptime.yaml'));
    const result = await run(['import', '--force']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: cannot write the rule file 040-allow-monitors-uptime.yaml: it is a directory\n');
    expect((await readdir(project.rulesDir)).sort()).toEqual(['010-a.yaml', '040-allow-monitors-uptime.yaml', '999-deleted-in-console.yaml']);
    expect(await readFile(path.join(project.rulesDir, '010-a.yaml'), 'utf8')).toBe('rules: []\n');
  });

  it('writes to --out, which plan then reads with --dir', async () => {
    expect((await run(['import', '--out', 'imported'])).code).toBe(0);
    const plan = await run(['plan', '--dir', 'imported', '--format', 'json']);
    expect(plan.code).toBe(0);
    expect(JSON.parse(plan.stdout).summary).toMatchObject({ patches: 0, blocked: 0, unmanaged: 0, positionChanges: 0, removedActive: 0 });
  });

  it('names the schema of the botrules package installed in the project, relative to each file', async () => {
    expect((await run(['import', '--out', 'apps/shop/rules'])).code).toBe(0);
    const dir = path.join(project.dir, 'apps', 'shop', 'rules');
    const first = (await readFile(path.join(dir, (await readdir(dir))[0] as string), 'utf8')).split('\n')[0];
    expect(first).toBe('# yaml-language-server: $schema=../../../node_modules/botrules/schemas/rules.schema.json');
    // Where a project's `npm install --save-dev botrules` puts the package, that path is the schema.
    expect(path.resolve(dir, '../../../node_modules/botrules/schemas/rules.schema.json')).toBe(path.join(project.dir, 'node_modules', 'botrules', 'schemas', 'rules.schema.json'));
  });

  it('needs --app with --out when the config names several apps', async () => {
    await project.writeConfig({
      apps: [
        { name: 'default', rulesDir: 'rules', tokenEnv: 'BOTRULES_TOKEN' },
        { name: 'other', rulesDir: 'other', tokenEnv: 'BOTRULES_OTHER_TOKEN' },
      ],
    });
    const result = await run(['import', '--out', 'x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--out writes one app, but the config has 2: default, other');
    expect(project.emulator.log).toHaveLength(0);
  });

  it('names the missing token variable before any request', async () => {
    const result = await project.run(['import'], { env: { BOTRULES_TOKEN: '' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('BOTRULES_TOKEN is not set');
    expect(project.emulator.log).toHaveLength(0);
  });
});
