// `botrules emulator` as a process: every interrupt a terminal or a job sends (SIGHUP when the
// terminal or SSH session closes, SIGINT, SIGTERM) stops it cleanly, through the same interrupt
// service as apply and scripts report: the state is saved and it exits 0.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CLI_BINARY } from '../helpers/binary.js';
import { tempDir } from '../helpers/temp.js';

it.each([['SIGHUP'], ['SIGINT'], ['SIGTERM']] as const)('%s stops it, saves the state, exits 0', async (signal) => {
  const dir = tempDir('botrules-emulator-signal-');
  const child = spawn(process.execPath, [CLI_BINARY, 'emulator', '--state', 'state/state.json', '--generate-rules', '2'], {
    cwd: dir, env: { PATH: process.env.PATH, BOTRULES_TOKEN: 'tok-signal-test-token' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, sig) => resolve({ code, signal: sig })));
  for (let waited = 0; !stdout.includes('emulator ready on'); waited += 50) {
    if (waited > 30_000) throw new Error(`the emulator never got ready: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill(signal);
  expect(await ended).toEqual({ code: 0, signal: null });
  expect(stderr).toContain('emulator stopped; state saved to');
  expect(existsSync(path.join(dir, 'state', 'state.json'))).toBe(true);
});
