// A small rule set and four test requests whose coverage and mutants are worked out by hand
// (coverage.test.ts, mutate.test.ts). Rules in priority order:
//   0 "Block bad bots"    hardBlock           $and [ $or [ua $contains bot, ua $startsWith curl], $and [path $startsWith /api] ]
//   1 "Pause me"          allow, paused       path $eq /x
//   2 "Allow partners"    allow               $or  [ $and [ip $in 10.0.0.0/8, header x-key $exists] ]
//   3 "Challenge logins"  blockWithChallenge  $and [ $and [path $eq /login, method $eq POST] ]
import type { RuleTest } from '../../src/tests/load.js';
import type { DeclaredRule, Leaf } from '../../src/semantics/model.js';
import { declared } from '../helpers/rules.js';

function rule(name: string, line: number, fields: Partial<DeclaredRule> & Pick<DeclaredRule, 'actions' | 'conditions'>): DeclaredRule {
  return declared({ name, description: '', status: 'active', source: { file: 'rules/r.yaml', line, col: 5 }, ...fields });
}

const leaf = (conditionType: Leaf['conditionType'], operator: Leaf['operator'], value?: string | string[], fieldOption?: string): Leaf => ({
  conditionType, operator, ...(value === undefined ? {} : { value }), ...(fieldOption === undefined ? {} : { fieldOption }),
});

export const RULES: DeclaredRule[] = [
  rule('Block bad bots', 2, {
    actions: ['hardBlock'],
    conditions: { operator: '$and', children: [
      { operator: '$or', children: [leaf('userAgent', '$contains', 'bot'), leaf('userAgent', '$startsWith', 'curl')] },
      { operator: '$and', children: [leaf('path', '$startsWith', '/api')] },
    ] },
  }),
  rule('Pause me', 10, { status: 'paused', actions: ['allow'], conditions: { operator: '$and', children: [{ operator: '$and', children: [leaf('path', '$eq', '/x')] }] } }),
  rule('Allow partners', 20, {
    actions: ['allow'],
    conditions: { operator: '$or', children: [{ operator: '$and', children: [leaf('socketIps', '$in', ['10.0.0.0/8']), leaf('header', '$exists', undefined, 'x-key')] }] },
  }),
  rule('Challenge logins', 30, {
    actions: ['blockWithChallenge'],
    conditions: { operator: '$and', children: [{ operator: '$and', children: [leaf('path', '$eq', '/login'), leaf('httpMethod', '$eq', 'POST')] }] },
  }),
];

function test(name: string, line: number, request: RuleTest['request'], expect: RuleTest['expect']): RuleTest {
  return { name, request, expect, source: { file: 'tests/t.yaml', line, col: 5 } };
}

/** T1 → rule 0; T2 → none; T3 → rule 3; T4 → rule 2. */
export const TESTS: RuleTest[] = [
  test('T1 bad bot on the API', 2, { path: '/api/x', userAgent: 'badbot' }, { rule: 'Block bad bots', actions: ['hardBlock'] }),
  test('T2 browser on the API', 5, { path: '/api/x', userAgent: 'Mozilla' }, { rule: 'none' }),
  test('T3 login post from the partner network', 8, { path: '/login', method: 'POST', ip: '10.1.1.1' }, { rule: 'Challenge logins' }),
  test('T4 partner with its key', 11, { path: '/login', method: 'GET', ip: '10.1.1.1', headers: { 'x-key': '1' } }, { rule: 'Allow partners' }),
];
