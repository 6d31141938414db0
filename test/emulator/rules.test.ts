// The custom-rule operations over real HTTPS: listing, PATCH semantics (only sent fields,
// list-move and swap priority), validation answers, unknown ids and token handling.
import { CONDITION_TYPES, LEAF_OPERATORS, type Rule } from '../../src/semantics/model.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { RULES, listRules, patchRule, request } from './https-request.js';

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

const NAMES = ['A', 'B', 'C', 'D', 'E'];

let t: TestEmulator;
let token: string;

beforeEach(async () => {
  t = await startTestEmulator({ seedRules: NAMES.map((n) => rule(n)) });
  token = t.env.BOTRULES_TOKEN as string;
});
afterEach(() => t.close());

const names = async () => (await listRules(t.emulator, token)).map((r) => r.name);
const idOf = (name: string) => t.emulator.rules().find((r) => r.name === name)?.ruleId as string;

describe('list', () => {
  test('answers the envelope with the rules in priority order, priority = index', async () => {
    const answer = await request(t.emulator, RULES, { token });
    expect(answer.status).toBe(200);
    const body = answer.body as { result: boolean; message: string; content: Array<Record<string, unknown>> };
    expect(body.result).toBe(true);
    expect(body.content.map((r) => [r.name, r.priority])).toEqual(NAMES.map((n, i) => [n, i]));
    expect(body.content[0]).toMatchObject({ ruleId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/) });
  });

  test('an app without rules lists an empty content', async () => {
    await t.close();
    t = await startTestEmulator();
    expect(await listRules(t.emulator, t.env.BOTRULES_TOKEN as string)).toEqual([]);
  });
});

describe('PATCH priority', () => {
  test('list-move: the rule is removed and inserted at the index, the others shift', async () => {
    const answer = await patchRule(t.emulator, token, idOf('E'), { priority: 1 });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ result: true, content: { name: 'E', priority: 1 } });
    expect(await names()).toEqual(['A', 'E', 'B', 'C', 'D']);
    await patchRule(t.emulator, token, idOf('A'), { priority: 4 });
    expect(await names()).toEqual(['E', 'B', 'C', 'D', 'A']);
  });

  test('swap semantics exchange the two rules instead', async () => {
    t.emulator.setMoveSemantics('swap');
    await patchRule(t.emulator, token, idOf('E'), { priority: 1 });
    expect(await names()).toEqual(['A', 'E', 'C', 'D', 'B']);
  });

  test.each([[-1], [5], [1.5], ['2']])('priority %p is refused with 400 and nothing moves', async (priority) => {
    const answer = await patchRule(t.emulator, token, idOf('C'), { priority });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: false, message: expect.stringMatching(/priority/) });
    expect(await names()).toEqual(NAMES);
  });
});

describe('PATCH fields', () => {
  test('only the sent fields change; a move and a change travel together', async () => {
    const before = t.emulator.rules().find((r) => r.name === 'C');
    const answer = await patchRule(t.emulator, token, idOf('C'), { description: 'why', status: 'paused', priority: 0 });
    expect(answer.status).toBe(200);
    const after = t.emulator.rules()[0];
    expect(after).toEqual({ ...before, description: 'why', status: 'paused', priority: 0 });
  });

  test('an empty body is valid and changes nothing', async () => {
    const before = t.emulator.rules();
    const answer = await patchRule(t.emulator, token, idOf('B'), {});
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ content: { name: 'B', priority: 1 } });
    expect(t.emulator.rules()).toEqual(before);
  });

  test('unknown top-level fields are ignored; a matching body ruleId is accepted', async () => {
    const answer = await patchRule(t.emulator, token, idOf('B'), { ruleId: idOf('B'), color: 'blue', name: 'B2' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ content: { name: 'B2' } });
    expect(answer.body).not.toHaveProperty('content.color');
  });

  test('a body ruleId that differs from the path is refused', async () => {
    const answer = await patchRule(t.emulator, token, idOf('B'), { ruleId: idOf('C'), name: 'X' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ result: false, message: expect.stringMatching(/does not match/) });
    expect(await names()).toEqual(NAMES);
  });

  test('conditions are replaced whole', async () => {
    const conditions = {
      operator: '$and',
      children: [{ operator: '$or', children: [{ conditionType: 'header', fieldOption: 'x-bot', operator: '$exists' }] }],
    };
    const answer = await patchRule(t.emulator, token, idOf('A'), { conditions });
    expect(answer.status).toBe(200);
    expect(t.emulator.rules()[0]?.conditions).toEqual(conditions);
  });
});

describe('PATCH validation answers 400 with a message', () => {
  const leaf = (l: Record<string, unknown>) => ({ operator: '$or', children: [{ operator: '$and', children: [l] }] });
  test.each<[string, unknown, string]>([
    ['empty name', { name: ' ' }, 'name must be a non-empty string'],
    ['description not a string', { description: 3 }, 'description must be a string'],
    ['unknown status', { status: 'off' }, 'status must be one of active, paused; got "off"'],
    ['empty actions', { actions: [] }, 'actions must be a non-empty list'],
    ['unknown action', { actions: ['allow', 'tarpit'] }, 'actions[1] must be one of allow, blockWithChallenge, hardBlock; got "tarpit"'],
    ['repeated action', { actions: ['allow', 'allow'] }, 'actions must not repeat a value'],
    ['unknown group operator', { conditions: { operator: '$xor', children: [] } }, 'conditions.operator must be one of $or, $and; got "$xor"'],
    ['three levels', { conditions: leaf({ operator: '$and', children: [] }) }, 'conditions.children[0].children[0]: conditions have exactly two levels; a condition cannot have children'],
    ['unknown leaf operator', { conditions: leaf({ conditionType: 'path', operator: '$like', value: 'x' }) }, `conditions.children[0].children[0].operator must be one of ${LEAF_OPERATORS.join(', ')}; got "$like"`],
    ['unknown condition type', { conditions: leaf({ conditionType: 'ip', operator: '$eq', value: 'x' }) }, `conditions.children[0].children[0].conditionType must be one of ${CONDITION_TYPES.join(', ')}; got "ip"`],
    ['list operator with a string', { conditions: leaf({ conditionType: 'country', operator: '$in', value: 'US' }) }, 'conditions.children[0].children[0].value must be a non-empty list of strings for $in'],
    ['value operator with a list', { conditions: leaf({ conditionType: 'path', operator: '$eq', value: ['/a'] }) }, 'conditions.children[0].children[0].value must be a non-empty string'],
    ['presence operator with a value', { conditions: leaf({ conditionType: 'header', fieldOption: 'x', operator: '$exists', value: 'y' }) }, 'conditions.children[0].children[0].value is not allowed with $exists'],
    ['missing fieldOption', { conditions: leaf({ conditionType: 'queryParam', operator: '$eq', value: 'y' }) }, 'conditions.children[0].children[0].fieldOption must be a non-empty string'],
    ['fieldOption where none belongs', { conditions: leaf({ conditionType: 'path', fieldOption: 'x', operator: '$eq', value: 'y' }) }, 'conditions.children[0].children[0].fieldOption is only allowed for queryParam, header and customParam'],
    ['regular expression that does not compile', { conditions: leaf({ conditionType: 'path', operator: '$re', value: ['('] }) }, 'conditions.children[0].children[0].value: "(" is not a valid regular expression'],
    ['body not an object', [1, 2], 'the request body must be a JSON object'],
    ['missing leaf operator', { conditions: leaf({ conditionType: 'path', value: 'x' }) }, `conditions.children[0].children[0].operator must be one of ${LEAF_OPERATORS.join(', ')}; got undefined`],
    ['blank list item', { conditions: leaf({ conditionType: 'path', operator: '$in', value: ['/a', ' '] }) }, 'conditions.children[0].children[0].value[1] must be a non-empty string'],
    ['priority not an integer', { priority: 1.5 }, 'priority must be an integer'],
    ['priority past the last rule', { priority: NAMES.length }, `priority ${NAMES.length} is out of range: it must be between 0 and ${NAMES.length - 1}`],
  ])('%s', async (_label, body, message) => {
    const before = t.emulator.rules();
    const answer = await patchRule(t.emulator, token, idOf('A'), body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: false, message });
    expect(t.emulator.rules()).toEqual(before);
  });

  test('a body that is not JSON', async () => {
    const answer = await patchRule(t.emulator, token, idOf('A'), '{"name": ');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ result: false });
  });
});

describe('unknown ids, paths and methods', () => {
  test('PATCH of an unknown rule id is 404', async () => {
    const answer = await patchRule(t.emulator, token, 'no-such-rule', { name: 'X' });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ result: false, message: expect.stringMatching(/no-such-rule/) });
  });

  test('other paths are 404 and other methods 405', async () => {
    expect((await request(t.emulator, '/api/v1/botProtection/customRules', { token })).status).toBe(404);
    expect((await request(t.emulator, RULES, { token, method: 'POST', body: {} })).status).toBe(405);
    expect((await request(t.emulator, `${RULES}/${idOf('A')}`, { token })).status).toBe(405);
  });
});

describe('tokens', () => {
  test.each([['missing', undefined], ['wrong', 'not-the-token']])('%s token: 400 on list and PATCH', async (_label, wrong) => {
    const list = await request(t.emulator, RULES, wrong === undefined ? {} : { token: wrong });
    expect(list.status).toBe(400);
    expect(list.body).toEqual({ result: false, message: 'request invalid or lacks proper authentication' });
    const patch = await request(t.emulator, `${RULES}/${idOf('A')}`, { method: 'PATCH', body: { name: 'X' }, ...(wrong === undefined ? {} : { token: wrong }) });
    expect(patch.status).toBe(400);
    expect(await names()).toEqual(NAMES);
  });

  test('the API token is not a server token', async () => {
    expect((await request(t.emulator, RULES, { token: t.env.BOTRULES_API_TOKEN as string })).status).toBe(400);
  });

  test('each app sees only its own rules, picked by its token', async () => {
    await t.close();
    t = await startTestEmulator({
      apps: [
        { name: 'shop', token: 'tok-shop-SECRET', rules: [rule('S1'), rule('S2')] },
        { name: 'blog', token: 'tok-blog-SECRET', rules: [rule('B1')] },
      ],
    });
    expect((await listRules(t.emulator, 'tok-shop-SECRET')).map((r) => r.name)).toEqual(['S1', 'S2']);
    expect((await listRules(t.emulator, 'tok-blog-SECRET')).map((r) => r.name)).toEqual(['B1']);
    const s2 = t.emulator.rules('shop')[1]?.ruleId as string;
    expect((await patchRule(t.emulator, 'tok-blog-SECRET', s2, { name: 'X' })).status).toBe(404);
    expect(t.env.BOTRULES_TOKEN).toBe('tok-shop-SECRET');
  });
});
