// An interrupted apply, through the real binary as a user or a cancelled CI job stops it
// (docs/behaviour.md, "Interrupted applies"): no new PATCH after the signal, the ones in flight
// finish, the report names what was applied and what was not attempted, the undo plan of what
// was applied is written (to --undo-out, else a default file), and the exit code is 129 for
// SIGHUP (a closed terminal or SSH session), 130 for SIGINT, 143 for SIGTERM. Applying that undo plan gives back exactly the rules as they were.
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { runCli } from '../helpers/cli.js';
import { CLI_BINARY } from '../helpers/binary.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { lettered, patches, tempProject, writeRules, type Project } from '../apply/fixtures.js';
import type { Rule } from '../../src/semantics/model.js';

let emu: TestEmulator;
let project: Project;

beforeEach(async () => {
  emu = await startTestEmulator({ seedRules: lettered(20), latencyMs: 120 });
  project = await tempProject();
  await writeRules(project.rulesDir, lettered(20).map((r): Rule => ({ ...r, description: `new ${r.name}` })));
});

afterEach(async () => {
  await emu.close();
  await project.close();
});

interface Stopped {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the binary and sends `signal` once the emulator has answered `after` PATCH requests. */
function interruptedApply(argv: string[], signal: NodeJS.Signals, after: number): Promise<Stopped> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BINARY, ...argv], { cwd: project.dir, env: { ...emu.env, PATH: process.env.PATH, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const poll = setInterval(() => {
      if (patches(emu.emulator).length >= after) {
        clearInterval(poll);
        child.kill(signal);
      }
    }, 5);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      resolve({ code, stdout, stderr });
    });
  });
}

const lines = (text: string): string[] => text.split('\n');

describe.each([
  ['SIGINT', 130, []],
  ['SIGTERM', 143, ['--undo-out', 'undo.json']],
  ['SIGHUP', 129, ['--undo-out', 'undo.json']],
] as const)('%s during apply', (signal, exitCode, undoArgs) => {
  it(`stops sending, reports, writes the undo plan of what was applied, and exits ${exitCode}`, async () => {
    const original = emu.emulator.rules();
    const result = await interruptedApply(['apply', '--auto-approve', '--max-changes', '20', '--concurrency', '1', ...undoArgs], signal, 4);
    const sent = patches(emu.emulator).length;

    expect(result.code).toBe(exitCode);
    // The PATCH in flight when the signal came finished; nothing after it was sent.
    expect(sent).toBeGreaterThanOrEqual(4);
    expect(sent).toBeLessThan(20);
    expect(lines(result.stderr)).toContain(
      `Interrupted (${signal}): no new change is sent; waiting for the requests in flight (interrupt again to stop at once, without the report and the undo plan).`,
    );
    const out = lines(result.stdout);
    expect(out.filter((line) => /^✓ updated "[A-T]" \(description\)$/.test(line))).toHaveLength(sent);
    expect(out.filter((line) => /^- not attempted: updated "[A-T]" \(description\)$/.test(line))).toHaveLength(20 - sent);
    expect(out).toContain(`Apply interrupted (${signal}): ${sent} applied, 0 failed, ${20 - sent} not attempted.`);

    const undoFile = undoArgs.length > 0 ? 'undo.json' : (await readdir(project.dir)).find((name) => /^botrules-undo-\d{8}T\d{6}Z\.json$/.test(name));
    expect(undoFile).toBeDefined();
    const written = undoArgs.length > 0 ? 'Undo plan written to' : 'Undo plan of what was applied written to';
    expect(out).toContain(`${written} ${undoFile} (${sent} PATCH requests); run: botrules apply --plan ${undoFile}`);

    // The undo plan undoes exactly the applied steps.
    const undone = await runCli(['apply', '--plan', undoFile as string, '--auto-approve'], { env: emu.env, cwd: project.dir });
    expect(undone.stderr).toBe('');
    expect(undone.code).toBe(0);
    expect(patches(emu.emulator)).toHaveLength(2 * sent);
    expect(emu.emulator.rules()).toEqual(original);
  });
});

describe('progress on a terminal', () => {
  // At a real terminal: test/cli/apply-terminal.e2e.test.ts.
  it('shows a progress line on stderr, cleared before each step line and at the end', async () => {
    emu.emulator.setLatency(0);
    const result = await runCli(['apply', '--auto-approve', '--max-changes', '20'], { env: { ...emu.env, NO_COLOR: '1' }, cwd: project.dir, tty: true });
    expect(result.code).toBe(0);
    const progress = result.stderr.split('\r\u001b[2K').filter((part) => part !== '');
    expect(progress).toEqual(Array.from({ length: 20 }, (_, i) => `Applying: ${i + 1} of 20 PATCH requests done`));
    expect(result.stderr.endsWith('\r\u001b[2K')).toBe(true);
    expect(result.stdout).not.toContain('\r');
  });
});
