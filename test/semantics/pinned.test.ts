// Rules pinned as declared rules: what verification and undo plan against.
import { pinnedDeclared } from '../../src/semantics/pinned.js';
import type { LiveRule } from '../../src/semantics/model.js';
import { live as liveRule } from '../helpers/rules.js';

function live(names: string[]): LiveRule[] {
  return names.map((name, priority) => liveRule({
    name,
    ruleId: `id-${name}`,
    priority,
    description: '',
    status: 'active',
    actions: ['allow'],
    conditions: { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$eq', value: `/${name}` }] }] },
  }));
}

describe('pinnedDeclared', () => {
  it('pins every rule by ruleId, in priority order, without priority', () => {
    const rules = live(['a', 'b', 'c']).reverse();
    const declared = pinnedDeclared(rules, 'expected rules of app default');
    expect(declared.map((r) => r.ruleId)).toEqual(['id-a', 'id-b', 'id-c']);
    expect(declared[1]).toMatchObject({ source: { file: 'expected rules of app default', line: 2, col: 1 } });
    for (const rule of declared) expect(rule).not.toHaveProperty('priority');
  });
});
