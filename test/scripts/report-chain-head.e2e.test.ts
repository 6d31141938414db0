// `scripts report --format json` prints the head digest of the chain it extends, and under
// GitHub Actions writes it to the step summary and the `chain-head` step output, so the run's
// record holds an anchor outside the artifacts (`scripts verify --anchor`). Real binary.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Snapshot } from '../../src/scripts/model.js';
import { CLI_BINARY } from '../helpers/binary.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/temp.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator({ generateScripts: 12, randomSeed: 7 });
});
afterAll(async () => {
  await emulator.close();
});

test('the head digest goes to stderr, the step summary and the chain-head output', async () => {
  const cwd = tempDir('botrules-chain-head-');
  writeFileSync(path.join(cwd, 'summary.md'), '');
  writeFileSync(path.join(cwd, 'output.txt'), 'earlier=1\n');
  const env = { PATH: process.env.PATH ?? '', ...emulator.env, GITHUB_STEP_SUMMARY: path.join(cwd, 'summary.md'), GITHUB_OUTPUT: path.join(cwd, 'output.txt') };
  const argv = [CLI_BINARY, 'scripts', 'report', '--app-id', 'app-demo', '--tld', 'shop.example.com', '--from', '60d', '--out', 'snap.json'];
  const { stderr } = await promisify(execFile)(process.execPath, argv, { cwd, env });
  const digest = (JSON.parse(readFileSync(path.join(cwd, 'snap.json'), 'utf8')) as Snapshot).chain?.sha256 ?? '';
  expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  expect(stderr).toContain(`Chain head: ${digest} (record it outside the artifacts; scripts verify --anchor checks against it)\n`);
  expect(readFileSync(path.join(cwd, 'output.txt'), 'utf8')).toBe(`earlier=1\nchain-head=${digest}\n`);
  expect(readFileSync(path.join(cwd, 'summary.md'), 'utf8')).toBe(`Script inventory chain head: \`${digest}\` (\`snap.json\`); \`botrules scripts verify --anchor ${digest}\` checks a series against it.\n`);
});

test('other formats print no head: they are not links of the chain', async () => {
  const cwd = tempDir('botrules-chain-head-');
  const argv = [CLI_BINARY, 'scripts', 'report', '--app-id', 'app-demo', '--tld', 'shop.example.com', '--from', '60d', '--format', 'markdown', '--out', 'report.md'];
  const { stderr } = await promisify(execFile)(process.execPath, argv, { cwd, env: { PATH: process.env.PATH ?? '', ...emulator.env } });
  expect(stderr).toBe('Wrote 12 scripts to report.md\n');
});
