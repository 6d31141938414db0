// One rule file end to end: schema messages, checks on every well-formed part, normalisation.
import { parseRuleFile } from '../../src/rules/rule-file.js';
import { normaliseLeaf } from '../../src/semantics/normalise.js';

const file = 'rules/a.yaml';
const parse = (text: string) => parseRuleFile(Buffer.from(text), file);
const messages = (text: string) => parse(text).problems.map((p) => `${p.line}:${p.col}: ${p.message}`);

const leafRule = (...leaves: string[]) =>
  ['rules:', '  - name: R', '    actions: [allow]', '    conditions:', '      operator: $or', '      children:', '        - operator: $and',
    '          children:', ...leaves.map((l) => `            - ${l}`), ''].join('\n');

describe('parseRuleFile', () => {
  it('normalises a rule: defaults filled in, list operators get lists, presence operators no value', () => {
    const result = parse(leafRule(
      '{ conditionType: userAgent, operator: $in, value: curl }',
      '{ conditionType: path, operator: $re, value: [^/a, ^/b] }',
      '{ conditionType: header, fieldOption: x-a, operator: $exists }',
      '{ conditionType: queryParam, fieldOption: q, operator: $eq, value: "1" }',
    ));
    expect(result.problems).toEqual([]);
    expect(result.rules).toEqual([{
      name: 'R', description: '', status: 'active', actions: ['allow'],
      conditions: { operator: '$or', children: [{ operator: '$and', children: [
        { conditionType: 'userAgent', operator: '$in', value: ['curl'] },
        { conditionType: 'path', operator: '$re', value: ['^/a', '^/b'] },
        { conditionType: 'header', operator: '$exists', fieldOption: 'x-a' },
        { conditionType: 'queryParam', operator: '$eq', value: '1', fieldOption: 'q' },
      ] }] },
      source: { file, line: 2, col: 5 },
    }]);
  });

  it('keeps ruleId, description and status as written', () => {
    const text = leafRule('{ conditionType: path, operator: $eq, value: /x }')
      .replace('    actions', '    ruleId: 3f2a\n    description: Why\n    status: paused\n    actions');
    expect(parse(text).rules[0]).toMatchObject({ name: 'R', ruleId: '3f2a', description: 'Why', status: 'paused' });
  });

  it('runs the checks on well-formed leaves even when a sibling leaf is malformed', () => {
    expect(messages(leafRule(
      '{ conditionType: path, operator: $re, value: ["("] }',
      '{ conditionType: path, operator: $eq }',
    ))).toEqual([
      '9:61: regular expression "(" does not compile: Unterminated group',
      '10:15: value is required for operator $eq',
    ]);
    expect(parse(leafRule('{ conditionType: path, operator: $eq }')).rules).toEqual([]);
  });

  it('says one thing about a leaf with children, however many keys are wrong', () => {
    expect(messages(leafRule('{ operator: $or, children: [], value: 1 }'))).toEqual([
      '9:15: conditions must have exactly two levels: root → groups → leaves; this leaf has "children"',
    ]);
  });

  it('says one thing about a leaf written where a group belongs', () => {
    const text = ['rules:', '  - name: R', '    actions: [allow]', '    conditions:', '      operator: $or', '      children:',
      '        - { conditionType: path, operator: $eq, value: /x }', ''].join('\n');
    expect(messages(text)).toEqual([
      '7:11: conditions must have exactly two levels: root → groups → leaves; this group is a leaf condition (put it in the "children" of a group)',
    ]);
  });

  it('words value and fieldOption problems by operator and condition type', () => {
    expect(messages(leafRule(
      '{ conditionType: path, operator: $eq, value: [a, b] }',
      '{ conditionType: socketIpASN, operator: $eq, value: 13335 }',
      '{ conditionType: path, operator: $in, value: {} }',
      '{ conditionType: path, operator: $notIn, value: [] }',
      '{ conditionType: path, operator: $eq, value: x, fieldOption: y }',
      '{ conditionType: customParam, operator: $eq, value: x }',
      '{ conditionType: queryParam, operator: $notExists }',
    ))).toEqual([
      '9:60: value must be a single string for operator $eq (use $in for a list)',
      '10:67: value must be a string for operator $eq, not a number; put it in quotes: "13335"',
      '11:60: value must be a string or a list for operator $in, not a mapping',
      '12:63: value must list at least one string for operator $notIn',
      '13:63: fieldOption is only for queryParam, header, customParam, not path',
      '14:15: customParam needs fieldOption (the custom parameter name)',
      '15:15: queryParam needs fieldOption (the query parameter name)',
    ]);
  });

  it('lists the allowed keys of an unknown key, without priority', () => {
    expect(messages(leafRule('{ conditionType: path, operator: $eq, value: /x }').replace('    actions', '    prioirty: 1\n    actions'))).toEqual([
      '3:5: unknown key "prioirty" in rule (allowed: name, ruleId, description, status, actions, conditions)',
    ]);
  });

  it('explains an empty rules list and a rule that is not a mapping', () => {
    expect(messages('rules: []\n')).toEqual(['1:8: rules is an empty list; a rule file lists at least one rule (delete the file instead)']);
    expect(messages('rules:\n  - just a string\n')).toEqual(['2:5: rule must be a mapping, not a string']);
  });

  it('collects identities of rules that are otherwise invalid, for the checks across files', () => {
    const result = parse('rules:\n  - name: Broken\n    ruleId: r-1\n');
    expect(result.identities).toEqual([{ name: { value: 'Broken', file, line: 2, col: 11 }, ruleId: { value: 'r-1', file, line: 3, col: 13 } }]);
    expect(result.rules).toEqual([]);
  });
});

describe('normaliseLeaf', () => {
  it('drops a value on presence operators and copies lists', () => {
    const value = ['a'];
    const leaf = normaliseLeaf({ conditionType: 'path', operator: '$in', value });
    expect(leaf.value).toEqual(['a']);
    expect(leaf.value).not.toBe(value);
    expect(normaliseLeaf({ conditionType: 'header', operator: '$notExists', fieldOption: 'x' })).toEqual({ conditionType: 'header', operator: '$notExists', fieldOption: 'x' });
  });
});
