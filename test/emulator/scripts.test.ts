// The script inventory over real HTTPS: filtering by app, host and window, paging with
// skip/take, the take cap, count, paging links, 401 and 422 answers.
import type { ScriptRecord } from '../../src/scripts/model.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { SCRIPTS, request, type Answer } from './https-request.js';

const NOW = Date.parse('2024-06-15T12:00:00Z');
const HOUR = 60 * 60 * 1000;

function record(i: number, fields: Partial<ScriptRecord> = {}): ScriptRecord {
  return {
    key: `k${String(i).padStart(2, '0')}`,
    id: `https://cdn.example.net/s${i}.js`,
    app_id: 'app-1',
    host_domain: 'shop.example.com',
    first_seen: new Date(NOW - 48 * HOUR).toISOString(),
    last_seen: new Date(NOW - HOUR).toISOString(),
    ...fields,
  };
}

// 25 matching records (listed out of key order), plus records that must be filtered out.
const MATCHING = Array.from({ length: 25 }, (_, i) => record(24 - i));
const OTHERS = [
  record(90, { app_id: 'app-2' }),
  record(91, { host_domain: 'blog.example.org' }),
  record(92, { host_domain: 'notshop.example.com' }),
  record(93, { first_seen: new Date(NOW - 100 * HOUR).toISOString(), last_seen: new Date(NOW - 30 * HOUR).toISOString() }),
];

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator({ seedScripts: [...MATCHING, ...OTHERS], now: () => NOW, maxTake: 10 });
});
afterAll(() => t.close());

const query = (extra: Record<string, string | number> = {}) => ({ appId: '["app-1"]', tld: '["shop.example.com"]', ...extra });
/** `token: null` sends no Authorization header. */
const get = (q: Record<string, string | number>, token: string | null = t.env.BOTRULES_API_TOKEN as string): Promise<Answer> =>
  request(t.emulator, SCRIPTS, { query: q, ...(token === null ? {} : { token }) });
type Page = { paging: { previous: string; current: string; next: string; count: number }; data: ScriptRecord[] };
const keys = (a: Answer) => (a.body as Page).data.map((r) => r.key);

test('defaults: skip 0, take 20, the last 24 hours, stable key order, count of all matches', async () => {
  const answer = await get(query());
  expect(answer.status).toBe(200);
  const page = answer.body as Page;
  expect(page.paging.count).toBe(25);
  expect(keys(answer)).toEqual(MATCHING.map((r) => r.key).sort().slice(0, 10));
});

test('take above the maximum is silently capped; pages cover everything exactly once', async () => {
  const seen: string[] = [];
  for (let skip = 0; skip < 25; skip += 10) {
    const answer = await get(query({ take: 50, skip }));
    expect((answer.body as Page).paging.count).toBe(25);
    seen.push(...(keys(answer) as string[]));
  }
  expect(seen).toEqual(MATCHING.map((r) => r.key).sort());
});

test('paging links carry the request query with take and skip, on the gateway URL', async () => {
  const page = (await get(query({ take: 5, skip: 5 }))).body as Page;
  const link = (s: string) => new URL(s);
  for (const [name, skip] of [['previous', '0'], ['current', '5'], ['next', '10']] as const) {
    const url = link(page.paging[name]);
    expect(url.origin + url.pathname).toBe(`${t.emulator.gatewayUrl}/v1/scripts`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ ...query(), take: '5', skip });
  }
});

test('previous is empty on the first page and next on the last', async () => {
  const first = (await get(query({ take: 10 }))).body as Page;
  expect(first.paging.previous).toBe('');
  expect(first.paging.next).not.toBe('');
  const last = (await get(query({ take: 10, skip: 20 }))).body as Page;
  expect(last.data).toHaveLength(5);
  expect(last.paging.next).toBe('');
  expect(new URL(last.paging.previous).searchParams.get('skip')).toBe('10');
});

test('the window keeps records whose seen period overlaps [from, to]', async () => {
  const count = async (from: number, to: number) => ((await get(query({ from, to }))).body as Page).paging.count;
  expect(await count(NOW - 100 * HOUR, NOW)).toBe(26);
  expect(await count(NOW - 40 * HOUR, NOW - 35 * HOUR)).toBe(26);
  expect(await count(NOW - 29 * HOUR, NOW)).toBe(25);
  expect(await count(NOW - 200 * HOUR, NOW - 101 * HOUR)).toBe(0);
});

test('several app ids and tlds; a subdomain matches its tld', async () => {
  const answer = await get(query({ appId: '["app-1","app-2"]', tld: '["example.com"]', take: 10, skip: 20 }));
  expect((answer.body as Page).paging.count).toBe(27);
  expect(keys(answer)).toEqual(['k20', 'k21', 'k22', 'k23', 'k24', 'k90', 'k92']);
});

test('without the API token: 401', async () => {
  expect((await get(query(), null)).status).toBe(401);
  const wrong = await get(query(), t.env.BOTRULES_TOKEN as string);
  expect(wrong.status).toBe(401);
  expect(wrong.body).toEqual({ message: 'access token missing or invalid' });
});

test.each<[string, Record<string, string | number>, RegExp]>([
  ['no appId', { tld: '["shop.example.com"]' }, /appId is required/],
  ['no tld', { appId: '["app-1"]' }, /tld is required/],
  ['appId not JSON', query({ appId: 'app-1' }), /appId must be a JSON array/],
  ['empty tld list', query({ tld: '[]' }), /tld must be a JSON array of at least one/],
  ['tld list of numbers', query({ tld: '[1]' }), /tld must be a JSON array/],
  ['take 0', query({ take: 0 }), /take must be an integer of at least 1/],
  ['negative skip', query({ skip: -1 }), /skip must be an integer/],
  ['from not a number', query({ from: 'yesterday' }), /from must be an integer/],
  ['from after to', query({ from: NOW, to: NOW - 1 }), /must not be after/],
])('422 for %s', async (_label, q, message) => {
  const answer = await get(q);
  expect(answer.status).toBe(422);
  expect(answer.body).toEqual({ message: expect.stringMatching(message) });
});
