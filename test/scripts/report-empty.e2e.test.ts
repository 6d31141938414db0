// A scripts report that finds no script says so on stderr, naming what was asked for, through
// the real binary against the emulator: a mistyped app id must not pass as "Wrote 0 scripts".
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { CLI_BINARY } from '../helpers/binary.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/temp.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator({ generateScripts: 30, randomSeed: 5 });
});
afterAll(async () => {
  await emulator.close();
});

/** Runs the binary; execFile rejects on any exit code but 0, so a resolved call proves exit 0. */
async function report(...args: string[]): Promise<{ count: number; stderr: string }> {
  const cwd = tempDir('botrules-report-empty-');
  const argv = [CLI_BINARY, 'scripts', 'report', '--from', '60d', '--out', 'snap.json', ...args];
  const { stderr } = await promisify(execFile)(process.execPath, argv, { cwd, env: { PATH: process.env.PATH ?? '', ...emulator.env } });
  const snapshot = JSON.parse(readFileSync(path.join(cwd, 'snap.json'), 'utf8')) as { count: number };
  return { count: snapshot.count, stderr };
}

test('a mistyped app id warns on stderr, naming the app ids and domains, and exits 0', async () => {
  const { count, stderr } = await report('--app-id', 'app-dmeo,other\u001b[31m', '--tld', 'shop.example.com');
  expect(count).toBe(0);
  expect(stderr).toContain('Wrote 0 scripts to snap.json');
  expect(stderr).toMatch(/^warning: no scripts found for app ids app-dmeo, other\\x1b\[31m and domain shop\.example\.com /m);
  // The ids are printed sanitised: no raw escape character reaches the terminal.
  expect(stderr).not.toContain('\u001b');
});

test('a report that finds scripts does not warn', async () => {
  const { count, stderr } = await report('--app-id', 'app-demo', '--tld', 'shop.example.com');
  expect(count).toBe(30);
  expect(stderr).toMatch(/^Wrote 30 scripts to snap\.json\nChain head: sha256:[0-9a-f]{64} \(record it outside the artifacts; scripts verify --anchor checks against it\)\n$/);
});
