// `botrules scripts report` and `scripts diff` end to end: the real CLI, the real client, the
// emulator over verified HTTPS. The emulator caps take at 50, so asking for 120 per page
// exercises the cap handling on every run.
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import type { Snapshot } from '../../src/scripts/model.js';
import { CSV_COLUMNS } from '../../src/render/scripts/streamed.js';

const BASE = ['scripts', 'report', '--app-id', 'app-demo', '--tld', 'shop.example.com', '--from', '60d', '--page-size', '120'];
let test: TestEmulator;
let cwd: string;
let expectedKeys: string[];

beforeAll(async () => {
  test = await startTestEmulator({ generateScripts: 260, maxTake: 50, randomSeed: 11 });
  cwd = await mkdtemp(join(tmpdir(), 'botrules-scripts-e2e-'));
  expectedKeys = test.emulator.scripts().map((s) => s.key ?? '').sort();
});
afterAll(async () => {
  await test.close();
  await rm(cwd, { recursive: true, force: true });
});
afterEach(() => {
  test.emulator.clearFaults();
});

function scriptRequests(since: number) {
  return test.emulator.log.slice(since).filter((e) => e.path === '/v1/scripts');
}

describe('scripts report against the emulator', () => {
  it('writes a sorted json snapshot of every record, adapting to the take cap', async () => {
    const before = test.emulator.log.length;
    const result = await runCli([...BASE, '--out', 'snap.json'], { cwd, env: test.env });
    expect(result.stderr).toMatch(/^Wrote 260 scripts to snap\.json\nChain head: sha256:[0-9a-f]{64} /);
    expect(result.code).toBe(0);
    const snapshot = JSON.parse(await readFile(join(cwd, 'snap.json'), 'utf8')) as Snapshot;
    expect(snapshot).toMatchObject({ formatVersion: 1, count: 260, tool: { name: 'botrules' }, query: { appId: ['app-demo'], tld: ['shop.example.com'] } });
    expect(snapshot.warnings).toBeUndefined();
    expect(snapshot.records.map((r) => r.key)).toEqual(expectedKeys);
    expect(snapshot.records[0]).not.toHaveProperty('approved');
    // Every page asked for the same explicit window, the one the snapshot records.
    const requests = scriptRequests(before);
    expect(requests.length).toBe(Math.ceil(260 / 50));
    for (const r of requests) {
      expect(r.query).toMatchObject({ appId: '["app-demo"]', tld: '["shop.example.com"]', from: String(snapshot.query.fromMs), to: String(snapshot.query.toMs) });
    }
    expect(new Set(requests.map((r) => r.query.skip)).size).toBe(requests.length);
  });

  it('streams ndjson with every record once', async () => {
    const result = await runCli([...BASE, '--format', 'ndjson'], { cwd, env: test.env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const keys = result.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { key: string }).key);
    expect(keys.sort()).toEqual(expectedKeys);
  });

  it('streams csv with the fixed header and one row per record', async () => {
    const result = await runCli([...BASE, '--format', 'csv', '--concurrency', '2'], { cwd, env: test.env });
    expect(result.code).toBe(0);
    const rows = result.stdout.split('\r\n').filter((l) => l !== '');
    expect(rows[0]).toBe(CSV_COLUMNS.join(','));
    expect(rows.slice(1).map((r) => r.split(',')[0]).sort()).toEqual(expectedKeys);
  });

  it('marks approvals with scripts-policy.yaml from the working directory and summarises them in markdown', async () => {
    const dir = await mkdtemp(join(cwd, 'policy-'));
    await copyFile('scripts-policy.yaml', join(dir, 'scripts-policy.yaml'));
    const json = await runCli([...BASE, '--out', 'snap.json'], { cwd: dir, env: test.env });
    expect(json.stderr).toMatch(/^Wrote 260 scripts to snap\.json, \d+ not approved\nChain head: sha256:[0-9a-f]{64} .*\n$/);
    const snapshot = JSON.parse(await readFile(join(dir, 'snap.json'), 'utf8')) as Snapshot;
    expect(snapshot.policy).toEqual({ file: 'scripts-policy.yaml' });
    const stripe = snapshot.records.filter((r) => r.vendor === 'Stripe');
    expect(stripe.length).toBeGreaterThan(0);
    for (const r of stripe) expect(r).toMatchObject({ approved: true, approvedBy: 'pattern: https://js.stripe.com/*' });
    expect(snapshot.records.filter((r) => r.vendor === 'Unknown').every((r) => r.approved === false)).toBe(true);

    const md = await runCli([...BASE, '--format', 'markdown'], { cwd: dir, env: test.env });
    expect(md.code).toBe(0);
    expect(md.stdout).toContain('## Risk levels\n\n| Risk level | Scripts |  |\n| --- | ---: | --- |\n');
    expect(md.stdout).toMatch(/## High-risk scripts \(\d+\)/);
    expect(md.stdout).toContain(`## Unapproved scripts (${snapshot.records.filter((r) => !r.approved).length})`);
    expect(md.stdout).toContain('| Stripe |');
  });

  it('shows a progress bar on a terminal only', async () => {
    const tty = await runCli([...BASE, '--format', 'ndjson'], { cwd, env: test.env, tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toMatch(/scripts .* \d+\/\d+ pages/);
  });

  it('names the token variable on 401 and never prints the token', async () => {
    const wrongApi = { ...test.env, BOTRULES_API_TOKEN: 'tok-wrong-SECRET-1' };
    const api = await runCli([...BASE, '--out', 'denied.json'], { cwd, env: wrongApi });
    expect(api.code).toBe(1);
    expect(api.stderr).toContain('check BOTRULES_API_TOKEN');
    const fallback = { ...test.env, BOTRULES_API_TOKEN: '', BOTRULES_TOKEN: 'tok-wrong-SECRET-2' };
    const viaFallback = await runCli(BASE, { cwd, env: fallback });
    expect(viaFallback.stderr).toContain('check BOTRULES_TOKEN (used because BOTRULES_API_TOKEN is not set)');
    for (const output of [api.stdout, api.stderr, viaFallback.stdout, viaFallback.stderr]) {
      expect(output).not.toContain('SECRET');
    }
    expect(await readdir(cwd)).not.toContain('denied.json');
  });

  it('shows the server message of a 422', async () => {
    test.emulator.addFault('status=422,path=/v1/scripts');
    const result = await runCli(BASE, { cwd, env: test.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('injected fault: status 422');
  });

  it('says which page failed after retries, and leaves no partial file', async () => {
    for (const format of ['json', 'ndjson']) {
      // The first page gets through (so a streamed file has begun), every later one fails.
      test.emulator.clearFaults();
      test.emulator.addFault('status=500,retry-after=0,path=/v1/scripts,after=1');
      const result = await runCli([...BASE, '--format', format, '--out', `broken.${format}`], { cwd, env: test.env });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/listing scripts \(skip \d+, take 50\) failed after 5 attempts/);
      expect((await readdir(cwd)).filter((f) => f.includes('broken'))).toEqual([]);
    }
  });
});

describe('scripts diff of two emulator reports', () => {
  it('compares a wide window with a narrow one in every format', async () => {
    const wide = await runCli([...BASE, '--out', 'wide.json'], { cwd, env: test.env });
    const narrow = await runCli([...BASE.filter((a) => a !== '60d' && a !== '--from'), '--from', '2d', '--out', 'narrow.json'], { cwd, env: test.env });
    expect([wide.code, narrow.code]).toEqual([0, 0]);
    const narrowCount = (JSON.parse(await readFile(join(cwd, 'narrow.json'), 'utf8')) as Snapshot).count;
    expect(narrowCount).toBeLessThan(260);

    const text = await runCli(['scripts', 'diff', 'wide.json', 'narrow.json'], { cwd });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`0 added, ${260 - narrowCount} removed, 0 changed, ${narrowCount} unchanged`);
    const json = await runCli(['scripts', 'diff', 'narrow.json', 'wide.json', '--format', 'json', '--fail-on', 'new'], { cwd });
    expect(json.code).toBe(3);
    expect((JSON.parse(json.stdout) as { summary: { added: number } }).summary.added).toBe(260 - narrowCount);
    const md = await runCli(['scripts', 'diff', 'narrow.json', 'wide.json', '--format', 'markdown'], { cwd });
    expect(md.stdout).toContain(`## Added (${260 - narrowCount})`);
  });
});
