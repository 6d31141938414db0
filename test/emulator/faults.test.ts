// Fault injection and latency over real HTTPS, the fault-spec parser, and the request log
// (which must never hold the Authorization header or a token).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UserError } from '../../src/errors.js';
import { parseFault } from '../../src/emulator/index.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { RULES, SCRIPTS, request } from './https-request.js';

let t: TestEmulator;
let running: TestEmulator[] = [];
const start = async (options: Parameters<typeof startTestEmulator>[0] = {}) => {
  t = await startTestEmulator(options);
  running.push(t);
  return t;
};
afterEach(async () => {
  await Promise.all(running.map((e) => e.close()));
  running = [];
});

const scriptsQuery = { appId: '["app-demo"]', tld: '["shop.example.com"]' };
const listRulesStatus = async () => (await request(t.emulator, RULES, { token: t.env.BOTRULES_TOKEN as string })).status;

describe('fault specs', () => {
  test('parses effect, filters and limits', () => {
    expect(parseFault('status=503,retry-after=1,method=get,path=/v1/scripts,times=2')).toEqual({
      text: 'status=503,retry-after=1,method=get,path=/v1/scripts,times=2',
      effect: { kind: 'status', status: 503, retryAfter: 1 },
      method: 'GET',
      path: '/v1/scripts',
      times: 2,
    });
    expect(parseFault('drop,method=PATCH,rate=0.1,after=3')).toMatchObject({ effect: { kind: 'drop' }, method: 'PATCH', rate: 0.1, after: 3 });
  });

  test.each<[string, RegExp]>([
    ['', /empty item/],
    ['method=GET', /exactly one of status=CODE or drop/],
    ['status=503,drop', /exactly one of/],
    ['status=200', /HTTP error code/],
    ['status=5xx', /HTTP error code/],
    ['drop,retry-after=1', /retry-after goes with status/],
    ['status=500,times=two', /times must be a whole number/],
    ['status=500,rate=1.5', /rate must be a number between 0 and 1/],
    ['status=500,path=v1', /path must start with \//],
    ['status=500,colour=red', /unknown item "colour"/],
    ['status=500,status=503', /given twice/],
  ])('%p is a UserError: %p', (spec, message) => {
    expect(() => parseFault(spec)).toThrow(UserError);
    expect(() => parseFault(spec)).toThrow(message);
  });

  test('a bad spec in the options stops start-up with the UserError', async () => {
    await expect(start({ faults: ['status=600'] })).rejects.toThrow(/invalid fault "status=600"/);
  });
});

describe('injected faults', () => {
  test('a status with Retry-After, a number of times, only on the matching method and path', async () => {
    await start({ faults: ['status=503,retry-after=2,method=GET,path=/v1/scripts,times=2'] });
    const token = t.env.BOTRULES_API_TOKEN as string;
    expect(await listRulesStatus()).toBe(200);
    const first = await request(t.emulator, SCRIPTS, { token, query: scriptsQuery });
    expect(first.status).toBe(503);
    expect(first.headers['retry-after']).toBe('2');
    expect((await request(t.emulator, SCRIPTS, { token, query: scriptsQuery })).status).toBe(503);
    expect((await request(t.emulator, SCRIPTS, { token, query: scriptsQuery })).status).toBe(200);
    expect(t.emulator.log.map((e) => [e.status, e.fault])).toEqual([
      [200, undefined],
      [503, 'status=503,retry-after=2,method=GET,path=/v1/scripts,times=2'],
      [503, 'status=503,retry-after=2,method=GET,path=/v1/scripts,times=2'],
      [200, undefined],
    ]);
  });

  test('after=N lets the first N requests through; a fault without limits never stops', async () => {
    await start({ faults: ['status=500,after=1'] });
    expect(await listRulesStatus()).toBe(200);
    for (let i = 0; i < 3; i++) expect(await listRulesStatus()).toBe(500);
  });

  test('drop destroys the connection without an answer', async () => {
    await start({ faults: ['drop,times=1'] });
    await expect(listRulesStatus()).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(await listRulesStatus()).toBe(200);
    expect(t.emulator.log[0]).toMatchObject({ status: 0, fault: 'drop,times=1' });
  });

  test('faults added and cleared at run time', async () => {
    await start();
    t.emulator.addFault('status=429,retry-after=1');
    expect(await listRulesStatus()).toBe(429);
    t.emulator.clearFaults();
    expect(await listRulesStatus()).toBe(200);
  });

  test('rate follows the random seed: the same seed fires on the same requests', async () => {
    const pattern = async (seed: number) => {
      await start({ faults: ['status=500,rate=0.5'], randomSeed: seed });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push(await listRulesStatus());
      return statuses;
    };
    const first = await pattern(7);
    expect(first).toEqual(await pattern(7));
    expect(first).toContain(500);
    expect(first).toContain(200);
  });
});

test('latency delays every answer', async () => {
  await start({ latencyMs: 60 });
  expect(await listRulesStatus()).toBe(200);
  // The log's ms is measured from arrival to answer, so it includes the delay.
  expect(t.emulator.log[0]?.ms).toBeGreaterThanOrEqual(55);
  t.emulator.setLatency(0);
  expect(await listRulesStatus()).toBe(200);
});

test('the request log (memory and file) records requests but never headers or tokens', async () => {
  const logDir = await mkdtemp(path.join(tmpdir(), 'botrules-emulator-log-'));
  const logFile = path.join(logDir, 'requests.log');
  await start({ generateRules: 2, logFile });
  const { BOTRULES_TOKEN: token, BOTRULES_API_TOKEN: apiToken } = t.env as Record<string, string>;
  const ruleId = t.emulator.rules()[1]?.ruleId as string;
  await request(t.emulator, `${RULES}/${ruleId}`, { method: 'PATCH', token, body: { priority: 0 } });
  await request(t.emulator, SCRIPTS, { token: apiToken, query: { ...scriptsQuery, take: 5 } });
  await request(t.emulator, RULES, { token: 'wrong-token-SECRET' });
  await t.emulator.stop();
  const lines = (await readFile(logFile, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as unknown);
  expect(lines).toEqual(t.emulator.log);
  expect(lines).toEqual([
    expect.objectContaining({ method: 'PATCH', path: `${RULES}/${ruleId}`, query: {}, body: { priority: 0 }, status: 200 }),
    expect.objectContaining({ method: 'GET', path: SCRIPTS, query: { ...scriptsQuery, take: '5' }, status: 200 }),
    expect.objectContaining({ method: 'GET', path: RULES, status: 400 }),
  ]);
  for (const entry of t.emulator.log) {
    expect(Object.keys(entry).sort()).toEqual(expect.arrayContaining(['method', 'ms', 'path', 'query', 'status', 'time']));
    expect(entry.time).toMatch(/^\d{4}-\d\d-\d\dT/);
  }
  const text = await readFile(logFile, 'utf8');
  for (const secret of [token, apiToken, 'wrong-token-SECRET', 'Bearer', 'uthorization']) expect(text).not.toContain(secret);
  await rm(logDir, { recursive: true, force: true });
});
