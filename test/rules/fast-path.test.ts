// The fast path (plain-yaml.ts) must never change a result: for every input, reading a rule file
// with it gives exactly what the slow path (the yaml Document) gives, problems and positions
// included. Clean files take the fast path; anything else is read by the slow path.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { parseRuleFile, parseRuleText } from '../../src/rules/rule-file.js';
import { loadRules } from '../../src/rules/load.js';
import { lineMutation, mutate, syntaxMutation } from './mutations.js';
import { ruleFile } from './rule-arbitrary.js';
import { ruleYaml, writeTree } from './tree.js';

const file = 'rules/a.yaml';
const EXAMPLES = readdirSync('rules').filter((f) => f.endsWith('.yaml')).map((f) => readFileSync(join('rules', f)));

/** Inputs whose fast-path result differs from the slow path's (compared outside jest's slow expect). */
function differences(inputs: Iterable<Uint8Array>): { text: string; fast: unknown; slow: unknown }[] {
  const out = [];
  for (const bytes of inputs) {
    const fast = parseRuleFile(bytes, file);
    const slow = parseRuleFile(bytes, file, { slowPathOnly: true });
    if (!isDeepStrictEqual(fast, slow)) out.push({ text: Buffer.from(bytes).toString('utf8'), fast, slow });
  }
  return out;
}

const parsedBy = (text: string) => parseRuleText(text, file).parsedBy;

describe('the fast path', () => {
  it('reads the example rule files, with the same result as the slow path', () => {
    for (const example of EXAMPLES) expect(parsedBy(example.toString('utf8'))).toBe('fast');
    expect(differences(EXAMPLES)).toEqual([]);
  });

  it('gives the slow path\'s result for the fuzz test\'s mutations', () => {
    const inputs: Buffer[] = [];
    fc.assert(
      fc.property(fc.constantFrom(...EXAMPLES), fc.array(lineMutation, { minLength: 1, maxLength: 4 }), (example, mutations) => {
        inputs.push(mutate(example, mutations));
      }),
      { seed: 20_240_611, numRuns: 3000 },
    );
    expect(differences(inputs)).toEqual([]);
  });

  it('gives the slow path\'s result when YAML syntax is inserted', () => {
    const inputs: Buffer[] = [];
    fc.assert(
      fc.property(fc.constantFrom(...EXAMPLES), fc.array(syntaxMutation, { minLength: 1, maxLength: 3 }), (example, mutations) => {
        inputs.push(mutate(example, mutations));
      }),
      { seed: 7_001, numRuns: 2000 },
    );
    expect(differences(inputs)).toEqual([]);
  });

  it('gives the slow path\'s result for generated rule files in many YAML styles', () => {
    const inputs: Uint8Array[] = [];
    fc.assert(fc.property(ruleFile, (bytes) => void inputs.push(bytes)), { seed: 42, numRuns: 600 });
    expect(differences(inputs)).toEqual([]);
    // Most generated files are clean and plainly written: the fast path must take them.
    const fast = inputs.filter((bytes) => parsedBy(new TextDecoder().decode(bytes)) === 'fast');
    expect(fast.length).toBeGreaterThan(inputs.length / 4);
  });

  it('gives the slow path\'s result for hand-written corner cases', () => {
    const rule = ruleYaml('x');
    const flowRule = '{name: x, ruleId: r, actions: [allow], conditions: {operator: $or, children: [{operator: $and, children: [{conditionType: path, operator: $eq, value: /x}]}]}}';
    const fast = [
      `rules:\n${rule.replace('  - name: x', '  - # a comment\n    name: x')}`,
      `rules:\n${rule.replace('  - name: x', '  -\n    name: x')}`,
      `rules:\n${rule.replace('name: x', 'name   : x   # a comment')}`,
      `rules:\n${rule.replace('name: x', "name: 'it''s'")}`,
      `rules:\n${rule.replace('name: x', 'name: "a\\"b \\u00e9 \\\\"')}`,
      `rules:\n${rule.replace('name: x', '"name": x')}`,
      `rules:\n${rule.replace('name: x', 'name:\n      x')}`,
      `rules:\n${rule.replace('name: x', 'name: # a comment\n      # another\n      x')}`,
      `rules:\n${rule.replace('name: x', 'name: x\u00a0')}`,
      `--- # a comment\nrules:\n${rule}`,
      `rules:\n\n  # a comment\n\n${rule}`.replace(/\n/g, '\r\n'),
      `rules:\n- ${flowRule}\n`,
      `rules: [${flowRule}, ${flowRule.replace('x', 'y')}]\n`,
      `{rules: [${flowRule}]}`,
      // A string in YAML 1.2's core schema (binary integers were YAML 1.1).
      `rules:\n${rule.replace('name: x', 'name: 0b101')}`,
    ];
    const slow = [
      `rules:\n${rule.replace('name: x', 'name: "\\x41"')}`,
      `rules:\n${rule.replace('name: x', 'name: -.5')}`,
      `rules:\n${rule.replace('value: /x', 'value: a: b')}`,
      `rules:\n${rule.replace('[allow]', '[allow]x')}`,
      `rules:\n${rule}...\n`,
      `---#\nrules:\n${rule}`,
      `rules: [${flowRule},\n  ${flowRule.replace('x', 'y')}]\n`,
      '',
      '# only a comment\n',
    ];
    expect(fast.map(parsedBy)).toEqual(fast.map(() => 'fast'));
    expect(slow.map(parsedBy)).toEqual(slow.map(() => 'slow'));
    expect(differences([...fast, ...slow].map((text) => Buffer.from(text)))).toEqual([]);
  });

  it('locates rules and their identities like the slow path, across files too', async () => {
    const files = { 'rules/a.yaml': `# c\nrules:\n${ruleYaml('x')}${ruleYaml('"y"', '    ruleId: \'r1\'')}`, 'rules/b.yaml': `---\nrules:\n- {name: x, ruleId: r1, actions: [allow], conditions: {operator: $or, children: []}}\n` };
    for (const text of Object.values(files)) expect(parsedBy(text)).toBe('fast');
    const loaded = await loadRules('rules', { cwd: writeTree(files) });
    expect(loaded.problems.map((p) => `${p.file}:${p.line}:${p.col}: ${p.message}`)).toEqual([
      'rules/b.yaml:3:10: duplicate rule name "x" (also at rules/a.yaml:3:11)',
      'rules/b.yaml:3:21: duplicate ruleId "r1" (also at rules/a.yaml:12:13)',
    ]);
    expect(loaded.rules.map((r) => r.source)).toEqual([
      { file: 'rules/a.yaml', line: 3, col: 5 }, { file: 'rules/a.yaml', line: 11, col: 5 }, { file: 'rules/b.yaml', line: 3, col: 3 },
    ]);
    expect(differences(Object.values(files).map((text) => Buffer.from(text)))).toEqual([]);
  });

  it('leaves aliases, anchors, tags, block scalars and non-strings to the slow path', () => {
    const rule = (extra: string) => `rules:\n${ruleYaml('x', extra)}`;
    expect(parsedBy(rule('    description: a'))).toBe('fast');
    for (const extra of ['    description: &d a', '    description: !!str a', '    description: |\n      a', '    description: "a\n      b"', '    description: 12', '    description:']) {
      expect(parsedBy(rule(extra))).toBe('slow');
    }
  });

  it('still stops an alias bomb on the slow path, with its located message', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i += 1) levels.push(`l${i}: &l${i} [${Array(10).fill(i === 1 ? '*a' : `*l${i - 1}`).join(', ')}]`);
    const { result, parsedBy: path } = parseRuleText(`${levels.join('\n')}\nrules: *l11\n`, file);
    expect(path).toBe('slow');
    expect(result.problems).toEqual([{ file, line: 2, col: 10, message: expect.stringMatching(/^YAML aliases expand too much/) }]);
  });

  it('reads a file with a harmless alias on the slow path', () => {
    const text = `rules:\n${ruleYaml('x').replace('value: /x', 'value: &v /x')}${ruleYaml('y').replace('value: /x', 'value: *v')}`;
    const { result, parsedBy: path } = parseRuleText(text, file);
    expect(path).toBe('slow');
    expect(result.problems).toEqual([]);
    expect(result.rules.map((r) => r.conditions.children[0]?.children[0]?.value)).toEqual(['/x', '/x']);
  });
});
