// What the client does with answers the emulator never gives: redirects, certificates it
// must not trust, bodies it cannot read. Each case runs against a small real HTTPS server.
import { readFile } from 'node:fs/promises';
import { createRulesClient, createScriptsClient, type RulesClientOptions } from '../../src/api/index.js';
import { RemoteError } from '../../src/errors.js';
import { VERSION } from '../../src/version.js';
import {
  everyRendering, FAST_RETRY, json, SENTINEL_TOKEN, startConnectionCounter, startTinyServer, thrownBy,
  type Handler, type TinyServer,
} from './support.js';

const servers: TinyServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function serve(handler: Handler, certificateHost?: string): Promise<TinyServer> {
  const server = await startTinyServer(handler, certificateHost);
  servers.push(server);
  return server;
}

async function rulesClient(server: TinyServer, trust = true, debug?: (line: string) => void) {
  const options: RulesClientOptions = {
    baseUrl: `${server.url}/api`,
    urlVariable: 'BOTRULES_CONSOLE_URL',
    token: SENTINEL_TOKEN,
    tokenVariable: 'BOTRULES_TOKEN',
    app: 'default',
    retry: FAST_RETRY,
    ...(trust ? { extraCaPem: await readFile(server.caPath, 'utf8') } : {}),
    ...(debug ? { debug } : {}),
  };
  return createRulesClient(options);
}

const rule = { name: 'R', ruleId: 'r-1', status: 'active', actions: ['allow'], conditions: { operator: '$or', children: [] } };

describe('requests', () => {
  it('carry the token, the content type and the user agent, on the documented path', async () => {
    let headers: Record<string, unknown> = {};
    const server = await serve((req, res) => {
      headers = req.headers;
      json(200, { result: true, content: [rule] })(req, res);
    });
    const rules = await (await rulesClient(server)).listRules();
    expect(rules.map((r) => r.ruleId)).toEqual(['r-1']);
    expect(server.requests).toEqual(['GET /api/v2/botProtection/customRules']);
    expect(headers).toMatchObject({
      authorization: `Bearer ${SENTINEL_TOKEN}`,
      'content-type': 'application/json',
      'user-agent': `botrules/${VERSION}`,
    });
  });
});

describe('redirects', () => {
  it('are refused, naming the other host, and never followed', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(302, { location: 'https://collector.example.net/steal' });
      res.end();
    });
    const lines: string[] = [];
    const error = await thrownBy(async () => (await rulesClient(server, true, (l) => lines.push(l))).listRules());
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toContain('the service answered 302 redirecting to collector.example.net');
    expect(error.message).toContain('botrules does not follow redirects');
    expect(error.message).toContain('check BOTRULES_CONSOLE_URL');
    expect(server.requests).toHaveLength(1);
    expect(everyRendering(error, ...lines)).not.toContain(SENTINEL_TOKEN);
  });
});

describe('certificates', () => {
  it('from an unknown CA are refused, pointing at NODE_EXTRA_CA_CERTS', async () => {
    const server = await serve(json(200, { content: [] }));
    const error = await thrownBy(async () => (await rulesClient(server, false)).listRules());
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toMatch(/the certificate of 127\.0\.0\.1:\d+ is not trusted \([A-Z_]+\)/);
    expect(error.message).toContain('set NODE_EXTRA_CA_CERTS to the path of its PEM file');
    expect(server.requests).toEqual([]);
    expect(everyRendering(error)).not.toContain(SENTINEL_TOKEN);
  });

  it('trusted through NODE_EXTRA_CA_CERTS serve every request of a client over one kept-alive connection', async () => {
    const ports = new Set<number>();
    const server = await serve((req, res) => {
      ports.add(req.socket.remotePort ?? 0);
      json(200, { paging: { count: 3 }, data: [{ key: 'k' }] })(req, res);
    });
    const client = createScriptsClient({
      baseUrl: server.url, urlVariable: 'BOTRULES_GATEWAY_URL', token: SENTINEL_TOKEN, tokenVariable: 'BOTRULES_API_TOKEN',
      extraCaPem: await readFile(server.caPath, 'utf8'), retry: FAST_RETRY,
    });
    for (const skip of [0, 1, 2]) {
      const page = await client.listScripts({ appId: ['a'], tld: ['t'], from: 1, to: 2, skip, take: 1 });
      expect(page.data).toEqual([{ key: 'k' }]);
    }
    expect(server.requests).toHaveLength(3);
    expect(ports.size).toBe(1);
  });

  it('issued for another name are refused even when the CA is trusted', async () => {
    const server = await serve(json(200, { content: [] }), 'console.example.com');
    const error = await thrownBy(async () => (await rulesClient(server)).listRules());
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toMatch(/the certificate of 127\.0\.0\.1:\d+ does not name that host/);
    expect(server.requests).toEqual([]);
  });
});

describe('answers botrules cannot read', () => {
  it('a rule list of the wrong shape is a RemoteError naming the place', async () => {
    const server = await serve(json(200, { content: [rule, { ...rule, ruleId: 'r-2', status: 'disabled' }] }));
    const error = await thrownBy(async () => (await rulesClient(server)).listRules());
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toBe(
      'the service returned a rule list botrules does not understand: ' +
        'content[1].status (rule "R") is not one of active, paused (it is "disabled")',
    );
  });

  it('a leaf without an operator is a RemoteError naming the place', async () => {
    const broken = { ...rule, conditions: { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'path', value: '/' }] }] } };
    const server = await serve(json(200, { content: [broken] }));
    const error = await thrownBy(async () => (await rulesClient(server)).listRules());
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toBe(
      'the service returned a rule list botrules does not understand: ' +
        'content[0].conditions.children[0].children[0] (rule "R") has no operator',
    );
  });

  it('an HTML page is a RemoteError suggesting the base URL is wrong', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Welcome</body></html>');
    });
    const error = await thrownBy(async () => (await rulesClient(server)).listRules());
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toMatch(/the answer from 127\.0\.0\.1:\d+ is not JSON \(text\/html\); check that BOTRULES_CONSOLE_URL is the API base address/);
  });

  it('an update answer without the rule says the update went through', async () => {
    const server = await serve(json(200, { result: true }));
    const error = await thrownBy(async () => (await rulesClient(server)).patchRule('r-1', { status: 'paused' }));
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toBe('the service accepted the update of rule r-1 but did not return the rule: run plan to see the result');
  });

  it('a script page without a count is a RemoteError', async () => {
    const server = await serve(json(200, { paging: { next: '' }, data: [] }));
    const client = createScriptsClient({
      baseUrl: server.url, urlVariable: 'BOTRULES_GATEWAY_URL', token: SENTINEL_TOKEN, tokenVariable: 'BOTRULES_API_TOKEN',
      extraCaPem: await readFile(server.caPath, 'utf8'), retry: FAST_RETRY,
    });
    const error = await thrownBy(() => client.listScripts({ appId: ['a'], tld: ['t'], from: 1, to: 2, skip: 0, take: 5 }));
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toBe('the service returned a script page botrules does not understand: paging.count is not a whole number');
  });
});

describe('connection failures', () => {
  it('a refused connection is retried, then named with the host and the variable to check', async () => {
    const counter = await startConnectionCounter();
    await counter.close();
    const lines: string[] = [];
    const client = createRulesClient({
      baseUrl: `https://127.0.0.1:${counter.port}/api`, urlVariable: 'BOTRULES_CONSOLE_URL',
      token: SENTINEL_TOKEN, tokenVariable: 'BOTRULES_TOKEN', app: 'default',
      retry: { ...FAST_RETRY, limit: 2 }, debug: (line) => lines.push(line), notice: (line) => lines.push(line),
    });
    const error = await thrownBy(() => client.listRules());
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toBe(
      `listing rules of app default failed after 3 attempts: nothing accepts connections at 127.0.0.1:${counter.port} ` +
        '(ECONNREFUSED): check BOTRULES_CONSOLE_URL and that the service is up',
    );
    expect(lines.filter((l) => l.startsWith('retrying GET /api/v2/botProtection/customRules after ECONNREFUSED'))).toHaveLength(2);
    expect(everyRendering(error, ...lines)).not.toContain(SENTINEL_TOKEN);
  });

  it('an answer that never comes times out on every attempt', async () => {
    const server = await serve(() => { /* never answers */ });
    const client = createRulesClient({
      baseUrl: `${server.url}/api`, urlVariable: 'BOTRULES_CONSOLE_URL', token: SENTINEL_TOKEN, tokenVariable: 'BOTRULES_TOKEN',
      app: 'default', extraCaPem: await readFile(server.caPath, 'utf8'), retry: { ...FAST_RETRY, limit: 1 }, timeoutMs: 100,
    });
    const error = await thrownBy(() => client.listRules());
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toMatch(/^listing rules of app default failed after 2 attempts: no answer from 127\.0\.0\.1:\d+ in time/);
    expect(server.requests).toHaveLength(2);
  });
});
