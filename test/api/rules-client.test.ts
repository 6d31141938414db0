// The rule operations against the emulator over verified HTTPS: answers, error statuses,
// retries through injected faults, and a token that never shows anywhere.
import { readFile } from 'node:fs/promises';
import { createRulesClient, rulesClientFor, type RulesApi } from '../../src/api/index.js';
import { RemoteError } from '../../src/errors.js';
import type { AppConfig } from '../../src/rules/config.js';
import type { Rule } from '../../src/semantics/model.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { capturedContext, everyRendering, FAST_RETRY, SENTINEL_TOKEN, thrownBy } from './support.js';

const RULES = '/api/v2/botProtection/customRules';
const app: AppConfig = { name: 'default', rulesDir: '/rules', tokenEnv: 'BOTRULES_TOKEN', unmanaged: 'keep' };

function seedRule(name: string, value: string): Rule {
  return {
    name, description: '', status: 'active', actions: ['hardBlock'],
    conditions: { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'userAgent', operator: '$contains', value }] }] },
  };
}

let running: TestEmulator;
let caPem: string;
beforeAll(async () => {
  running = await startTestEmulator({
    apps: [{ name: 'default', token: SENTINEL_TOKEN, rules: [seedRule('First', 'a'), seedRule('Second', 'b'), seedRule('Third', 'c')] }],
  });
  caPem = await readFile(running.emulator.caPath, 'utf8');
});
afterAll(() => running.close());
afterEach(() => running.emulator.clearFaults());

/** A client from the environment, as commands build it, with --verbose lines captured. */
function fromEnvironment(env: Record<string, string> = running.env) {
  const captured = capturedContext(env);
  return { client: rulesClientFor(app, captured.ctx), stderr: captured.stderr };
}

/** A client with millisecond retry delays, for the fault tests. */
function fastClient(lines: string[], limit = 4): RulesApi {
  return createRulesClient({
    baseUrl: running.emulator.consoleUrl, urlVariable: 'BOTRULES_CONSOLE_URL',
    token: SENTINEL_TOKEN, tokenVariable: 'BOTRULES_TOKEN', app: 'default', extraCaPem: caPem,
    retry: { ...FAST_RETRY, limit }, debug: (line) => lines.push(line), notice: (line) => lines.push(line),
  });
}

/** Statuses the emulator answered from the given log position on. */
function statusesSince(start: number): number[] {
  return running.emulator.log.slice(start).map((entry) => entry.status);
}

describe('listRules', () => {
  it('returns the live rules in priority order, normalised', async () => {
    const { client, stderr } = fromEnvironment();
    const rules = await client.listRules();
    expect(rules.map((r) => [r.name, r.priority])).toEqual([['First', 0], ['Second', 1], ['Third', 2]]);
    expect(rules).toEqual(running.emulator.rules());
    expect(stderr()).toMatch(/^GET https:\/\/127\.0\.0\.1:\d+\/api\/v2\/botProtection\/customRules -> 200 in \d+ ms\n$/);
    expect(stderr()).not.toContain(SENTINEL_TOKEN);
  });

  it('answers 400 to a token it does not accept, which says which variable to check', async () => {
    const start = running.emulator.log.length;
    const { client, stderr } = fromEnvironment({ ...running.env, BOTRULES_TOKEN: 'tok-other-123' });
    const error = await thrownBy(() => client.listRules());
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toBe(
      'listing rules of app default failed: the request was refused (400): ' +
        'the request is invalid or the server token is not accepted: check BOTRULES_TOKEN (app default)',
    );
    expect((error as RemoteError).status).toBe(400);
    // 400 is not retried: one request.
    expect(statusesSince(start)).toEqual([400]);
    expect(everyRendering(error, stderr())).not.toContain('tok-other-123');
  });
});

describe('patchRule', () => {
  it('sends only the given fields and returns the rule as the service answered', async () => {
    const [, second] = running.emulator.rules();
    const start = running.emulator.log.length;
    const { client } = fromEnvironment();
    const updated = await client.patchRule(second!.ruleId, { status: 'paused', description: 'Paused for a test' });
    expect(updated).toEqual({ ...second, status: 'paused', description: 'Paused for a test' });
    expect(running.emulator.log.slice(start).map((e) => [e.method, e.path, e.body])).toEqual([
      ['PATCH', `${RULES}/${second!.ruleId}`, { status: 'paused', description: 'Paused for a test' }],
    ]);
  });

  it('moves a rule with priority and reports its new place', async () => {
    const [first] = running.emulator.rules();
    const { client } = fromEnvironment();
    const moved = await client.patchRule(first!.ruleId, { priority: 2 });
    expect(moved.priority).toBe(2);
    expect(running.emulator.rules().map((r) => r.name)).toEqual(['Second', 'Third', 'First']);
  });

  it('says a rule that no longer exists was deleted in the console (404)', async () => {
    const { client } = fromEnvironment();
    const error = await thrownBy(() => client.patchRule('0000-gone', { status: 'paused' }));
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toBe(
      'updating rule 0000-gone of app default failed: rule 0000-gone no longer exists: it was deleted in the console; run plan again',
    );
    expect((error as RemoteError).status).toBe(404);
  });

  it('shows the service\'s reason when it refuses an update (400)', async () => {
    const [rule] = running.emulator.rules();
    const { client } = fromEnvironment();
    const error = await thrownBy(() => client.patchRule(rule!.ruleId, { name: 'Renamed', priority: 99 }));
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toMatch(
      new RegExp(`^updating rule ${rule!.ruleId} of app default failed: the service refused the update \\(400\\): .*priority`),
    );
    expect(running.emulator.rules()[0]?.name).toBe(rule!.name);
  });
});

describe('retries', () => {
  it('wait out transient failures and say so on the debug channel', async () => {
    running.emulator.addFault(`status=503,method=GET,path=${RULES},times=2`);
    const start = running.emulator.log.length;
    const lines: string[] = [];
    const rules = await fastClient(lines).listRules();
    expect(rules).toHaveLength(3);
    expect(statusesSince(start)).toEqual([503, 503, 200]);
    expect(lines.filter((l) => l.startsWith('retrying'))).toEqual([
      expect.stringMatching(/^retrying GET \/api\/v2\/botProtection\/customRules after 503 \(attempt 2 of 5, waiting \d+ms\)$/),
      expect.stringMatching(/^retrying GET \/api\/v2\/botProtection\/customRules after 503 \(attempt 3 of 5, waiting \d+ms\)$/),
    ]);
    expect(lines.at(-1)).toMatch(/-> 200 in \d+ ms \(3 attempts\)$/);
  });

  it('honour Retry-After on 429', async () => {
    running.emulator.addFault(`status=429,retry-after=1,path=${RULES},times=1`);
    const lines: string[] = [];
    const client = createRulesClient({
      baseUrl: running.emulator.consoleUrl, urlVariable: 'BOTRULES_CONSOLE_URL', token: SENTINEL_TOKEN,
      tokenVariable: 'BOTRULES_TOKEN', app: 'default', extraCaPem: caPem,
      retry: { baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 5_000 }, debug: (line) => lines.push(line), notice: (line) => lines.push(line),
    });
    await client.listRules();
    expect(lines[0]).toBe('retrying GET /api/v2/botProtection/customRules after 429 (attempt 2 of 5, waiting 1.0s, as Retry-After asks)');
  });

  it('fail at once on a Retry-After longer than the longest single wait, saying the time the server gave', async () => {
    running.emulator.addFault(`status=429,retry-after=3600,path=${RULES},times=1`);
    const start = running.emulator.log.length;
    const lines: string[] = [];
    const failure = await fastClient(lines).listRules().then(() => undefined, (err: unknown) => err as Error);
    expect(failure?.message).toMatch(
      /^listing rules of app default failed: 127\.0\.0\.1:\d+ answered 429 Too Many Requests \(.*\): the service asks to wait 1 h before trying again \(Retry-After: 3600, until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\), longer than botrules waits for one retry \(1 s\); nothing more was sent: try again after that time$/,
    );
    expect(statusesSince(start)).toEqual([429]);
    expect(lines.filter((l) => l.startsWith('retrying'))).toEqual([]);
  });

  it('survive dropped connections', async () => {
    running.emulator.addFault(`drop,path=${RULES},times=2`);
    const start = running.emulator.log.length;
    const lines: string[] = [];
    expect(await fastClient(lines).listRules()).toHaveLength(3);
    expect(statusesSince(start)).toEqual([0, 0, 200]);
    expect(lines.filter((l) => l.startsWith('retrying'))).toEqual([
      expect.stringMatching(/after ECONNRESET \(socket hang up\) \(attempt 2 of 5/),
      expect.stringMatching(/after ECONNRESET \(socket hang up\) \(attempt 3 of 5/),
    ]);
  });

  it('repeat an update, whose body holds absolute values', async () => {
    const [rule] = running.emulator.rules();
    running.emulator.addFault(`status=502,method=PATCH,path=${RULES},times=1`);
    const start = running.emulator.log.length;
    const updated = await fastClient([]).patchRule(rule!.ruleId, { actions: ['allow'] });
    expect(updated.actions).toEqual(['allow']);
    expect(running.emulator.log.slice(start).map((e) => [e.method, e.status, e.body])).toEqual([
      ['PATCH', 502, { actions: ['allow'] }],
      ['PATCH', 200, { actions: ['allow'] }],
    ]);
  });

  it('stop after the limit with a message naming the operation and the attempts', async () => {
    running.emulator.addFault(`status=500,path=${RULES}`);
    const start = running.emulator.log.length;
    const lines: string[] = [];
    const error = await thrownBy(() => fastClient(lines).listRules());
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toMatch(
      /^listing rules of app default failed after 5 attempts: 127\.0\.0\.1:\d+ answered 500 Internal Server Error \(injected fault: status 500\): .*try again later$/,
    );
    expect(statusesSince(start)).toEqual([500, 500, 500, 500, 500]);
    expect(lines.filter((l) => l.startsWith('retrying'))).toHaveLength(4);
    expect(everyRendering(error, ...lines)).not.toContain(SENTINEL_TOKEN);
  });
});

describe('trust', () => {
  it('refuses the emulator\'s certificate when its CA is not given', async () => {
    const env: Record<string, string> = { ...running.env };
    delete env.NODE_EXTRA_CA_CERTS;
    const start = running.emulator.log.length;
    const { client, stderr } = fromEnvironment(env);
    const error = await thrownBy(() => client.listRules());
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toMatch(/failed: the certificate of 127\.0\.0\.1:\d+ is not trusted \(.+\); if the service uses a private CA, set NODE_EXTRA_CA_CERTS/);
    expect(running.emulator.log.length).toBe(start);
    expect(everyRendering(error, stderr())).not.toContain(SENTINEL_TOKEN);
  });
});
