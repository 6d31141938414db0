// `scripts report` as a terminal and a CI job see it, through the real binary: no Node warning
// reaches the user however long the streamed output, Ctrl-C (or a cancelled job's SIGTERM, or a
// closed terminal's SIGHUP) leaves no `.partial` file beside the output, a full disk is said as
// such (never as a bug, never as success), and the progress line composes with notices.
import { execFile, spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { CLI_BINARY } from '../helpers/binary.js';
import { tempDir } from '../helpers/temp.js';
import { progressLine } from '../../src/cli/progress-line.js';
import { pagesText } from '../../src/render/progress.js';

let emu: TestEmulator;

afterEach(async () => {
  await emu.close();
});

const REPORT = ['scripts', 'report', '--app-id', 'app-demo', '--tld', 'shop.example.com'];

describe('scripts report in a terminal and a job', () => {
  it('ndjson to a file prints no Node warning (no listener left behind by each wait for the file to drain)', async () => {
    emu = await startTestEmulator({ generateScripts: 3000, randomSeed: 3 });
    const dir = tempDir('botrules-report-ndjson-');
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      execFile(process.execPath, [CLI_BINARY, ...REPORT, '--format', 'ndjson', '--page-size', '100', '--from', '30d', '--out', 'inventory.ndjson'], { cwd: dir, env: { ...emu.env, PATH: process.env.PATH } }, (error, out, err) =>
        error === null ? resolve({ stdout: out, stderr: err }) : reject(new Error(`${error.message}\n${err}`)),
      );
    });
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^Wrote \d+ scripts to inventory\.ndjson\n$/);
    expect(readFileSync(path.join(dir, 'inventory.ndjson'), 'utf8').split('\n').length).toBeGreaterThan(1000);
  });

  it.each([['SIGINT'], ['SIGTERM'], ['SIGHUP']] as const)('%s while writing --out leaves no .partial file and no output file', async (signal) => {
    emu = await startTestEmulator({ generateScripts: 2000, randomSeed: 3, latencyMs: 200 });
    const dir = tempDir('botrules-report-signal-');
    const child = spawn(process.execPath, [CLI_BINARY, ...REPORT, '--from', '30d', '--page-size', '10', '--concurrency', '1', '--out', 'inventory.json'], {
      cwd: dir, env: { ...emu.env, PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, sig) => resolve({ code, signal: sig })));
    // Once the temporary file exists the report is under way.
    for (let waited = 0; !readdirSync(dir).some((name) => name.endsWith('.partial')); waited += 50) {
      if (waited > 20_000) throw new Error(`no .partial file appeared: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill(signal);
    const { code, signal: endedBy } = await ended;
    // Ended by the signal itself: a shell shows 130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP).
    expect({ code, endedBy }).toEqual({ code: null, endedBy: signal });
    expect(stderr).toBe(`interrupted (${signal}): nothing was written to inventory.json\n`);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('scripts report on a full disk', () => {
  /** The binary in a shell whose file-size limit (ulimit -f, in 512-byte blocks) makes every larger write fail with EFBIG. */
  function reportWithFileLimit(dir: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const command = `ulimit -f 8 && exec "$0" "$@"`;
      execFile('/bin/sh', ['-c', command, process.execPath, CLI_BINARY, ...args], { cwd: dir, env: { ...emu.env, PATH: process.env.PATH } }, (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : ((error as { code?: number }).code ?? null), stdout, stderr }),
      );
    });
  }

  it.each([['json'], ['ndjson']])('--format %s --out FILE that cannot grow: an actionable message, no file, no .partial, exit 1', async (format) => {
    emu = await startTestEmulator({ generateScripts: 400, randomSeed: 3 });
    const dir = tempDir('botrules-report-full-');
    const result = await reportWithFileLimit(dir, [...REPORT, '--from', '30d', '--format', format, '--out', 'inventory.out']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'error: cannot write inventory.out: the file is larger than this system allows (EFBIG; see ulimit -f); nothing was written to it\n' +
        'Free some space (or choose another --out) and run the report again.\n',
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('stdout on a full disk is an error, not a quiet success', async () => {
    emu = await startTestEmulator({ generateScripts: 50, randomSeed: 3 });
    const devFull = openSync('/dev/full', 'w');
    const ended = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI_BINARY, ...REPORT, '--from', '30d', '--format', 'ndjson'], { env: { ...emu.env, PATH: process.env.PATH }, stdio: ['ignore', devFull, 'pipe'] });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    closeSync(devFull);
    expect(ended).toEqual({ code: 1, stderr: 'error: could not write to stdout: the disk is full (ENOSPC); what botrules printed there is incomplete\n' });
  });
});

describe('the progress line', () => {
  function terminal(columns: number): { stream: { columns: number; write(chunk: string): boolean }; written: () => string } {
    let text = '';
    return { stream: { columns, write: (chunk: string) => ((text += chunk), true) }, written: () => text };
  }

  it('prints a notice on its own line above the bar, cuts the bar to the width, and never turns line wrapping off', () => {
    const { stream, written } = terminal(40);
    const line = progressLine(stream as never);
    line.update(pagesText(3, 12));
    line.notice('retrying GET /v1/scripts after 503 (attempt 2 of 3, waiting 1.0s)');
    line.update(pagesText(12, 12));
    line.stop();
    const cut = (text: string): string => `${text.slice(0, 38)}…`;
    expect(written()).toBe(
      `\r\u001b[2K${cut(pagesText(3, 12))}` +
        '\r\u001b[2Kretrying GET /v1/scripts after 503 (attempt 2 of 3, waiting 1.0s)\n' +
        cut(pagesText(3, 12)) +
        `\r\u001b[2K${cut(pagesText(12, 12))}` +
        '\r\u001b[2K',
    );
    expect(cut(pagesText(3, 12))).toBe(`scripts [${'#'.repeat(8)}${'-'.repeat(21)}…`);
    expect(written()).not.toContain('\u001b[?7l');
  });

  it('counts a terminal that reports 0 columns (a pseudo-terminal nobody sized) as 80 wide', () => {
    const { stream, written } = terminal(0);
    progressLine(stream as never).update(pagesText(3, 12));
    expect(written()).toBe(`\r\u001b[2K${pagesText(3, 12)}`);
  });
});
