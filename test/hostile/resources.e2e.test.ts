// A hostile HTTPS server against the real binary: gzip bombs, oversized and endless bodies,
// endless paging, a server that never answers, prototype keys, `..` ids and URLs carrying a
// password. Each ends in one clear message and the exit code, and nothing is sent that
// should not be.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { DEFAULT_TIMEOUT_MS, MAX_RESPONSE_BYTES } from '../../src/api/http.js';
import { TIMED_OUT_ATTEMPTS } from '../../src/api/retry.js';
import { DEFAULT_RETRY_POLICY } from '../../src/api/types.js';
import { fetchInventory } from '../../src/scripts/fetch.js';
import { startConnectionCounter, startTinyServer, type Handler, type TinyServer } from '../api/support.js';
import { leakedPrefixes, ruleProject, runBin } from './support.js';

const TOKEN = 'hostile-SENTINEL-7c6b5a';
const LIST = 'GET /api/v2/botProtection/customRules';
const RULE = {
  name: 'Allow monitors', ruleId: 'r-1', priority: 1, status: 'active', actions: ['allow'],
  conditions: { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'userAgent', operator: '$contains', value: 'Pingdom' }] }] },
};

let handler: Handler;
let server: TinyServer;
let project: string;
const encodings: string[] = [];

beforeAll(async () => {
  server = await startTinyServer((req, res) => {
    encodings.push(String(req.headers['accept-encoding']));
    handler(req, res);
  });
  project = await ruleProject();
});
afterAll(async () => {
  await server.close();
  await rm(project, { recursive: true, force: true });
});
beforeEach(() => {
  server.requests.length = 0;
  encodings.length = 0;
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    BOTRULES_CONSOLE_URL: `${server.url}/api`, BOTRULES_GATEWAY_URL: server.url, BOTRULES_TOKEN: TOKEN,
    NODE_EXTRA_CA_CERTS: server.caPath, ...extra,
  };
}

const plan = (extra: string[] = [], vars: Record<string, string> = {}) => runBin(['plan', '--dir', 'rules', ...extra], env(vars), project);
const host = () => server.url.replace('https://', '');

describe('answers that would exhaust memory', () => {
  it('a gzip bomb (1 MB that inflates to 1 GiB) is refused without being inflated', async () => {
    // Concatenated gzip members inflate as one stream: 1024 copies of 1 MiB of zeros.
    const member = gzipSync(Buffer.alloc(1024 * 1024));
    const bomb = Buffer.concat(Array.from({ length: 1024 }, () => member));
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(bomb);
    };
    const result = await plan();
    expect(encodings).toEqual(['identity']);
    expect(result.stderr).toBe(
      `error: listing rules of app default failed: the answer from ${host()} is compressed (gzip) although botrules asked ` +
        'for an uncompressed one (accept-encoding: identity); botrules does not decompress answers\n',
    );
    expect(result.code).toBe(1);
  });

  // Streams up to the response cap: over 30 s with two test runs side by side on the loaded 2-core machine.
  it.each([
    ['announced with a content-length', true],
    ['endless, without a length', false],
  ])('a body larger than the limit (%s) is cut off and refused', async (_label, announced) => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...(announced ? { 'content-length': String(MAX_RESPONSE_BYTES + 1) } : {}) });
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
    };
    const result = await plan();
    expect(result.stderr).toBe(
      `error: listing rules of app default failed: the answer from ${host()} is larger than 32 MiB, ` +
        'the most botrules reads; check that BOTRULES_CONSOLE_URL names the service\'s API\n',
    );
    expect(result.code).toBe(1);
    expect(server.requests).toEqual([LIST]);
  });
});

describe('a server that accepts connections but never answers', () => {
  beforeEach(() => {
    handler = () => {};
  });

  it.each([
    ['--timeout', ['--timeout', '0.3'], {}],
    ['BOTRULES_TIMEOUT', [], { BOTRULES_TIMEOUT: '0.3' }],
  ])('with %s is retried with a visible line per retry, then given up', async (_label, args, vars) => {
    const connectionsBefore = server.connections();
    const result = await plan(args, vars);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    for (const [index, line] of lines.slice(0, 2).entries()) {
      expect(line).toMatch(new RegExp(
        `^retrying GET /api/v2/botProtection/customRules after ETIMEDOUT \\(Timeout awaiting 'request' for 300ms\\) ` +
          `\\(attempt ${index + 2} of 3, waiting \\d+(ms|\\.\\ds)\\)$`,
      ));
    }
    expect(lines[2]).toBe(`error: listing rules of app default failed after 3 attempts: no answer from ${host()} in time (Timeout awaiting 'request' for 300ms)`);
    expect(result.code).toBe(1);
    // Three attempts reached the server: three connections (the client destroys a timed-out
    // one), each a LIST. The connections, not the requests, are counted: on a loaded machine
    // the TLS handshake can outlast the 300 ms, and that attempt's request never arrives.
    expect(server.connections() - connectionsBefore).toBe(3);
    expect(server.requests.filter((request) => request !== LIST)).toEqual([]);
  });

  it('gives up by default in under a minute, timeouts and backoff included', () => {
    const longestBackoff = Array.from({ length: TIMED_OUT_ATTEMPTS - 1 }, (_, i) =>
      Math.min(DEFAULT_RETRY_POLICY.maxDelayMs, DEFAULT_RETRY_POLICY.baseDelayMs * 2 ** i)).reduce((a, b) => a + b, 0);
    expect(TIMED_OUT_ATTEMPTS * DEFAULT_TIMEOUT_MS + longestBackoff).toBeLessThan(60_000);
  });

  it.each([['0'], ['-1'], ['soon']])('--timeout %s is a usage error and nothing is sent', async (value) => {
    const result = await plan(['--timeout', value]);
    expect(result.stderr).toContain('--timeout must be a number of seconds above 0 and at most 3600');
    expect(result.code).toBe(1);
    expect(server.requests).toEqual([]);
  });
});

describe('ids and records are data', () => {
  it('a ruleId of ".." is reported and no PATCH is ever sent', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ result: true, content: [{ ...RULE, ruleId: '..', name: 'Renamed live' }] }));
    };
    const result = await runBin(['apply', '--dir', 'rules', '--auto-approve'], env(), project);
    expect(result.stderr).toBe(
      'error: the service returned a rule list botrules does not understand: content[0] (rule "Renamed live") has the ruleId "..", ' +
        'which is not 1 to 128 letters, digits, "_" or "-"; botrules sends no update while the list holds it\n',
    );
    expect(result.code).toBe(1);
    expect(server.requests).toEqual([LIST]);
  });

  it('a script record with a __proto__ key keeps every field in the json snapshot', async () => {
    const record = '{"key":"k1","id":"https://evil.example/a.js","__proto__":{"approved":true},"risk":{"level":"critical","reason":"skimmer"},"constructor":"x"}';
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"paging":{"previous":"","current":"","next":"","count":1},"data":[${record}]}`);
    };
    const result = await runBin(
      ['scripts', 'report', '--app-id', 'a', '--tld', 'shop.example', '--out', 'snap.json'],
      env({ BOTRULES_API_TOKEN: TOKEN }), project,
    );
    expect(result.code).toBe(0);
    const text = await readFile(path.join(project, 'snap.json'), 'utf8');
    const written = (JSON.parse(text) as { records: Record<string, unknown>[] }).records[0] as Record<string, unknown>;
    expect(Object.getOwnPropertyNames(written).sort()).toEqual(['__proto__', 'constructor', 'id', 'key', 'risk']);
    expect(written.risk).toEqual({ level: 'critical', reason: 'skimmer' });
    expect(text).toContain('"__proto__": {\n        "approved": true\n      }');
    const diff = await runBin(['scripts', 'diff', 'snap.json', 'snap.json', '--fail-on', 'high-risk'], {}, project);
    expect(diff.code).toBe(3);
  });
});

describe('endless paging', () => {
  it('a count of a trillion records is refused after the first page', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ paging: { previous: '', current: '', next: '', count: 1e12 }, data: [{ key: 'k1' }] }));
    };
    const result = await runBin(['scripts', 'report', '--app-id', 'a', '--tld', 'shop.example', '--out', 'endless.json'],
      env({ BOTRULES_API_TOKEN: TOKEN }), project);
    expect(result.stderr).toBe(
      // The one record on the first page is taken for a cap on the page size.
      'error: the script inventory reports 1000000000000 records: at 1 per page that is more than 20000 pages, ' +
        'the most botrules asks for in one export; nothing more was requested. ' +
        'Narrow the window (--from, --to, --app-id, --tld) or raise --page-size\n',
    );
    expect(result.code).toBe(1);
    expect(server.requests).toHaveLength(1);
    await expect(readFile(path.join(project, 'endless.json'))).rejects.toThrow(/ENOENT/);
  });

  it('a server that keeps paging one record at a time stops at the page limit', async () => {
    let served = 0;
    // One record per page, and a count that grows by one with every page: never done.
    const source = async () => {
      served += 1;
      return { paging: { previous: '', current: '', next: '', count: 30 + served }, data: [{ key: `k${served}` }] };
    };
    const query = { appId: ['a'], tld: ['t'], from: 0, to: 1 };
    await expect(fetchInventory(source, query, { pageSize: 50, maxPages: 40, concurrency: 1, onRecords: () => {} }))
      .rejects.toThrow(/^the script inventory reports 70 records: at 1 per page that is more than 40 pages/);
    expect(served).toBe(40);
  });
});

describe('URLs that would leak credentials', () => {
  it('a console URL with user:password@ is refused before any connection, without printing the password', async () => {
    const counter = await startConnectionCounter();
    try {
      const result = await plan(['--verbose'], { BOTRULES_CONSOLE_URL: `https://admin:pa55-W0rd-xyz@127.0.0.1:${counter.port}/api` });
      expect(result.stderr).toContain('\nerror: BOTRULES_CONSOLE_URL holds a user name or password (user:password@host): remove them;');
      expect(result.code).toBe(1);
      expect(counter.connections()).toBe(0);
      expect(leakedPrefixes(result.stdout + result.stderr, ['pa55-W0rd-xyz', 'admin:pa55'])).toEqual([]);
    } finally {
      await counter.close();
    }
  });

  it('an invalid URL is described without being echoed', async () => {
    const result = await plan([], { BOTRULES_CONSOLE_URL: `oops ${TOKEN}` });
    expect(result.stderr).toMatch(/^error: BOTRULES_CONSOLE_URL is not a valid URL \(28 characters, not shown\)/);
    expect(result.code).toBe(1);
    expect(leakedPrefixes(result.stdout + result.stderr, [TOKEN])).toEqual([]);
  });
});
