// The rule API's POST and DELETE behind `--capabilities create,delete` (docs/behaviour.md,
// "Creating and deleting rules"): 405 without them; list-insert for a POST's priority; the rules
// below a deleted one move up; POST bodies checked as strictly as PATCH bodies; answers in the
// `{ result, message, content }` envelope; every request in the request log.
import type { Rule } from '../../src/semantics/model.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { RULES, listRules, request } from './https-request.js';

function rule(name: string, extra: Partial<Rule> = {}): Rule {
  return {
    name,
    description: '',
    status: 'active',
    actions: ['hardBlock'],
    conditions: { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$eq', value: `/${name}` }] }] },
    ...extra,
  };
}

let t: TestEmulator;
let token: string;

async function start(capabilities?: ('create' | 'delete')[]): Promise<void> {
  t = await startTestEmulator({ seedRules: ['A', 'B', 'C'].map((n) => rule(n)), ...(capabilities === undefined ? {} : { capabilities }) });
  token = t.env.BOTRULES_TOKEN as string;
}
afterEach(() => t.close());

const names = async (): Promise<string[]> => (await listRules(t.emulator, token)).map((r) => String(r.name));
const idOf = (name: string): string => t.emulator.rules().find((r) => r.name === name)?.ruleId as string;

describe('without --capabilities', () => {
  test('POST and DELETE answer 405 and change nothing', async () => {
    await start();
    expect((await request(t.emulator, RULES, { method: 'POST', token, body: { ...rule('N'), priority: 0 } })).status).toBe(405);
    expect((await request(t.emulator, `${RULES}/${idOf('A')}`, { method: 'DELETE', token })).status).toBe(405);
    expect(await names()).toEqual(['A', 'B', 'C']);
  });

  test('one capability does not switch on the other', async () => {
    await start(['create']);
    expect((await request(t.emulator, `${RULES}/${idOf('A')}`, { method: 'DELETE', token })).status).toBe(405);
    await t.close();
    await start(['delete']);
    expect((await request(t.emulator, RULES, { method: 'POST', token, body: rule('N') })).status).toBe(405);
  });
});

describe('POST (create)', () => {
  test('inserts at priority (list-insert) and answers the rule with a new ruleId in the envelope', async () => {
    await start(['create', 'delete']);
    const answer = await request(t.emulator, RULES, { method: 'POST', token, body: { ...rule('N', { description: 'new' }), priority: 1 } });
    expect(answer.status).toBe(200);
    const body = answer.body as { result: boolean; message: string; content: Record<string, unknown> };
    expect(body).toMatchObject({ result: true, content: { name: 'N', description: 'new', priority: 1 } });
    expect(body.content.ruleId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await names()).toEqual(['A', 'N', 'B', 'C']);
    // At the end: priority = the rule count; without a priority, at the end too.
    await request(t.emulator, RULES, { method: 'POST', token, body: { ...rule('Z'), priority: 4 } });
    await request(t.emulator, RULES, { method: 'POST', token, body: rule('Y') });
    expect(await names()).toEqual(['A', 'N', 'B', 'C', 'Z', 'Y']);
    expect(t.emulator.log.filter((entry) => entry.method === 'POST').map((entry) => entry.status)).toEqual([200, 200, 200]);
  });

  test.each([
    ['a ruleId', { ...rule('N'), ruleId: 'mine' }, 'a new rule must not carry a ruleId: the service gives it one'],
    ['no conditions', { name: 'N', status: 'active', actions: ['hardBlock'] }, 'a new rule needs conditions'],
    ['an unknown action', { ...rule('N'), actions: ['drop'] }, 'actions[0] must be one of allow, blockWithChallenge, hardBlock; got "drop"'],
    ['a priority past the end', { ...rule('N'), priority: 4 }, 'priority 4 is out of range: it must be between 0 and 3'],
    ['a pattern that does not compile', { ...rule('N'), conditions: { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'userAgent', operator: '$re', value: ['('] }] }] } },
      'conditions.children[0].children[0].value: "(" is not a valid regular expression'],
  ])('refuses a body with %s: 400, %s', async (_what, body, message) => {
    await start(['create']);
    const answer = await request(t.emulator, RULES, { method: 'POST', token, body });
    expect(answer).toMatchObject({ status: 400, body: { result: false, message } });
    expect(await names()).toEqual(['A', 'B', 'C']);
  });

  test('needs the app\'s token, like the list', async () => {
    await start(['create']);
    expect((await request(t.emulator, RULES, { method: 'POST', token: 'wrong', body: rule('N') })).status).toBe(400);
  });
});

describe('DELETE', () => {
  test('removes the rule, the rules below move up, and answers the rule as it was; an unknown id is 404', async () => {
    await start(['delete']);
    const b = idOf('B');
    const answer = await request(t.emulator, `${RULES}/${b}`, { method: 'DELETE', token });
    expect(answer).toMatchObject({ status: 200, body: { result: true, content: { ruleId: b, name: 'B', priority: 1 } } });
    expect((await listRules(t.emulator, token)).map((r) => [r.name, r.priority])).toEqual([['A', 0], ['C', 1]]);
    expect((await request(t.emulator, `${RULES}/${b}`, { method: 'DELETE', token })).status).toBe(404);
    expect(t.emulator.log.filter((entry) => entry.method === 'DELETE').map((entry) => entry.status)).toEqual([200, 404]);
  });
});
