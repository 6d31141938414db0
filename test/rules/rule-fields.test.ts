import { actionsNonEmptyUnique, priorityIsPosition } from '../../src/rules/checks/rule-fields.js';
import { uniqueNames, uniqueRuleIds, type RuleIdentity } from '../../src/rules/checks/unique.js';
import type { Where } from '../../src/rules/checks/where.js';

const where: Where = { at: (path, message, options) => ({ file: JSON.stringify([path, options?.key ?? false]), line: 1, col: 1, message }) };
const found = (problems: { file: string; message: string }[]) => problems.map((p) => [JSON.parse(p.file) as unknown, p.message]);

describe('actionsNonEmptyUnique', () => {
  it('wants at least one action', () => {
    expect(found(actionsNonEmptyUnique([], where))).toEqual([[[[], false], 'actions must name at least one of allow, blockWithChallenge, hardBlock']]);
  });

  it('reports each repeat at the repeated item', () => {
    expect(found(actionsNonEmptyUnique(['allow', 'hardBlock', 'allow', 'allow'], where))).toEqual([
      [[[2], false], 'duplicate action "allow" (actions are a set; list each once)'],
      [[[3], false], 'duplicate action "allow" (actions are a set; list each once)'],
    ]);
    expect(actionsNonEmptyUnique(['allow', 'blockWithChallenge'], where)).toEqual([]);
  });
});

describe('priorityIsPosition', () => {
  it('rejects a priority key, at the key, explaining that order is position', () => {
    expect(found(priorityIsPosition({ name: 'x', priority: 2 }, where))).toEqual([
      [[['priority'], true], 'priority is not a rule field: the order of rules is their position (files in lexical path order, rules in file order); move the rule instead'],
    ]);
    expect(priorityIsPosition({ name: 'x' }, where)).toEqual([]);
  });
});

describe('uniqueNames and uniqueRuleIds', () => {
  const at = (value: string, file: string, line: number) => ({ value, file, line, col: 11 });
  const identities: RuleIdentity[] = [
    { name: at('A', 'rules/10.yaml', 2), ruleId: at('id-1', 'rules/10.yaml', 3) },
    { name: at('B', 'rules/10.yaml', 12) },
    { name: at('A', 'rules/20.yaml', 2), ruleId: at('id-1', 'rules/20.yaml', 3) },
    { ruleId: at('id-2', 'rules/20.yaml', 13) },
    { name: at('a', 'rules/30.yaml', 2) },
  ];

  it('reports a repeated name at the repeat, naming the first place', () => {
    expect(uniqueNames(identities)).toEqual([
      { file: 'rules/20.yaml', line: 2, col: 11, message: 'duplicate rule name "A" (also at rules/10.yaml:2:11)' },
    ]);
  });

  it('reports a repeated ruleId the same way', () => {
    expect(uniqueRuleIds(identities)).toEqual([
      { file: 'rules/20.yaml', line: 3, col: 11, message: 'duplicate ruleId "id-1" (also at rules/10.yaml:3:11)' },
    ]);
  });
});
