// import --update as JSON Patch and in the file's own line endings: golden cases a reviewer
// can read, and a few runs of the oracle (the slow tier runs hundreds).
import { updateRuleFiles, type RuleFileText } from '../../src/import/update/index.js';
import type { DeclaredRule, LiveRule } from '../../src/semantics/model.js';
import { checkOracle } from './update-patch-oracle.js';
import { readRuleFileText } from './update-support.js';
import { live as liveRule } from '../helpers/rules.js';

const leaf = (value: string) => ({ conditionType: 'path' as const, operator: '$eq' as const, value });
const live = (ruleId: string, name: string, priority: number, extra: Partial<LiveRule> = {}): LiveRule => liveRule({
  ruleId, name, priority, description: '', status: 'active', actions: ['allow'],
  conditions: { operator: '$or', children: [{ operator: '$and', children: [leaf(`/${name.toLowerCase()}`)] }] },
  ...extra,
});

const ruleLines = (name: string, id?: string) => [
  `  - name: ${name}`,
  ...(id === undefined ? [] : [`    ruleId: ${id}`]),
  '    actions: [allow]',
  '    conditions:',
  '      operator: $or',
  '      children:',
  '        - operator: $and',
  '          children:',
  `            - { conditionType: path, operator: $eq, value: /${name.toLowerCase()} }`,
];
const FILE = ['# Rules for the shop', 'rules:', ...ruleLines('A', 'a1'), '  # Then B', ...ruleLines('B'), ...ruleLines('C', 'c1'), ''].join('\n');

function update(files: RuleFileText[], lives: LiveRule[]) {
  const declared: DeclaredRule[] = files.flatMap((f) => readRuleFileText(f));
  return updateRuleFiles({ files, declared, live: lives, schema: '../node_modules/botrules/schemas/rules.schema.json' });
}

describe('import --update as JSON Patch', () => {
  it('names each change by JSON Pointer into the file as written', () => {
    const result = update([{ rel: 'r.yaml', shown: 'r.yaml', text: FILE }], [live('a1', 'A', 0, { status: 'paused' }), live('b1', 'B', 1), live('n1', 'New', 3)]);
    expect(result.changes.map((c) => c.operations)).toEqual([
      [
        { op: 'add', path: '/rules/0/status', value: 'paused' },
        { op: 'add', path: '/rules/1/ruleId', value: 'b1' },
        { op: 'remove', path: '/rules/2' },
        { op: 'add', path: '/rules/-', value: { name: 'New', ruleId: 'n1', description: '', status: 'active', actions: ['allow'], conditions: { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$eq', value: '/new' }] }] } } },
      ],
    ]);
  });

  it('moves a rule within its file as one move', () => {
    const result = update([{ rel: 'r.yaml', shown: 'r.yaml', text: FILE.replace('  - name: B\n', '  - name: B\n    ruleId: b1\n') }], [live('c1', 'C', 0), live('a1', 'A', 1), live('b1', 'B', 2)]);
    expect(result.changes.map((c) => c.operations)).toEqual([[{ op: 'move', from: '/rules/2', path: '/rules/0' }]]);
  });

  it('writes a CRLF file with CRLF on every line, keeping its byte-order mark', () => {
    const text = `\uFEFF${FILE.replace(/\n/g, '\r\n')}`;
    const result = update([{ rel: 'r.yaml', shown: 'r.yaml', text }], [live('a1', 'A', 0, { description: 'edited' }), live('b1', 'B', 1), live('c1', 'C', 2), live('n1', 'New', 3)]);
    const after = result.changes[0]?.after as string;
    expect(after.match(/(?<!\r)\n/g)).toBeNull();
    expect(after.startsWith('\uFEFF# Rules for the shop\r\n')).toBe(true);
    expect(after.split('\r\n').slice(2, 5)).toEqual(['  - name: A', '    ruleId: a1', '    description: edited']);
  });

  it('passes the oracle on a few random files and console edits', () => {
    checkOracle(8);
  });
});
