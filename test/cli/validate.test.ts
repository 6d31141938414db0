import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { matrixCoverageLine } from '../helpers/operator-matrix.js';
import { ruleYaml, writeTree } from '../rules/tree.js';
import { tempDir } from '../helpers/temp.js';

const HEAD = 'rules:\n';
/** A rule whose first leaf is given; the leaf sits on line 9 of the file. */
const withLeaf = (leaf: string): string =>
  [
    'rules:',
    '  - name: Leaf test',
    '    actions: [allow]',
    '    conditions:',
    '      operator: $or',
    '      children:',
    '        - operator: $and',
    '          children:',
    `            - ${leaf}`,
    '',
  ].join('\n');

function aliasBomb(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  const names = 'abcdefghi';
  for (let i = 1; i < names.length; i += 1) {
    const prev = names[i - 1] ?? 'a';
    lines.push(`${names[i] ?? 'x'}: &${names[i] ?? 'x'} [${Array(9).fill(`*${prev}`).join(',')}]`);
  }
  return `${lines.join('\n')}\nrules: *i\n`;
}

// Each bad input: the file's content, and the FILE:LINE:COL plus words its problem must have.
const BAD_INPUTS: [string, string | Uint8Array, string][] = [
  ['a YAML syntax error', `${HEAD}  - name: x\n   actions: [allow]\n`, 'rules/10-bad.yaml:3:1: invalid YAML'],
  ['a duplicate key', `${HEAD}  - name: a\n    name: b\n`, 'rules/10-bad.yaml:3:5: duplicate key "name"'],
  ['a three-level condition tree', withLeaf('{ operator: $and, children: [{ conditionType: path, operator: $eq, value: /x }] }'),
    'rules/10-bad.yaml:9:15: conditions must have exactly two levels: root → groups → leaves; this leaf has "children"'],
  ['an unknown operator', withLeaf('{ conditionType: path, operator: $regex, value: x }'), 'rules/10-bad.yaml:9:48: operator "$regex" is not one of $eq,'],
  ['an unknown conditionType', withLeaf('{ conditionType: browser, operator: $eq, value: x }'), 'rules/10-bad.yaml:9:32: conditionType "browser" is not one of userAgent,'],
  ['an unknown action', `${HEAD}${ruleYaml('x').replace('[allow]', '[allow, deny]')}`, 'rules/10-bad.yaml:3:22: action "deny" is not one of allow, blockWithChallenge, hardBlock'],
  ['an unknown status', `${HEAD}${ruleYaml('x', '    status: on')}`, 'rules/10-bad.yaml:3:13: status "on" is not one of active, paused'],
  ['a missing value', withLeaf('{ conditionType: userAgent, operator: $contains }'), 'rules/10-bad.yaml:9:15: value is required for operator $contains'],
  ['a value for $exists', withLeaf('{ conditionType: header, fieldOption: x-a, operator: $exists, value: x }'), 'rules/10-bad.yaml:9:77: value must not be given for operator $exists'],
  ['header without fieldOption', withLeaf('{ conditionType: header, operator: $eq, value: x }'), 'rules/10-bad.yaml:9:15: header needs fieldOption (the header name)'],
  ['a regex that does not compile', withLeaf("{ conditionType: path, operator: $re, value: ['/ok', '(unclosed'] }"),
    'rules/10-bad.yaml:9:68: regular expression "(unclosed" does not compile'],
  ['an invalid CIDR', withLeaf('{ conditionType: socketIps, operator: $in, value: [10.0.0.0/33] }'),
    'rules/10-bad.yaml:9:66: socketIps value "10.0.0.0/33" is not an IP address or CIDR range'],
  ['a priority key', `${HEAD}${ruleYaml('x', '    priority: 3')}`, 'rules/10-bad.yaml:3:5: priority is not a rule field: the order of rules is their position'],
  ['empty actions', `${HEAD}${ruleYaml('x').replace('[allow]', '[]')}`, 'rules/10-bad.yaml:3:14: actions must name at least one of allow, blockWithChallenge, hardBlock'],
  ['an empty file', '', 'rules/10-bad.yaml:1:1: the file is empty'],
  ['a top level that is a list', '- name: x\n', 'rules/10-bad.yaml:1:1: the top level must be a mapping with a "rules:" list, not a list'],
  ['a top level without rules', 'rule:\n  - name: x\n', 'rules/10-bad.yaml:1:1: a rule file holds a mapping with a "rules:" list; "rules:" is missing'],
  ['a YAML alias bomb', aliasBomb(), 'rules/10-bad.yaml:2:8: YAML aliases expand too much'],
  ['a 10 MB file', Buffer.alloc(10 * 1024 * 1024, 'a'), 'rules/10-bad.yaml:1:1: the file is too large: 10.0 MiB'],
  ['a non-UTF-8 file', Buffer.from('rules:\n  - name: caf\xe9\n', 'latin1'), 'rules/10-bad.yaml:2:14: the file is not valid UTF-8 (byte 0xE9)'],
];

describe('botrules validate', () => {
  it('accepts the example rules of this repository', async () => {
    const cwd = tempDir('botrules-examples-');
    cpSync('rules', join(cwd, 'rules'), { recursive: true });
    const result = await runCli(['validate'], { cwd });
    expect(result).toEqual({ code: 0, stdout: '4 files, 8 rules: valid\n', stderr: `${matrixCoverageLine('rules/10-allow-monitoring.yaml:5:5', 'socketIps, path, header, socketIpASN, httpMethod, country', 18, 'Allow uptime monitors')}\n` });
  });

  it.each(BAD_INPUTS)('rejects %s with its location', async (_what, content, expected) => {
    const cwd = writeTree({ 'rules/10-bad.yaml': content, 'rules/20-good.yaml': `${HEAD}${ruleYaml('Good')}` });
    const result = await runCli(['validate'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${expected}`);
    expect(result.stderr).not.toMatch(/internal error|must match|instancePath/);
  });

  it('names both places of a duplicate rule name across two files', async () => {
    const cwd = writeTree({ 'rules/10-a.yaml': `${HEAD}${ruleYaml('Same')}`, 'rules/20-b.yaml': `${HEAD}${ruleYaml('Other')}${ruleYaml('Same')}` });
    const result = await runCli(['validate'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('rules/20-b.yaml:10:11: duplicate rule name "Same" (also at rules/10-a.yaml:2:11)');
  });

  it('reports every problem of every file, sorted, then a count', async () => {
    const cwd = writeTree({
      'rules/10-a.yaml': `${HEAD}${ruleYaml('A', '    status: on')}`,
      'rules/20-b.yaml': `${HEAD}${ruleYaml('B', '    priority: 1')}${ruleYaml('C').replace('[allow]', '[]')}`,
    });
    const result = await runCli(['validate'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toEqual([
      'rules/10-a.yaml:3:13: status "on" is not one of active, paused',
      'rules/20-b.yaml:3:5: priority is not a rule field: the order of rules is their position (files in lexical path order, rules in file order); move the rule instead',
      'rules/20-b.yaml:12:14: actions must name at least one of allow, blockWithChallenge, hardBlock',
      'error: 3 problems found',
      '',
    ]);
  });

  it('also prints GitHub annotations when GITHUB_ACTIONS=true', async () => {
    const cwd = writeTree({ 'rules/10-a.yaml': `${HEAD}${ruleYaml('A', '    status: on')}` });
    const result = await runCli(['validate'], { cwd, env: { GITHUB_ACTIONS: 'true' } });
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n');
    expect(lines).toContain('rules/10-a.yaml:3:13: status "on" is not one of active, paused');
    expect(lines).toContain('::error file=rules/10-a.yaml,line=3,col=13::status "on" is not one of active, paused');
  });

  it('reads the rules directory given with --dir', async () => {
    const cwd = writeTree({ 'custom/a.yaml': `${HEAD}${ruleYaml('A')}${ruleYaml('B', '    status: paused')}` });
    const result = await runCli(['validate', '--dir', 'custom'], { cwd });
    expect(result).toEqual({ code: 0, stdout: '1 file, 2 rules: valid\n', stderr: `${matrixCoverageLine('custom/a.yaml:2:5', 'path', 2, 'A')}\n` });
  });

  it('fails with a clear message when the rules directory is missing', async () => {
    const cwd = tempDir('botrules-empty-');
    const result = await runCli(['validate'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: rules directory "rules" does not exist');
  });

  it('validates every app of the config, or the one named with --app', async () => {
    const cwd = writeTree({
      'botrules.yaml': 'apps:\n  - { name: shop, rulesDir: shop, tokenEnv: BOTRULES_SHOP_TOKEN }\n  - { name: blog, rulesDir: blog, tokenEnv: BOTRULES_BLOG_TOKEN }\n',
      'shop/a.yaml': `${HEAD}${ruleYaml('A')}`,
      'blog/a.yaml': `${HEAD}${ruleYaml('A', '    status: on')}`,
    });
    expect((await runCli(['validate'], { cwd })).stderr).toContain('blog/a.yaml:3:13: status "on"');
    expect(await runCli(['validate', '--app', 'shop'], { cwd })).toEqual({ code: 0, stdout: '1 file, 1 rule: valid\n', stderr: `${matrixCoverageLine('shop/a.yaml:2:5', 'path', 1, 'A')}\n` });
    const unknown = await runCli(['validate', '--app', 'news'], { cwd });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('error: unknown app "news"\nApps in botrules.yaml: shop, blog');
  });

  it('reports problems in the config file with their location', async () => {
    const cwd = writeTree({ 'conf/botrules.yaml': 'apps:\n  - name: shop\n    rulesDir: rules\n    token: abc123\n' });
    mkdirSync(join(cwd, 'conf', 'rules'));
    writeFileSync(join(cwd, 'conf', 'rules', 'a.yaml'), `${HEAD}${ruleYaml('A')}`);
    const result = await runCli(['validate', '--config', 'conf/botrules.yaml'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('conf/botrules.yaml:4:5: "token" must not be in the config: tokens are never written in files');
    expect(result.stderr).not.toContain('abc123');
  });
});
