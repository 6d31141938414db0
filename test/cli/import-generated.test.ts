// Every rule the emulator generates must survive the round trip users rely on:
// import writes it as a rule file, validate accepts the file, plan finds nothing to do.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

let server: TestEmulator;
let dir: string;

beforeAll(async () => {
  server = await startTestEmulator({ generateRules: 60, randomSeed: 11 });
  dir = await mkdtemp(path.join(tmpdir(), 'botrules-import-generated-'));
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

test('generated live rules import, validate and plan clean', async () => {
  const rulesDir = path.join(dir, 'rules');
  const imported = await runCli(['import', '--out', rulesDir], { env: server.env, cwd: dir });
  expect(imported.stderr).toBe('');
  expect(imported.code).toBe(0);

  const validated = await runCli(['validate', '--dir', rulesDir], { env: server.env, cwd: dir });
  expect(validated.code).toBe(0);
  // Generated rules overlap at random: the rule-set analysis may warn, and only warn.
  expect(validated.stderr.split('\n').filter((line) => line !== '').filter((line) => !/^rules\/[^:]+:\d+:\d+: (warning|info): /.test(line))).toEqual([]);
  expect(validated.stdout).toContain('60 rules: valid');

  const planned = await runCli(['plan', '--dir', rulesDir, '--detailed-exitcode'], { env: server.env, cwd: dir });
  expect(planned.code).toBe(0);
});
