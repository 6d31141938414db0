// `botrules emulator` end to end, in-process through the real CLI: it prints the exports
// and the ready line, serves over HTTPS, and on SIGTERM saves its state and exits 0.
// Signals are delivered with process.emit, which reaches only the command's listeners.
import { once } from 'node:events';
import { mkdtemp, readFile, rm, access, stat, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { RULES, SCRIPTS, request } from './https-request.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'botrules-emulator-cli-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** What the tests need of a running CLI emulator to talk to it with the https helper. */
function target(port: number): RunningEmulator {
  return { url: `https://127.0.0.1:${port}`, caPath: path.join(dir, 'state', 'emulator-ca.pem') } as RunningEmulator;
}

/** Waits until the emulator answers (the CA file exists and a request gets any HTTP status). */
async function waitUntilServing(emulator: RunningEmulator): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      await access(emulator.caPath);
      await request(emulator, RULES);
      return;
    } catch {
      await sleep(25);
    }
  }
  throw new Error('the emulator command never started serving');
}

async function runUntilStopped(args: string[], env: Record<string, string>, whileRunning: (e: RunningEmulator) => Promise<void>): Promise<CliResult> {
  const port = await freePort();
  const result = runCli(['emulator', '--port', String(port), '--state', 'state/state.json', ...args], { env, cwd: dir });
  const emulator = target(port);
  try {
    await waitUntilServing(emulator);
    await whileRunning(emulator);
  } finally {
    process.emit('SIGTERM');
  }
  return result;
}

test('serves with the environment tokens, prints the exports but never a given token, stops cleanly', async () => {
  const env = { BOTRULES_TOKEN: 'tok-cli-app-SECRET', BOTRULES_API_TOKEN: 'tok-cli-api-SECRET' };
  let ruleId = '';
  const result = await runUntilStopped(['--generate-rules', '3', '--generate-scripts', '4', '--log', 'requests.log'], env, async (emulator) => {
    const list = await request(emulator, RULES, { token: env.BOTRULES_TOKEN });
    const content = (list.body as { content: { ruleId: string }[] }).content;
    expect(content).toHaveLength(3);
    ruleId = content[2]?.ruleId as string;
    expect((await request(emulator, `${RULES}/${ruleId}`, { method: 'PATCH', token: env.BOTRULES_TOKEN, body: { priority: 0 } })).status).toBe(200);
    const scripts = await request(emulator, SCRIPTS, { token: env.BOTRULES_API_TOKEN, query: { appId: '["app-demo"]', tld: '["shop.example.com"]', from: 0 } });
    expect((scripts.body as { paging: { count: number } }).paging.count).toBe(4);
  });
  expect(result.stderr).toContain('emulator stopped; state saved to');
  expect(result.code).toBe(0);
  const port = /127\.0\.0\.1:(\d+)/.exec(result.stdout)?.[1];
  expect(result.stdout).toBe(
    [
      `export BOTRULES_CONSOLE_URL=https://127.0.0.1:${port}/api`,
      `export BOTRULES_GATEWAY_URL=https://127.0.0.1:${port}`,
      `export NODE_EXTRA_CA_CERTS=${path.join(dir, 'state', 'emulator-ca.pem')}`,
      `emulator ready on https://127.0.0.1:${port}`,
      '',
    ].join('\n'),
  );
  const state = JSON.parse(await readFile(path.join(dir, 'state', 'state.json'), 'utf8')) as { apps: { default: { rules: { ruleId: string }[] } } };
  expect(state.apps.default.rules[0]?.ruleId).toBe(ruleId);
  const everything = result.stdout + result.stderr + JSON.stringify(state) + (await readFile(path.join(dir, 'requests.log'), 'utf8'));
  expect(everything).not.toContain('SECRET');
});

test('the start-up summary says what the rule API serves beside list and PATCH (--capabilities)', async () => {
  const env = { BOTRULES_TOKEN: 'tok-cli-app' };
  const plain = await runUntilStopped(['--generate-rules', '2'], env, async () => {});
  const summary = (result: CliResult): string | undefined => result.stderr.split('\n').find((line) => line.startsWith('botrules emulator: '));
  expect(summary(plain)).toBe(
    `botrules emulator: default: 2 rules; 0 scripts; capabilities: none (list and PATCH; POST and DELETE answer 405 without --capabilities create,delete); state ${path.join(dir, 'state', 'state.json')}`,
  );
  const both = await runUntilStopped(['--capabilities', 'delete,create'], env, async (emulator) => {
    const created = await request(emulator, RULES, { method: 'POST', token: env.BOTRULES_TOKEN, body: { name: 'N', description: '', status: 'paused', actions: ['allow'], conditions: { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'userAgent', operator: '$contains', value: 'bot' }] }] }, priority: 0 } });
    expect(created.status).toBeLessThan(300);
  });
  expect(summary(both)).toBe(`botrules emulator: default: 2 rules; 0 scripts; capabilities: create, delete; state ${path.join(dir, 'state', 'state.json')}`);
});

test('prints the tokens it generated, and they work', async () => {
  let printed = '';
  const result = await runUntilStopped([], {}, async (emulator) => {
    // The tokens are only known from the output, which runCli returns at the end: use the state file.
    const state = JSON.parse(await readFile(path.join(dir, 'state', 'state.json'), 'utf8')) as { apps: { default: { token: string } }; apiToken: string };
    printed = state.apps.default.token;
    expect((await request(emulator, RULES, { token: printed })).status).toBe(200);
    expect((await request(emulator, SCRIPTS, { token: state.apiToken, query: { appId: '["a"]', tld: '["b"]' } })).status).toBe(200);
  });
  expect(result.code).toBe(0);
  expect(result.stdout).toContain(`export BOTRULES_TOKEN=${printed}\n`);
  expect(result.stdout).toMatch(/^export BOTRULES_API_TOKEN=emu_[\w-]+$/m);
});

test.each<[string[], RegExp]>([
  [['--fault', 'status=99'], /invalid fault "status=99"/],
  [['--app-token', 'no-equals-sign'], /--app-token takes NAME=TOKEN/],
  [['--move-semantics', 'shuffle'], /^error: --move-semantics must be one of "list-move", "swap", not "shuffle"$/m],
  [['--latency', '-5'], /--latency must be a whole number/],
])('%p fails with a clear message and exit 1', async (args, message) => {
  const result = await runCli(['emulator', '--state', 'state/state.json', ...args], { cwd: dir });
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(message);
});

test('--exports-file holds the exports once it serves, readable by its owner only, and is gone after it stops', async () => {
  const file = path.join(dir, 'emulator.env');
  let mode = 0;
  let text = '';
  const result = await runUntilStopped(['--exports-file', 'emulator.env'], {}, async () => {
    for (let attempt = 0; attempt < 200 && text === ''; attempt++) {
      text = await readFile(file, 'utf8').catch(() => '');
      if (text === '') await sleep(25);
    }
    mode = (await stat(file)).mode & 0o777;
  });
  expect(result.code).toBe(0);
  expect(mode).toBe(0o600);
  expect(text).toMatch(/^export BOTRULES_TOKEN=\S+$/m);
  await expect(access(file)).rejects.toThrow();
});

test('--app-token-file serves each app with its token, keeps the tokens off the command line and out of every output', async () => {
  await writeFile(path.join(dir, 'tokens'), '# apps of the demo\nshop=tok-file-shop-SECRET\n\nstaging=tok-file-staging-SECRET\n', { mode: 0o600 });
  const result = await runUntilStopped(['--app-token-file', 'tokens'], {}, async (emulator) => {
    expect((await request(emulator, RULES, { token: 'tok-file-shop-SECRET' })).status).toBe(200);
    expect((await request(emulator, RULES, { token: 'tok-file-staging-SECRET' })).status).toBe(200);
    expect((await request(emulator, RULES, { token: 'tok-other' })).status).not.toBe(200);
  });
  expect(result.code).toBe(0);
  expect(result.stdout + result.stderr + (await readFile(path.join(dir, 'state', 'state.json'), 'utf8'))).not.toContain('SECRET');
  expect(result.stderr).not.toContain('warning');
});

test('--app-token on the command line still works, with a warning that names no token', async () => {
  const result = await runUntilStopped(['--app-token', 'shop=tok-flag-shop-SECRET'], {}, async (emulator) => {
    expect((await request(emulator, RULES, { token: 'tok-flag-shop-SECRET' })).status).toBe(200);
  });
  expect(result.code).toBe(0);
  expect(result.stderr.split('\n')).toContain('warning: --app-token puts the token on the command line, where other users of this machine can read it; use --app-token-file FILE (NAME=TOKEN lines) or BOTRULES_TOKEN');
  expect(result.stdout + result.stderr).not.toContain('SECRET');
});

test.each([
  ['a line without NAME=', 'shop=tok-a-SECRET\nnot-a-pair-SECRET\n', '--app-token-file tokens: each line takes NAME=TOKEN'],
  ['an app twice', 'shop=tok-a-SECRET\nshop=tok-b-SECRET\n', '--app-token-file tokens: it names the app "shop" twice'],
  ['no app', '# nothing\n', '--app-token-file tokens: it names no app (each line takes NAME=TOKEN)'],
])('--app-token-file with %s fails before serving, naming no token', async (_what, text, message) => {
  await writeFile(path.join(dir, 'tokens'), text);
  const result = await runCli(['emulator', '--state', 'state/state.json', '--app-token-file', 'tokens'], { cwd: dir });
  expect(result.code).toBe(1);
  expect(result.stderr).toBe(`error: ${message}\n`);
});
