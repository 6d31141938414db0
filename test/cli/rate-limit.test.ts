// A rate limit longer than botrules waits (docs/behaviour.md, "Timeouts and retries"): the
// emulator's `--fault status=429,retry-after=3600` makes plan fail at once, after one request,
// with the time the server gave; no retry notice claims a wait the server did not ask for.
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { lettered, tempProject, writeRules, type Project } from '../apply/fixtures.js';

let emu: TestEmulator;
let project: Project;

afterEach(async () => {
  await emu.close();
  await project.close();
});

it('plan fails at once on 429 with Retry-After: 3600, giving the duration and the absolute time', async () => {
  emu = await startTestEmulator({ seedRules: lettered(2), faults: ['status=429,retry-after=3600'] });
  project = await tempProject();
  await writeRules(project.rulesDir, lettered(2));
  const before = Date.now();
  const result = await runCli(['plan'], { env: emu.env, cwd: project.dir });
  expect(result.code).toBe(1);
  expect(emu.emulator.log).toHaveLength(1);
  const lines = result.stderr.split('\n');
  expect(lines).toHaveLength(2);
  const match = /^error: listing rules of app default failed: 127\.0\.0\.1:\d+ answered 429 Too Many Requests \(injected fault: status 429\): the service asks to wait 1 h before trying again \(Retry-After: 3600, until (\S+)\), longer than botrules waits for one retry \(30 s\); nothing more was sent: try again after that time$/.exec(lines[0] ?? '');
  expect(match).not.toBeNull();
  const until = Date.parse(match?.[1] ?? '');
  expect(until).toBeGreaterThanOrEqual(before + 3_600_000 - 1000);
  expect(until).toBeLessThanOrEqual(Date.now() + 3_600_000 + 1000);
  expect(lines[1]).toBe('');
});
