// The inventory changes while botrules pages through it (scripts appear, a record shows
// up twice): the export keeps every record once and says the count changed. Real CLI,
// real client, the emulator over HTTPS; the inventory is replaced after the first page.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import type { ScriptRecord, Snapshot } from '../../src/scripts/model.js';

let server: TestEmulator;
let cwd: string;

beforeAll(async () => {
  server = await startTestEmulator({ generateScripts: 200, maxTake: 50, randomSeed: 5, latencyMs: 80 });
  cwd = await mkdtemp(join(tmpdir(), 'botrules-scripts-changing-'));
});
afterAll(async () => {
  await server.close();
  await rm(cwd, { recursive: true, force: true });
});

async function firstScriptsRequestAnswered(): Promise<void> {
  while (!server.emulator.log.some((e) => e.path === '/v1/scripts')) await new Promise((r) => setTimeout(r, 5));
}

test('records added mid-export are fetched, duplicates dropped, and the count change reported', async () => {
  const original = server.emulator.scripts();
  const now = new Date().toISOString();
  const added: ScriptRecord[] = Array.from({ length: 12 }, (_, i) => ({
    key: `zz-added-${i}`, id: `https://cdn.example.net/added-${i}.js`, app_id: 'app-demo', host_domain: 'shop.example.com',
    first_seen: now, last_seen: now, vendor: 'Example CDN', risk: { level: 'low' }, page_types: ['home'],
  }));
  const run = runCli(
    ['scripts', 'report', '--app-id', 'app-demo', '--tld', 'shop.example.com', '--from', '60d', '--page-size', '50', '--concurrency', '1', '--out', 'snap.json'],
    { cwd, env: server.env },
  );
  await firstScriptsRequestAnswered();
  // One added record sorts first, so every later page shifts by one: the boundary record repeats.
  server.emulator.replaceScripts([...original, ...added, { ...added[0], key: '000-first' } as ScriptRecord]);
  const result = await run;

  expect(result.code).toBe(0);
  expect(result.stderr).toMatch(/warning: the inventory changed while paging: the server's count went from 200 to 213/);
  expect(result.stderr).toMatch(/warning: \d+ duplicate records? \(same key on more than one page\) dropped/);
  const snapshot = JSON.parse(await readFile(join(cwd, 'snap.json'), 'utf8')) as Snapshot;
  const keys = snapshot.records.map((r) => r.key);
  expect(new Set(keys).size).toBe(keys.length);
  for (const record of original) expect(keys).toContain(record.key);
  for (const record of added) expect(keys).toContain(record.key);
});
