// The 64 MiB a snapshot may take counts what is written (indented, escaped UTF-8), not the
// records' compact size: an inventory whose file would pass the cap is refused before a byte is
// written, so `scripts report` never writes a snapshot that `scripts diff`, `verify`, `evidence`
// or `--previous` then refuse. Through the real binary against the emulator.
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import type { ScriptRecord } from '../../src/scripts/model.js';
import { CLI_BINARY } from '../helpers/binary.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/temp.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator({ generateScripts: 1, randomSeed: 3 });
});
afterAll(async () => {
  await emulator.close();
});

test('a snapshot of 74 MiB as written (24 MB of compact records) is refused, and nothing is written', async () => {
  // Each page type is 4 bytes compact ("a",) and 13 written (8 spaces, "a", comma, newline).
  const pageTypes = Array.from({ length: 2000 }, () => 'a');
  const scripts: ScriptRecord[] = Array.from({ length: 3000 }, (_, i) => ({ key: `k${String(i).padStart(5, '0')}`, id: `https://cdn.example/${i}.js`, app_id: 'app-demo', host_domain: 'shop.example.com', page_types: pageTypes }));
  emulator.emulator.replaceScripts(scripts);
  const cwd = tempDir('botrules-size-cap-');
  const argv = [CLI_BINARY, 'scripts', 'report', '--app-id', 'app-demo', '--tld', 'shop.example.com', '--from', '60d', '--page-size', '500', '--out', 'snap.json'];
  const result = await promisify(execFile)(process.execPath, argv, { cwd, env: { PATH: process.env.PATH ?? '', ...emulator.env }, maxBuffer: 1024 * 1024 }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (error: { code?: number; stderr?: string }) => ({ code: error.code ?? -1, stderr: error.stderr ?? '' }),
  );
  expect(result.stderr).toMatch(/^error: the snapshot would be 7\d\.\d MiB as written, more than the 64\.0 MiB scripts diff, verify, evidence and --previous read back\n/);
  expect(result.stderr).toContain('Nothing was written.');
  expect(result.code).toBe(1);
  expect(readdirSync(cwd)).toEqual([]);
});
