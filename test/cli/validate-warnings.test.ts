// Warnings: legal values the service stores but that are probably mistakes are printed as
// `FILE:LINE:COL: warning: …` (and `::warning` annotations on GitHub Actions) with exit 0;
// --strict makes them fail. A rule imported from the service always validates.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { matrixCoverageLine } from '../helpers/operator-matrix.js';
import { startTestEmulator } from '../helpers/emulator.js';
import { rule, tempProject } from '../apply/fixtures.js';
import { writeTree } from '../rules/tree.js';

const withMethods = (methods: string): string =>
  [
    'rules:',
    '  - name: Methods',
    '    actions: [allow]',
    '    conditions:',
    '      operator: $or',
    '      children:',
    '        - operator: $and',
    '          children:',
    `            - { conditionType: httpMethod, operator: $in, value: ${methods} }`,
    '',
  ].join('\n');

describe('validate warnings', () => {
  it('an empty $and group is a block-everything rule: a warning with its check id, an error under --strict, in SARIF too', async () => {
    const cwd = writeTree({
      'rules/a.yaml': ['rules:', '  - name: Block nothing in particular', '    actions: [hardBlock]', '    conditions:', '      operator: $or', '      children:', '        - { operator: $and, children: [] }', ''].join('\n'),
    });
    const result = await runCli(['validate'], { cwd, env: {} });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('rules/a.yaml:2:5: warning: group 1 of rule "Block nothing in particular" is empty: an empty $and group matches every request [empty-group]\n');
    const strict = await runCli(['validate', '--strict'], { cwd, env: {} });
    expect(strict.code).toBe(1);
    const sarif = JSON.parse((await runCli(['validate', '--strict', '--format', 'sarif'], { cwd, env: {} })).stdout);
    expect(sarif.runs[0].results.map((r: { ruleId: string; level: string }) => [r.ruleId, r.level])).toEqual([['empty-group', 'error']]);
  });

  it('warns about an uncommon but valid method, exit 0; --strict fails', async () => {
    const cwd = writeTree({ 'rules/a.yaml': withMethods('[PROPFIND, GET]') });
    const result = await runCli(['validate'], { cwd, env: {} });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('rules/a.yaml:9:67: warning: httpMethod value "PROPFIND" is not a common HTTP method (GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE, PATCH); check the spelling\n' +
      `${matrixCoverageLine('rules/a.yaml:2:5', 'httpMethod', 1, 'Methods')}\n`);
    expect(result.stdout).toBe('1 file, 1 rule: valid (1 warning)\n');

    const strict = await runCli(['validate', '--strict'], { cwd, env: {} });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('rules/a.yaml:9:67: warning: httpMethod value "PROPFIND"');
    expect(strict.stdout).toBe('');
  });

  it('annotates warnings on GitHub Actions', async () => {
    const cwd = writeTree({ 'rules/a.yaml': withMethods('[PURGE]') });
    const result = await runCli(['validate'], { cwd, env: { GITHUB_ACTIONS: 'true' } });
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n')).toContain('::warning file=rules/a.yaml,line=9,col=67::httpMethod value "PURGE" is not a common HTTP method (GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE, PATCH); check the spelling');
  });

  it('keeps a lower-case common method and a non-token an error with its hint', async () => {
    const cwd = writeTree({ 'rules/a.yaml': withMethods('[get, "GE T"]') });
    const result = await runCli(['validate'], { cwd, env: {} });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('rules/a.yaml:9:67: httpMethod value "get" is not an HTTP method (methods are upper case: "GET")');
    expect(result.stderr).toContain('rules/a.yaml:9:72: httpMethod value "GE T" is not an HTTP method: a method is one word');
  });

  it('validates what import writes for a live rule with httpMethod $in [PROPFIND, GET] (exit 0, with the warning)', async () => {
    const emu = await startTestEmulator({
      seedRules: [
        rule('WebDAV', {
          conditions: { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'httpMethod', operator: '$in', value: ['PROPFIND', 'GET'] }] }] },
        }),
      ],
    });
    const project = await tempProject();
    try {
      const run = (argv: string[]) => runCli(argv, { env: emu.env, cwd: project.dir });
      expect(await run(['import'])).toMatchObject({ code: 0 });
      const [file] = await import('node:fs/promises').then((fs) => fs.readdir(project.rulesDir));
      expect(await readFile(path.join(project.rulesDir, file ?? ''), 'utf8')).toContain('PROPFIND');
      const validated = await run(['validate']);
      expect(validated.code).toBe(0);
      expect(validated.stderr).toMatch(/^rules\/010-webdav\.yaml:\d+:\d+: warning: httpMethod value "PROPFIND" is not a common HTTP method/);
      expect(validated.stdout).toBe('1 file, 1 rule: valid (1 warning)\n');
      expect(await run(['plan', '--detailed-exitcode'])).toMatchObject({ code: 0 });
    } finally {
      await emu.close();
      await project.close();
    }
  });
});
