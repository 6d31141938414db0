// The script-inventory query against the emulator over verified HTTPS.
import { readFile } from 'node:fs/promises';
import { createScriptsClient, scriptsClientFor } from '../../src/api/index.js';
import { RemoteError } from '../../src/errors.js';
import type { ScriptQuery } from '../../src/scripts/model.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { capturedContext, everyRendering, FAST_RETRY, SENTINEL_TOKEN, thrownBy } from './support.js';

const API_TOKEN = 'api-SENTINEL-4c3b2a';
const NOW = Date.parse('2025-06-01T12:00:00Z');
const DAY = 24 * 60 * 60 * 1000;

let running: TestEmulator;
beforeAll(async () => {
  running = await startTestEmulator({
    apps: [{ name: 'default', token: SENTINEL_TOKEN }],
    apiToken: API_TOKEN,
    generateScripts: 30,
    scriptAppIds: ['app-1', 'app-2'],
    scriptTlds: ['shop.example.com'],
    now: () => NOW,
  });
});
afterAll(() => running.close());
afterEach(() => running.emulator.clearFaults());

const query = (extra: Partial<ScriptQuery> = {}): ScriptQuery => ({
  appId: ['app-1', 'app-2'], tld: ['shop.example.com'], from: NOW - 365 * DAY, to: NOW, skip: 0, take: 10, ...extra,
});

function fromEnvironment(env: Record<string, string | undefined>) {
  const captured = capturedContext(env);
  return { client: scriptsClientFor(captured.ctx), stderr: captured.stderr };
}

describe('listScripts', () => {
  it('sends lists as JSON-array text and every window field, and returns the page', async () => {
    const start = running.emulator.log.length;
    const { client } = fromEnvironment(running.env);
    const page = await client.listScripts(query({ skip: 10 }));
    expect(running.emulator.log.slice(start).map((e) => [e.path, e.query])).toEqual([[
      '/v1/scripts',
      { appId: '["app-1","app-2"]', tld: '["shop.example.com"]', from: String(NOW - 365 * DAY), to: String(NOW), skip: '10', take: '10' },
    ]]);
    const all = running.emulator.scripts().filter((s) => s.app_id === 'app-1' || s.app_id === 'app-2');
    expect(page.paging.count).toBe(all.length);
    expect(page.data).toHaveLength(Math.min(10, all.length - 10));
    expect(page.paging.current).toContain('skip=10');
    expect(page.data.every((record) => typeof record.key === 'string')).toBe(true);
  });

  it('uses BOTRULES_TOKEN when BOTRULES_API_TOKEN is unset, and says so when it is refused (401)', async () => {
    const { client, stderr } = fromEnvironment({ ...running.env, BOTRULES_API_TOKEN: undefined });
    const error = await thrownBy(() => client.listScripts(query()));
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toBe(
      'listing scripts (skip 0, take 10) failed: the script inventory did not accept the token (401): ' +
        'check BOTRULES_TOKEN (used because BOTRULES_API_TOKEN is not set)',
    );
    expect((error as RemoteError).status).toBe(401);
    expect(everyRendering(error, stderr())).not.toContain(SENTINEL_TOKEN);
  });

  it('names BOTRULES_API_TOKEN when that token is refused', async () => {
    const { client } = fromEnvironment({ ...running.env, BOTRULES_API_TOKEN: 'api-wrong' });
    const error = await thrownBy(() => client.listScripts(query()));
    expect(error.message).toMatch(/did not accept the token \(401\): check BOTRULES_API_TOKEN$/);
  });

  it('shows the service\'s reason for refusing a query (422)', async () => {
    const { client } = fromEnvironment(running.env);
    const error = await thrownBy(() => client.listScripts(query({ appId: [] })));
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toMatch(
      /^listing scripts \(skip 0, take 10\) failed: the script inventory refused the query \(422\): appId must be a JSON array .*: check the app ids and domains$/,
    );
  });

  it('retries a failing inventory, then names the operation and the attempts', async () => {
    running.emulator.addFault('status=500,path=/v1/scripts');
    const start = running.emulator.log.length;
    const lines: string[] = [];
    const client = createScriptsClient({
      baseUrl: running.emulator.gatewayUrl, urlVariable: 'BOTRULES_GATEWAY_URL', token: API_TOKEN,
      tokenVariable: 'BOTRULES_API_TOKEN', extraCaPem: await readFile(running.emulator.caPath, 'utf8'),
      retry: { ...FAST_RETRY, limit: 2 }, debug: (line) => lines.push(line), notice: (line) => lines.push(line),
    });
    const error = await thrownBy(() => client.listScripts(query()));
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toMatch(/^listing scripts \(skip 0, take 10\) failed after 3 attempts: 127\.0\.0\.1:\d+ answered 500 /);
    expect(running.emulator.log.slice(start).map((e) => e.status)).toEqual([500, 500, 500]);
    expect(lines.filter((l) => l.startsWith('retrying GET /v1/scripts?appId='))).toHaveLength(2);
    expect(everyRendering(error, ...lines)).not.toContain(API_TOKEN);
  });
});
