// Runs the whole CLI in-process with captured streams: the real yargs wiring, the real
// commands, the real error handler, but no child process, so tests stay fast.
import { PassThrough, Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import { INTERRUPT_SIGNALS, type CliIo, type Interrupts } from '../../src/cli/context.js';
import type { InterruptSignal } from '../../src/exit-codes.js';

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
    interrupts: emittedInterrupts,
    ...(options.now ? { now: options.now } : {}),
  };
  const code = await main(argv, io);
  stdout.end();
  stderr.end();
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}

/**
 * The interrupt service in-process: a test sends an interrupt with `process.emit('SIGTERM')`,
 * which reaches the command as the binary's would. `stop` runs the clean-up but never ends the
 * test's process; what a signal does to the binary is tested through the binary.
 */
const emittedInterrupts: Interrupts = {
  finish: (onInterrupt) => listenForEmitted(onInterrupt),
  stop: (cleanUp) => listenForEmitted(cleanUp),
};

function listenForEmitted(handler: (signal: InterruptSignal) => void): () => void {
  const listeners = INTERRUPT_SIGNALS.map((signal) => [signal, () => handler(signal)] as const);
  for (const [signal, listener] of listeners) process.on(signal, listener);
  return () => {
    for (const [signal, listener] of listeners) process.off(signal, listener);
  };
}
