// How rule files written in different YAML styles read: positions across files, aliases
// (harmless ones and bombs), library warnings, and files far larger than real ones.
import { jest } from '@jest/globals';
import { parseRuleFile } from '../../src/rules/rule-file.js';
import { loadRules } from '../../src/rules/load.js';
import { ruleYaml, writeTree } from './tree.js';

const file = 'rules/a.yaml';
const parse = (text: string) => parseRuleFile(Buffer.from(text), file);

describe('reading rule files', () => {
  it('locates rules and their identities across files, in block and flow style', async () => {
    const files = { 'rules/a.yaml': `# c\nrules:\n${ruleYaml('x')}${ruleYaml('"y"', '    ruleId: \'r1\'')}`, 'rules/b.yaml': `---\nrules:\n- {name: x, ruleId: r1, actions: [allow], conditions: {operator: $or, children: []}}\n` };
    const loaded = await loadRules('rules', { cwd: writeTree(files) });
    expect(loaded.problems.map((p) => `${p.file}:${p.line}:${p.col}: ${p.message}`)).toEqual([
      'rules/b.yaml:3:10: duplicate rule name "x" (also at rules/a.yaml:3:11)',
      'rules/b.yaml:3:21: duplicate ruleId "r1" (also at rules/a.yaml:12:13)',
    ]);
    expect(loaded.rules.map((r) => r.source)).toEqual([
      { file: 'rules/a.yaml', line: 3, col: 5 }, { file: 'rules/a.yaml', line: 11, col: 5 }, { file: 'rules/b.yaml', line: 3, col: 3 },
    ]);
  });

  it('stops an alias bomb with a located message', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i += 1) levels.push(`l${i}: &l${i} [${Array(10).fill(i === 1 ? '*a' : `*l${i - 1}`).join(', ')}]`);
    expect(parse(`${levels.join('\n')}\nrules: *l11\n`).problems).toEqual([{ file, line: 2, col: 10, message: expect.stringMatching(/^YAML aliases expand too much/) }]);
  });

  it('reads a file with a harmless alias', () => {
    const result = parse(`rules:\n${ruleYaml('x').replace('value: /x', 'value: &v /x')}${ruleYaml('y').replace('value: /x', 'value: *v')}`);
    expect(result.problems).toEqual([]);
    expect(result.rules.map((r) => r.conditions.children[0]?.children[0]?.value)).toEqual(['/x', '/x']);
  });

  it('reports a complex key as a located problem, never as the library\'s own warning', () => {
    const written: string[] = [];
    const spy = jest.spyOn(process, 'emitWarning').mockImplementation((w) => void written.push(String(w)));
    const warn = jest.spyOn(console, 'warn').mockImplementation((...args) => void written.push(args.join(' ')));
    try {
      const result = parse(`rules:\n${ruleYaml('x')}  - ? [a, b]\n    : c\n`);
      expect(result.problems.map((p) => `${p.line}:${p.col}: ${p.message}`)).toContain('10:7: a key must be a plain value such as a name, not a mapping, a list or an alias');
    } finally {
      spy.mockRestore();
      warn.mockRestore();
    }
    expect(written).toEqual([]);
  });

  it('reports what the parser warns about as a located warning, and still reads the rules', () => {
    const result = parse(`rules:\n${ruleYaml('x', '    description: !unknown a')}`);
    expect(result.problems).toEqual([]);
    expect(result.rules).toHaveLength(1);
    expect(result.warnings).toEqual([{ file, line: 3, col: 18, message: expect.stringMatching(/^YAML: .*!unknown/) }]);
  });

  it('finds a duplicate among 40,000 keys of a 1 MiB mapping in linear time', () => {
    const keys = Array.from({ length: 40_000 }, (_, i) => `k${String(i).padStart(6, '0')}: ${'v'.repeat(14)}`);
    const clean = `rules:\n${ruleYaml('x')}other:\n${keys.map((line) => `  ${line}`).join('\n')}\n`;
    expect(clean.length).toBeLessThanOrEqual(1024 * 1024);
    // With the library's pairwise key comparison this took about 90 s.
    expect(parse(clean).problems.map((p) => p.message)).toEqual(['unknown key "other" in the top level (allowed: rules)']);
    const duplicated = `${clean}  k000007: again\n`;
    expect(parse(duplicated).problems.map((p) => `${p.line}: ${p.message}`)).toEqual([`${40_000 + 11}: duplicate key "k000007": a key may appear only once in a mapping`]);
  });
});
