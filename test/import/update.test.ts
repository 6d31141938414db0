// import --update as a pure function: golden cases a reviewer can read.
import { updateRuleFiles, type RuleFileText } from '../../src/import/update/index.js';
import type { DeclaredRule, LiveRule } from '../../src/semantics/model.js';
import { readRuleFileText } from './update-support.js';
import { live as liveRule } from '../helpers/rules.js';

const leaf = (value: string) => ({ conditionType: 'path' as const, operator: '$eq' as const, value });
const live = (ruleId: string, name: string, priority: number, extra: Partial<LiveRule> = {}): LiveRule => liveRule({
  ruleId, name, priority, description: '', status: 'active', actions: ['allow'],
  conditions: { operator: '$or', children: [{ operator: '$and', children: [leaf(`/${name.toLowerCase()}`)] }] },
  ...extra,
});

const FILE = `# Rules for the shop
rules:
  # Monitoring first
  - name: A   # the monitors
    ruleId: a1
    actions: [allow]
    conditions:
      operator: $or
      children:
        - operator: $and
          children:
            - { conditionType: path, operator: $eq, value: /a }   # exact

  # Then B
  - name: 'B'
    ruleId: b1
    actions: [allow]
    conditions:
      operator: $or
      children:
        - operator: $and
          children:
            - { conditionType: path, operator: $eq, value: /b }
`;

function update(files: RuleFileText[], lives: LiveRule[]) {
  const declared: DeclaredRule[] = files.flatMap((f) => readRuleFileText(f));
  return updateRuleFiles({ files, declared, live: lives, schema: '../node_modules/botrules/schemas/rules.schema.json' });
}

describe('import --update', () => {
  const files = [{ rel: 'rules.yaml', shown: 'rules/rules.yaml', text: FILE }];

  it('changes nothing when the files already declare the live rules', () => {
    const result = update(files, [live('a1', 'A', 0), live('b1', 'B', 1)]);
    expect(result.changes).toEqual([]);
  });

  it('edits a changed field where it stands, keeping its quoting and every comment', () => {
    const result = update(files, [live('a1', 'A', 0), live('b1', "B'2", 1, { status: 'paused', conditions: live('b1', 'B', 1).conditions })]);
    expect(result.changes).toHaveLength(1);
    // A new key goes where `import` writes it: status after ruleId.
    expect(result.changes[0]?.after).toBe(FILE.replace("  - name: 'B'\n    ruleId: b1\n", "  - name: 'B''2'\n    ruleId: b1\n    status: paused\n"));
  });

  it('edits only the leaf that changed', () => {
    const result = update(files, [live('a1', 'A', 0, { conditions: { operator: '$or', children: [{ operator: '$and', children: [leaf('/a'), leaf('/z')] }] } }), live('b1', 'B', 1)]);
    expect(result.changes[0]?.after).toBe(
      FILE.replace('value: /a }   # exact\n', 'value: /a }   # exact\n            - { conditionType: path, operator: $eq, value: /z }\n'),
    );
  });

  it('moves a rule block with its comments when the live order changed', () => {
    const result = update(files, [live('a1', 'A', 1), live('b1', 'B', 0)]);
    const after = result.changes[0]?.after ?? '';
    expect(after.indexOf("name: 'B'")).toBeLessThan(after.indexOf('name: A'));
    expect(after).toContain('  # Monitoring first\n  - name: A   # the monitors\n');
    expect(after.startsWith('# Rules for the shop\nrules:\n')).toBe(true);
  });

  it('inserts a live rule that no file declares between its live neighbours', () => {
    const result = update(files, [live('a1', 'A', 0), live('n1', 'New', 1), live('b1', 'B', 2)]);
    const after = result.changes[0]?.after ?? '';
    expect(after.indexOf('name: A')).toBeLessThan(after.indexOf('name: New'));
    expect(after.indexOf('name: New')).toBeLessThan(after.indexOf("name: 'B'"));
    expect(result.placements.map((p) => [p.kind, p.rule.name, p.createdFile])).toEqual([['added', 'New', false]]);
  });

  it('reports a declared rule that is gone live, and removes it with its comments', () => {
    const result = update(files, [live('a1', 'A', 0)]);
    expect(result.gone.map((r) => r.name)).toEqual(['B']);
    expect(result.changes[0]?.after).toBe(FILE.slice(0, FILE.indexOf('\n\n  # Then B') + 1));
  });

  it('creates a file of its own between one-rule files', () => {
    const split = [
      { rel: '010-a.yaml', shown: 'r/010-a.yaml', text: 'rules:\n  - name: A\n    ruleId: a1\n    actions: [allow]\n    conditions: { operator: $or, children: [{ operator: $and, children: [{ conditionType: path, operator: $eq, value: /a }] }] }\n' },
      { rel: '020-b.yaml', shown: 'r/020-b.yaml', text: 'rules:\n  - name: B\n    ruleId: b1\n    actions: [allow]\n    conditions: { operator: $or, children: [{ operator: $and, children: [{ conditionType: path, operator: $eq, value: /b }] }] }\n' },
    ];
    const result = update(split, [live('a1', 'A', 0), live('n1', 'New rule', 1), live('b1', 'B', 2)]);
    expect(result.changes.map((c) => [c.rel, c.before === undefined])).toEqual([['015-new-rule.yaml', true]]);
  });
  it('adds lines after a last line that has no newline, each on a line of its own', () => {
    const text = FILE.replace(/\n$/, '');
    const result = update([{ rel: 'rules.yaml', shown: 'rules/rules.yaml', text }], [
      live('a1', 'A', 0),
      live('b1', 'B', 1, { conditions: { operator: '$or', children: [{ operator: '$and', children: [leaf('/b'), leaf('/y')] }] } }),
      live('n1', 'N', 2),
      live('m1', 'M', 3),
    ]);
    const lines = (result.changes[0]?.after ?? '').split('\n');
    expect(lines.slice(22, 26)).toEqual(['            - { conditionType: path, operator: $eq, value: /b }', '            - { conditionType: path, operator: $eq, value: /y }', '  - name: N', '    ruleId: n1']);
    expect(lines.filter((line) => line.startsWith('  - name: '))).toEqual(['  - name: A   # the monitors', "  - name: 'B'", '  - name: N', '  - name: M']);
    expect(lines.filter((line) => line === '')).toEqual(['', '']);
  });

  describe('fields botrules does not know (docs/behaviour.md, "Unknown fields")', () => {
    const withUnknown = (value: string, fields: Record<string, unknown>) => ({ ...leaf(value), ...fields });
    const liveA = (children: object[]) => live('a1', 'A', 0, { conditions: { operator: '$or', children: [{ operator: '$and', children: children as never }] } });

    it('adds the field to the leaf when the console added one, keeping its line style and comment', () => {
      const result = update(files, [liveA([withUnknown('/a', { caseSensitive: true })]), live('b1', 'B', 1)]);
      expect(result.changes[0]?.after).toBe(FILE.replace('value: /a }   # exact\n', 'value: /a, caseSensitive: true }   # exact\n'));
      expect(result.changes[0]?.operations).toEqual([{ op: 'add', path: '/rules/0/conditions/children/0/children/0/caseSensitive', value: true }]);
      expect(result.edited.map((edit) => edit.fields)).toEqual([['fields botrules does not know']]);
    });

    it('changes nothing when the file already holds them', () => {
      const text = FILE.replace('value: /a }   # exact', 'value: /a, caseSensitive: true }   # exact');
      const result = update([{ ...files[0], text } as RuleFileText], [liveA([withUnknown('/a', { caseSensitive: true })]), live('b1', 'B', 1)]);
      expect(result.changes).toEqual([]);
    });

    it('adds the own unknown field of a rule after its known ones, keeping every comment', () => {
      const result = update(files, [live('a1', 'A', 0, { labels: ['edge'] } as Partial<LiveRule>), live('b1', 'B', 1)]);
      const after = result.changes[0]?.after ?? '';
      expect(after).toBe(FILE.replace('value: /a }   # exact\n', 'value: /a }   # exact\n    labels:\n      - edge\n'));
      expect(readRuleFileText({ ...files[0], text: after } as RuleFileText)[0]).toMatchObject({ labels: ['edge'] });
    });
  });
});
