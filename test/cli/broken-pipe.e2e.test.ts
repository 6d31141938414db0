// A reader that closes the pipe early (`botrules plan | head -1`) ends the command quietly with
// the exit code it would have had, through the real binary.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { rule, tempProject, writeRules, type Project } from '../apply/fixtures.js';

const BIN = path.resolve('bin/botrules.js');
let emu: TestEmulator;
let project: Project;

beforeAll(async () => {
  const seeded = Array.from({ length: 400 }, (_, i) => rule(`Rule ${i}`));
  emu = await startTestEmulator({ seedRules: seeded });
  project = await tempProject();
  await writeRules(project.rulesDir, seeded.map((r) => ({ ...r, description: 'changed so the plan is long' })));
});

afterAll(async () => {
  await emu.close();
  await project.close();
});

/** Runs the CLI, reads the first chunk of its stdout, then closes the pipe. */
function firstChunkOnly(args: string[]): Promise<{ code: number | null; first: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: project.dir, env: { ...emu.env, PATH: process.env.PATH } });
    let first = '';
    let stderr = '';
    child.stdout.once('data', (chunk: Buffer) => {
      first = chunk.toString('utf8');
      child.stdout.destroy();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, first, stderr }));
  });
}

describe('a pipe closed early', () => {
  it('plan --detailed-exitcode still exits 2, with no stack trace', async () => {
    const result = await firstChunkOnly(['plan', '--detailed-exitcode']);
    expect(result.first).toMatch(/^Plan: 400 PATCH requests: 400 to update, 89 to move \(89 do both\); 390 rules change position;/);
    // Only the plan's own warning (400 of 400 rules change): no EPIPE, no stack, no "internal error".
    expect(result.stderr).toMatch(/^warning: plan for app default changes 400 of its 400 live rules[^\n]*\n$/);
    expect(result.code).toBe(2);
  });

  it('plan --format json ends quietly with exit 0', async () => {
    const result = await firstChunkOnly(['plan', '--format', 'json']);
    expect(result.stderr).not.toMatch(/EPIPE|internal error|\n\s+at /);
    expect(result.code).toBe(0);
  });
});
