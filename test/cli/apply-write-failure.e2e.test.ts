// An apply whose output cannot be written (stdout or stderr on a full disk: /dev/full fails
// every write with ENOSPC), through the real binary (docs/behaviour.md, "Output that cannot be
// written"): the failure ends no process, every PATCH of the plan is sent and verified, the undo
// plan is written (to --undo-out, else to the default file, since nobody saw the report), stderr
// says where it went when it still works, and the exit code is 1, never a quiet success.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { runCli } from '../helpers/cli.js';
import { CLI_BINARY } from '../helpers/binary.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { lettered, patches, tempProject, writeRules, type Project } from '../apply/fixtures.js';
import type { Rule } from '../../src/semantics/model.js';

let emu: TestEmulator;
let project: Project;

beforeEach(async () => {
  emu = await startTestEmulator({ seedRules: lettered(6) });
  project = await tempProject();
  await writeRules(project.rulesDir, lettered(6).map((r): Rule => ({ ...r, description: `new ${r.name}` })));
});

afterEach(async () => {
  await emu.close();
  await project.close();
});

/** The binary with the chosen streams on /dev/full; resolves with its exit code and whatever stream still works. */
function applyOnFullDisk(argv: string[], full: { stdout: boolean; stderr: boolean }): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const devFull = openSync('/dev/full', 'w');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BINARY, ...argv], {
      cwd: project.dir,
      env: { ...emu.env, PATH: process.env.PATH, NO_COLOR: '1' },
      stdio: ['ignore', full.stdout ? devFull : 'pipe', full.stderr ? devFull : 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      closeSync(devFull);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

async function expectUndoRestores(undoFile: string, original: Rule[]): Promise<void> {
  const undone = await runCli(['apply', '--plan', undoFile, '--auto-approve'], { env: emu.env, cwd: project.dir });
  expect(undone.stderr).toBe('');
  expect(undone.code).toBe(0);
  expect(emu.emulator.rules()).toEqual(original);
}

const APPLY = ['apply', '--auto-approve', '--max-changes', '20'];

describe('apply with stdout on a full disk', () => {
  it('applies, writes the --undo-out plan, names it on stderr and exits 1', async () => {
    const original = emu.emulator.rules();
    const result = await applyOnFullDisk([...APPLY, '--undo-out', 'undo.json'], { stdout: true, stderr: false });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(1);
    expect(patches(emu.emulator)).toHaveLength(6);
    expect(emu.emulator.rules().map((r) => r.description)).toEqual(lettered(6).map((r) => `new ${r.name}`));
    expect(result.stderr).toBe(
      'Undo plan written to undo.json (6 PATCH requests); run: botrules apply --plan undo.json\n' +
        'error: could not write to stdout: the disk is full (ENOSPC); what botrules printed there is incomplete\n',
    );
    await expectUndoRestores('undo.json', original);
  });

  it('without --undo-out writes the undo plan to its default file, as after an interrupt', async () => {
    const original = emu.emulator.rules();
    const result = await applyOnFullDisk(APPLY, { stdout: true, stderr: false });
    expect(result.code).toBe(1);
    expect(patches(emu.emulator)).toHaveLength(6);
    const undoFile = (await readdir(project.dir)).find((name) => /^botrules-undo-\d{8}T\d{6}Z\.json$/.test(name));
    expect(undoFile).toBeDefined();
    expect(result.stderr).toContain(`Undo plan of what was applied written to ${undoFile} (6 PATCH requests); run: botrules apply --plan ${undoFile}\n`);
    expect(result.stderr).not.toMatch(/internal error|at .*\.mjs/);
    await expectUndoRestores(undoFile as string, original);
  });
});

it('with stdout and stderr on a full disk, still applies, writes the undo plan and exits 1', async () => {
  const original = emu.emulator.rules();
  const result = await applyOnFullDisk([...APPLY, '--undo-out', 'undo.json'], { stdout: true, stderr: true });
  expect(result.signal).toBeNull();
  expect(result.code).toBe(1);
  expect(patches(emu.emulator)).toHaveLength(6);
  await expectUndoRestores('undo.json', original);
});

it('with stderr alone on a full disk (--verbose writes to it), prints the whole report and exits 1', async () => {
  const result = await applyOnFullDisk([...APPLY, '--undo-out', 'undo.json', '--verbose'], { stdout: false, stderr: true });
  expect(result.code).toBe(1);
  expect(result.stdout).toContain('Apply complete: 6 PATCH requests, 0 failed.\n');
  expect(result.stdout).toContain('Undo plan written to undo.json (6 PATCH requests); run: botrules apply --plan undo.json\n');
});
