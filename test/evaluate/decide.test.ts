import { decide } from '../../src/evaluate/evaluate.js';
import type { TestRequest } from '../../src/evaluate/request.js';
import { missedLeaves } from '../../src/evaluate/program-reasons.js';
import { ProgramVerdicts } from '../../src/evaluate/program-verdicts.js';
import { compileProgram, type ProgramSet } from '../../src/semantics/program.js';
import type { Conditions, NormalRule, Rule } from '../../src/semantics/model.js';
import { normal } from '../helpers/rules.js';

const rule = (name: string, conditions: Conditions, extra: Partial<Rule> = {}): NormalRule => normal({
  name, description: '', status: 'active', actions: ['hardBlock'], conditions, ...extra,
});
const onPath = (op: '$and' | '$or', inner: '$and' | '$or', ...paths: string[]): Conditions => ({
  operator: op, children: [{ operator: inner, children: paths.map((value) => ({ conditionType: 'path', operator: '$startsWith', value })) }],
});

describe('decide', () => {
  const rules = [
    rule('paused first', onPath('$or', '$or', '/'), { status: 'paused' }),
    rule('api', onPath('$or', '$or', '/api'), { actions: ['blockWithChallenge'] }),
    rule('everything', onPath('$or', '$or', '/'), { actions: ['allow'] }),
  ];
  it('skips paused rules and lets the first matching active rule decide', () => {
    expect(decide(rules, { path: '/api/x' })).toMatchObject({ index: 1, actions: ['blockWithChallenge'] });
    expect(decide(rules, { path: '/home' }).rule?.name).toBe('everything');
  });
  it('has no outcome when nothing matches', () => {
    expect(decide(rules, { method: 'GET' })).toEqual({ rule: undefined, index: -1, actions: [] });
  });
  it('combines groups with the root operator and leaves with the group operator', () => {
    const both: Conditions = {
      operator: '$and',
      children: [
        { operator: '$or', children: [{ conditionType: 'path', operator: '$eq', value: '/a' }, { conditionType: 'path', operator: '$eq', value: '/b' }] },
        { operator: '$and', children: [{ conditionType: 'httpMethod', operator: '$eq', value: 'POST' }, { conditionType: 'country', operator: '$ne', value: 'US' }] },
      ],
    };
    const r = [rule('both', both)];
    expect(decide(r, { path: '/b', method: 'POST', country: 'DE' }).index).toBe(0);
    expect(decide(r, { path: '/b', method: 'POST', country: 'US' }).index).toBe(-1);
    expect(decide(r, { path: '/c', method: 'POST' }).index).toBe(-1);
    expect(decide([rule('any', { ...both, operator: '$or' })], { path: '/c', method: 'POST' }).index).toBe(0);
  });
});

/** The missed leaves of the one rule, for the request, by the compiled engine. */
function missedOf(one: NormalRule, request: TestRequest): ReturnType<typeof missedLeaves> {
  const program = compileProgram([[one]]);
  const verdicts = new ProgramVerdicts(program);
  verdicts.begin(request);
  return missedLeaves(verdicts, program, program.sets[0] as ProgramSet<NormalRule>, 0);
}

describe('missedLeaves', () => {
  it('names the leaves of the failing groups only', () => {
    const conditions: Conditions = {
      operator: '$and',
      children: [
        { operator: '$and', children: [{ conditionType: 'path', operator: '$eq', value: '/login' }] },
        { operator: '$and', children: [{ conditionType: 'httpMethod', operator: '$eq', value: 'POST' }, { conditionType: 'country', operator: '$eq', value: 'US' }] },
      ],
    };
    const missed = missedOf(rule('r', conditions), { path: '/login', method: 'GET', country: 'US' });
    expect(missed).toEqual([{ group: 1, leaf: 0, condition: { conditionType: 'httpMethod', operator: '$eq', value: 'POST' } }]);
    expect(missedOf(rule('r', conditions), { path: '/login', method: 'POST', country: 'US' })).toEqual([]);
  });
});
