// Runs the whole CLI in-process with captured streams: the real yargs wiring, the real
// commands, the real error handler, but no child process, so tests stay fast.
import { PassThrough, Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/context.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  stdin?: string;
  tty?: boolean;
  /** The clock the command reads (a simulated date). */
  now?: () => number;
}

export async function runCli(argv: string[], options: RunOptions = {}): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (b: Buffer) => out.push(b));
  stderr.on('data', (b: Buffer) => err.push(b));
  const io: CliIo = {
    stdout,
    stderr,
    stdin: Readable.from([options.stdin ?? '']),
    env: { ...options.env },
    cwd: options.cwd ?? process.cwd(),
    stdoutIsTTY: options.tty ?? false,
    stderrIsTTY: options.tty ?? false,
    stdinIsTTY: options.tty ?? false,
    ...(options.now ? { now: options.now } : {}),
  };
  const code = await main(argv, io);
  stdout.end();
  stderr.end();
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}
