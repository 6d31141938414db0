import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../src/errors.js';
import { listRuleFiles, loadAllRules, loadRules } from '../../src/rules/load.js';
import { ruleYaml, writeTree } from './tree.js';

const file = (...names: string[]) => `rules:\n${names.map((n) => ruleYaml(n)).join('')}`;

describe('loadRules', () => {
  it('orders rules by file path as text, then by position in the file', async () => {
    const cwd = writeTree({
      'rules/20-b.yaml': file('B1', 'B2'),
      'rules/10-a.yaml': file('A1'),
      'rules/10-a/05-nested.yaml': file('N1'),
      'rules/9-last.yml': file('L1'),
    });
    const loaded = await loadRules('rules', { cwd });
    expect(loaded.problems).toEqual([]);
    expect(loaded.files).toEqual(['rules/10-a.yaml', 'rules/10-a/05-nested.yaml', 'rules/20-b.yaml', 'rules/9-last.yml']);
    expect(loaded.rules.map((r) => r.name)).toEqual(['A1', 'N1', 'B1', 'B2', 'L1']);
    expect(loaded.rules[3]?.source).toEqual({ file: 'rules/20-b.yaml', line: 10, col: 5 });
  });

  it('names files relative to the working directory, wherever the rules directory is', async () => {
    const root = writeTree({ 'project/rules/a/01.yaml': file('A'), 'shared/02.yaml': file('S') });
    const cases: [string, string, string[]][] = [
      ['project', 'rules', ['rules/a/01.yaml']],
      ['project/rules', '.', ['a/01.yaml']],
      ['project/rules/a', '..', ['../a/01.yaml']],
      ['project', '../shared', ['../shared/02.yaml']],
      ['project', join(root, 'shared'), ['../shared/02.yaml']],
    ];
    for (const [cwd, dir, files] of cases) {
      const loaded = await loadRules(dir, { cwd: join(root, cwd) });
      expect([dir, loaded.files, loaded.rules.map((r) => r.source.file)]).toEqual([dir, files, files]);
    }
  });

  it('ignores other files, hidden entries and links to directories; follows links to files', async () => {
    const cwd = writeTree({
      'rules/a.yaml': file('A'),
      'rules/README.md': '# not a rule file',
      'rules/.draft.yaml': 'not: valid',
      'rules/.hidden/b.yaml': 'not: valid',
      'elsewhere/c.yaml': file('C'),
    });
    symlinkSync(join(cwd, 'elsewhere'), join(cwd, 'rules', 'linked-dir'));
    symlinkSync(join(cwd, 'elsewhere', 'c.yaml'), join(cwd, 'rules', 'b-linked.yaml'));
    expect(await listRuleFiles(join(cwd, 'rules'), cwd)).toEqual([join(cwd, 'rules', 'a.yaml'), join(cwd, 'rules', 'b-linked.yaml'), join(cwd, 'rules', 'linked-dir', 'c.yaml')]);
  });

  it('reports duplicate names and ruleIds across files, and keeps going through every file', async () => {
    const cwd = writeTree({
      'rules/10-a.yaml': file('Same').replace('    actions', '    ruleId: id-1\n    actions'),
      'rules/20-b.yaml': `${file('Same').replace('    actions', '    ruleId: id-1\n    actions')}`,
      'rules/30-c.yaml': '',
    });
    const { problems, rules } = await loadRules(join(cwd, 'rules'), { cwd });
    expect(problems.map((p) => `${p.file}:${p.line}:${p.col}: ${p.message}`)).toEqual([
      'rules/20-b.yaml:2:11: duplicate rule name "Same" (also at rules/10-a.yaml:2:11)',
      'rules/20-b.yaml:3:13: duplicate ruleId "id-1" (also at rules/10-a.yaml:3:13)',
      'rules/30-c.yaml:1:1: the file is empty; a rule file holds a mapping with a "rules:" list',
    ]);
    expect(rules).toHaveLength(2);
  });

  it('accepts an empty directory', async () => {
    const cwd = writeTree({ 'rules/notes.txt': '' });
    expect(await loadRules('rules', { cwd })).toEqual({ rules: [], problems: [], warnings: [], files: [], silencingTexts: new Map() });
  });

  it('keeps the text of the files that silence analysis findings, and only theirs', async () => {
    const silencing = `# botrules-ignore-file: catch-all\nrules:\n${ruleYaml('A')}`;
    const cwd = writeTree({ 'rules/a.yaml': silencing, 'rules/b.yaml': `rules:\n${ruleYaml('B')}` });
    expect((await loadRules('rules', { cwd })).silencingTexts).toEqual(new Map([['rules/a.yaml', silencing]]));
  });

  it('throws a UserError naming a missing directory, or a file given as one', async () => {
    const cwd = writeTree({ 'rules.yaml': file('A') });
    await expect(loadRules('nope', { cwd })).rejects.toThrow(new UserError('rules directory "nope" does not exist'));
    await expect(loadRules('rules.yaml', { cwd })).rejects.toThrow(UserError);
  });
});

describe('loadAllRules', () => {
  it('loads each app on its own (names are unique per app) and reports a shared file once', async () => {
    const cwd = writeTree({ 'shop/a.yaml': file('A'), 'blog/a.yaml': file('A'), 'bad/a.yaml': 'rules: 1\n' });
    const app = (name: string, dir: string) => ({ name, rulesDir: join(cwd, dir), tokenEnv: `${name.toUpperCase()}_TOKEN`, unmanaged: 'keep' as const });
    const ok = await loadAllRules({ apps: [app('shop', 'shop'), app('blog', 'blog')] }, { cwd });
    expect(ok.problems).toEqual([]);
    expect([...ok.byApp.keys()]).toEqual(['shop', 'blog']);
    expect(ok.byApp.get('blog')?.rules.map((r) => r.name)).toEqual(['A']);
    const shared = await loadAllRules({ apps: [app('one', 'bad'), app('two', 'bad')] }, { cwd });
    expect(shared.problems).toEqual([{ file: 'bad/a.yaml', line: 1, col: 8, message: 'rules must be a list, not a number' }]);
  });
});
