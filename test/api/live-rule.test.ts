// Normalising validated API rules into LiveRule, and the messages for answers botrules
// cannot read. Pure functions: no server needed.
import { validateListAnswer, validateUpdateAnswer } from '../../src/api/rule-response.js';
import { readablePath } from '../../src/io/json-pointer.js';
import { toLiveRule, UnusableRule, DEFAULT_GROUP_OPERATOR } from '../../src/api/live-rule.js';
import { RemoteError } from '../../src/errors.js';

const leaf = { conditionType: 'userAgent', operator: '$contains', value: 'curl' };
const apiRule = (extra: Record<string, unknown> = {}) => ({
  name: 'Block curl',
  ruleId: 'r-1',
  status: 'active',
  actions: ['hardBlock'],
  conditions: { operator: '$or', children: [{ operator: '$and', children: [leaf] }] },
  ...extra,
});

function rejection(run: () => unknown): RemoteError {
  try {
    run();
  } catch (error) {
    if (error instanceof RemoteError) return error;
    throw error;
  }
  throw new Error('expected a RemoteError');
}

describe('list answer validation', () => {
  it('accepts the documented envelope and tolerates unknown fields', () => {
    const body = { result: true, message: 'ok', extra: 1, content: [apiRule({ createdBy: 'someone' })] };
    expect(validateListAnswer(body, 'listing').content).toHaveLength(1);
  });

  it('names the path, the rule and the allowed values of a bad enum', () => {
    const body = { content: [apiRule(), apiRule(), apiRule(), apiRule({ name: 'Fourth', actions: ['captcha'] })] };
    const error = rejection(() => validateListAnswer(body, 'listing rules of app default'));
    expect(error.message).toBe(
      'the service returned a rule list botrules does not understand: content[3].actions[0] (rule "Fourth") ' +
        'is not one of allow, blockWithChallenge, hardBlock (it is "captcha")',
    );
    expect(error.operation).toBe('listing rules of app default');
  });

  it('requires a ruleId in a listed rule', () => {
    const body = { content: [apiRule({ ruleId: undefined })] };
    expect(rejection(() => validateListAnswer(JSON.parse(JSON.stringify(body)), 'x')).message)
      .toContain('content[0] (rule "Block curl") has no ruleId');
  });

  it('reports a wrong type with the value found', () => {
    const body = { content: [apiRule({ priority: 'first' })] };
    expect(rejection(() => validateListAnswer(body, 'x')).message).toContain('content[0].priority (rule "Block curl") is not an integer (it is "first")');
    expect(rejection(() => validateListAnswer({ content: {} }, 'x')).message).toContain('content is not a list');
    expect(rejection(() => validateListAnswer([], 'x')).message).toContain('the answer is not an object');
  });

  it('accepts an update answer without ruleId or priority', () => {
    const body = { content: apiRule({ ruleId: undefined, priority: undefined }) };
    expect(validateUpdateAnswer(JSON.parse(JSON.stringify(body)), 'x').content?.name).toBe('Block curl');
  });

  it('turns JSON pointers into readable paths', () => {
    expect(readablePath('/content/3/conditions/children/0/children/12/value')).toBe('content[3].conditions.children[0].children[12].value');
    expect(readablePath('')).toBe('');
  });
});

describe('toLiveRule', () => {
  const withLeaves = (...leaves: object[]) =>
    ({ ...apiRule(), conditions: { operator: '$or', children: [{ operator: '$or', children: leaves }] } }) as never;
  const leavesOf = (rule: ReturnType<typeof toLiveRule>) => rule.conditions.children[0]?.children;

  it('fills the defaults: description "", priority from the index', () => {
    const live = toLiveRule(apiRule() as never, 'content[4]', 'r-1', 4);
    expect(live).toEqual({
      name: 'Block curl', ruleId: 'r-1', description: '', status: 'active', actions: ['hardBlock'], priority: 4,
      conditions: { operator: '$or', children: [{ operator: '$and', children: [leaf] }] },
    });
    expect(toLiveRule(apiRule({ priority: 0, description: 'd' }) as never, 'c', 'r-1', 4)).toMatchObject({ priority: 0, description: 'd' });
  });

  it('reads a missing group operator as the documented default', () => {
    const rule = { ...apiRule(), conditions: { children: [{ children: [leaf] }] } } as never;
    const live = toLiveRule(rule, 'c', 'r', 0);
    expect(live.conditions.operator).toBe(DEFAULT_GROUP_OPERATOR);
    expect(live.conditions.children[0]?.operator).toBe('$and');
    expect(toLiveRule({ ...apiRule(), conditions: {} } as never, 'c', 'r', 0).conditions).toEqual({ operator: '$and', children: [] });
  });

  it('shapes values by operator', () => {
    const live = toLiveRule(withLeaves(
      { conditionType: 'country', operator: '$in', value: 'FR' },
      { conditionType: 'path', operator: '$re', value: ['^/a', '^/b'] },
      { conditionType: 'path', operator: '$eq', value: ['/only'] },
      { conditionType: 'path', operator: '$eq', value: ['/one', '/two'] },
      { conditionType: 'header', fieldOption: 'x-a', operator: '$exists', value: '' },
      { conditionType: 'header', fieldOption: 'x-b', operator: '$ne' },
    ), 'c', 'r', 0);
    expect(leavesOf(live)).toEqual([
      { conditionType: 'country', operator: '$in', value: ['FR'] },
      { conditionType: 'path', operator: '$re', value: ['^/a', '^/b'] },
      { conditionType: 'path', operator: '$eq', value: '/only' },
      { conditionType: 'path', operator: '$eq', value: ['/one', '/two'] },
      { conditionType: 'header', fieldOption: 'x-a', operator: '$exists' },
      { conditionType: 'header', fieldOption: 'x-b', operator: '$ne' },
    ]);
  });

  it('refuses a leaf it cannot compare, naming where', () => {
    const run = () => toLiveRule(withLeaves(leaf, { conditionType: 'path', value: 'x' }), 'content[2]', 'r', 0);
    expect(run).toThrow(UnusableRule);
    expect(run).toThrow('content[2].conditions.children[0].children[1] has no operator');
  });
});
