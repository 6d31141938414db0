// apply at a real terminal (a pseudo-terminal from util-linux `script`), through the real
// binary against the emulator, as docs/behaviour.md ("Interrupted applies", "Progress")
// describes it: the progress line is redrawn in place and cut to the terminal's width, a retry
// notice and the interrupt's line print on lines of their own above it, Ctrl-C typed at the
// terminal stops the apply with its report and undo plan and exit 130, and on every way out
// (done, interrupted, failed, interrupted at the prompt) nothing of the progress line is left
// on the screen and line wrapping is on.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { hasScript, runInTerminal, screenLines, type TerminalRun } from '../helpers/terminal.js';
import { lettered, patches, tempProject, writeConfig, writeRules, type Project } from '../apply/fixtures.js';
import type { Rule } from '../../src/semantics/model.js';

let emu: TestEmulator;
let project: Project;

beforeAll(async () => {
  // util-linux is part of every Debian and Ubuntu system, CI's included: without it this
  // suite cannot say anything, so it fails rather than skips.
  expect(await hasScript()).toBe(true);
});

beforeEach(async () => {
  emu = await startTestEmulator({ seedRules: lettered(20) });
  project = await tempProject();
  await writeRules(project.rulesDir, lettered(20).map((r): Rule => ({ ...r, description: `new ${r.name}` })));
});

afterEach(async () => {
  await emu.close();
  await project.close();
});

const env = (): Record<string, string> => ({ ...emu.env, PATH: process.env.PATH ?? '', HOME: project.dir, TERM: 'xterm', NO_COLOR: '1' });
const APPLY = ['apply', '--auto-approve', '--max-changes', '20', '--concurrency', '1'];
const step = /^✓ updated "[A-T]" \(description\)$/;
const notAttempted = /^- not attempted: updated "[A-T]" \(description\)$/;

/** What the terminal drew as the progress line, each time it drew it. */
function progressDraws(run: TerminalRun): string[] {
  return run.output
    .split('\r\u001b[2K')
    .filter((part) => part.startsWith('Applying: '))
    .map((part) => part.split(/[\r\n]/)[0] as string);
}

function expectNothingLeftOfTheProgressLine(run: TerminalRun, lines: readonly string[]): void {
  expect(lines.filter((line) => line.includes('Applying:'))).toEqual([]);
  expect(run.output).not.toContain('\u001b[?7l');
}

describe('apply at a terminal', () => {
  it('Ctrl-C mid-apply: the progress line and the retry notice compose, the report and undo plan follow, exit 130', async () => {
    emu.emulator.setLatency(150);
    // One PATCH answered 503 once the progress line is up: a retry notice mid-apply.
    emu.emulator.addFault('status=503,retry-after=1,method=PATCH,after=4,times=1');
    let typed = false;
    const run = await runInTerminal([...APPLY, '--undo-out', 'undo.json'], {
      cwd: project.dir, env: env(), columns: 60, rows: 50,
      onOutput: (_output, type) => {
        // Ctrl-C typed at the terminal once 10 PATCH requests were answered (the 503 included).
        if (!typed && patches(emu.emulator).length >= 10) {
          typed = true;
          type('\u0003');
        }
      },
    });
    const applied = patches(emu.emulator).filter((entry) => entry.status === 200).length;
    // The terminal echoes `^C` wherever its cursor is at that moment (the command cannot choose
    // where: on the progress line it is erased with it, else it stays before the next line),
    // so it is left out of the lines compared.
    expect(run.output.match(/\^C/g)).toHaveLength(1);
    const typedScreen = screenLines(run.output, 60);
    const screen = { ...typedScreen, lines: typedScreen.lines.map((line) => line.replace('^C', '')) };

    expect(run.code).toBe(130);
    expect(typed).toBe(true);
    expect(applied).toBeGreaterThanOrEqual(9);
    expect(applied).toBeLessThan(20);
    // Redrawn in place as each step completes (and again after each notice), never cut at 60 columns.
    const draws = progressDraws(run);
    expect(draws[0]).toBe('Applying: 1 of 20 PATCH requests done');
    expect(draws.at(-1)).toBe(`Applying: ${applied} of 20 PATCH requests done`);
    // The notices, each a whole line of its own between step lines (longer than the terminal: it wraps them).
    const retry = screen.lines.findIndex((line) => line.startsWith('retrying PATCH '));
    expect(screen.lines[retry]).toMatch(/^retrying PATCH \/\S+ after 503 \(attempt 2 of \d, waiting 1\.0s, as Retry-After asks\)$/);
    expect(screen.lines[retry - 1]).toMatch(step);
    expect(screen.lines[retry + 1]).toMatch(step);
    const interrupted = screen.lines.indexOf(
      'Interrupted (SIGINT): no new change is sent; waiting for the requests in flight (interrupt again to stop at once, without the report and the undo plan).',
    );
    expect(interrupted).toBeGreaterThan(retry);
    expect(screen.lines[interrupted - 1]).toMatch(step);
    // Then the report: each step's line, those not attempted, the undo plan, the verdict.
    expect(screen.lines.filter((line) => step.test(line))).toHaveLength(applied);
    expect(screen.lines.filter((line) => notAttempted.test(line))).toHaveLength(20 - applied);
    expect(screen.lines.slice(-2)).toEqual([
      `Undo plan written to undo.json (${applied} PATCH requests); run: botrules apply --plan undo.json`,
      `Apply interrupted (SIGINT): ${applied} applied, 0 failed, ${20 - applied} not attempted.`,
    ]);
    expectNothingLeftOfTheProgressLine(run, screen.lines);
    expect(screen.wraps).toBe(true);

    // The undo plan undoes exactly what was applied.
    const undone = await runCli(['apply', '--plan', 'undo.json', '--auto-approve'], { env: emu.env, cwd: project.dir });
    expect(undone.code).toBe(0);
    expect(emu.emulator.rules().map((rule) => rule.description ?? null)).toEqual(lettered(20).map((rule) => rule.description ?? null));
  });

  it('a finished apply in a narrow terminal: the progress line is cut to the width and gone at the end', async () => {
    const run = await runInTerminal(APPLY, { cwd: project.dir, env: env(), columns: 30, rows: 50 });
    const screen = screenLines(run.output, 30);

    expect(run.code).toBe(0);
    // 29 columns: one is kept free, so the line never wraps.
    expect(progressDraws(run)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Applying: ${i + 1} of 20 PATCH requests done`.slice(0, 28).concat('…')),
    );
    expect(screen.lines.filter((line) => step.test(line))).toHaveLength(20);
    expect(screen.lines.at(-1)).toBe('Apply complete: 20 PATCH requests, 0 failed.');
    expectNothingLeftOfTheProgressLine(run, screen.lines);
    expect(screen.wraps).toBe(true);
  });

  it('a plan with POST requests counts "requests", not "PATCH requests", in the progress line', async () => {
    await emu.close();
    emu = await startTestEmulator({ seedRules: [], capabilities: ['create'] });
    await writeConfig(project.dir, { service: { create: true }, apps: [{ name: 'default', rulesDir: 'rules' }] });
    const run = await runInTerminal(APPLY, { cwd: project.dir, env: env(), columns: 200, rows: 60 });
    const screen = screenLines(run.output, 200);

    expect(run.code).toBe(0);
    expect(progressDraws(run)).toEqual(Array.from({ length: 20 }, (_, i) => `Applying: ${i + 1} of 20 requests done`));
    expect(screen.lines.at(-1)).toBe('Apply complete: 20 requests, 0 failed.');
    expect(emu.emulator.rules()).toHaveLength(20);
    expectNothingLeftOfTheProgressLine(run, screen.lines);
  });

  it('a failed PATCH: the progress line is gone before the error, exit 1', async () => {
    emu.emulator.addFault('status=400,method=PATCH,after=12,times=1');
    const run = await runInTerminal(APPLY, { cwd: project.dir, env: env(), columns: 200, rows: 60 });
    const screen = screenLines(run.output, 200);

    expect(run.code).toBe(1);
    expect(screen.lines.filter((line) => /^✗ failed: updated "[A-T]" \(description\): /.test(line))).toHaveLength(1);
    expect(screen.lines.some((line) => line.startsWith('error: '))).toBe(true);
    expectNothingLeftOfTheProgressLine(run, screen.lines);
    expect(screen.wraps).toBe(true);
  });

  it('Ctrl-C at the approval prompt: nothing sent, exit 130', async () => {
    let typed = false;
    const run = await runInTerminal(['apply', '--max-changes', '20'], {
      cwd: project.dir, env: env(), columns: 200, rows: 60,
      onOutput: (output, type) => {
        if (!typed && output.includes("Only 'yes' will be accepted:")) {
          typed = true;
          type('\u0003');
        }
      },
    });
    const screen = screenLines(run.output, 200);

    expect(run.code).toBe(130);
    expect(patches(emu.emulator)).toEqual([]);
    // The terminal echoes the Ctrl-C after the question; the answer to it starts on a line of its own.
    expect(screen.lines.slice(-3)).toEqual([
      "Apply these 20 changes to app default? Only 'yes' will be accepted: ^C",
      'Interrupted (SIGINT): no new change is sent; waiting for the requests in flight (interrupt again to stop at once, without the report and the undo plan).',
      'Apply interrupted before any change was sent.',
    ]);
    expect(screen.wraps).toBe(true);
    expect(existsSync(path.join(project.dir, 'undo.json'))).toBe(false);
  });
});
