// What a command gets to talk to the world. Commands never touch `process` directly,
// so tests can run the whole CLI in-process with their own streams and environment.
import type { Readable, Writable } from 'node:stream';
import pc from 'picocolors';
import type { Colors } from '../render/contract.js';
import { safeText } from '../render/sanitise.js';
import type { ProjectSelection, Runtime } from '../runtime.js';
import { annotationsFor, type Annotations } from './annotations.js';

export type { Colors } from '../render/contract.js';

export interface CliIo {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  env: Record<string, string | undefined>;
  cwd: string;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /**
   * Listens for SIGINT/SIGTERM until the returned function is called; while it listens, an
   * interrupt calls `onInterrupt` instead of ending the process. Absent: interrupts are not caught.
   */
  interrupts?: (onInterrupt: (signal: InterruptSignal) => void) => () => void;
}

export type InterruptSignal = 'SIGINT' | 'SIGTERM';

/** The exit code of a command stopped by an interrupt: 128 + the signal's number, as shells report it. */
export const INTERRUPT_EXIT_CODES: Readonly<Record<InterruptSignal, number>> = { SIGINT: 130, SIGTERM: 143 };

/** Options every command accepts (docs/behaviour.md, "Commands"). */
export interface GlobalArgs extends ProjectSelection {
  color: boolean;
  verbose: boolean;
  /** Seconds each request may take (--timeout); BOTRULES_TIMEOUT or the default otherwise. */
  timeout?: number;
}

/** The command's Runtime (what the layers below get) plus its streams and colours. */
export interface CommandContext extends Runtime {
  io: CliIo;
  /** Colour helpers; no-ops unless colour is on for stdout. */
  colors: Colors;
  /** Colour helpers for stderr. */
  errColors: Colors;
  verbose: boolean;
  /** Writes a line to stderr only with --verbose, control characters made visible. Never pass it a secret. */
  debug(line: string): void;
  /** Writes a short progress line to stderr (a retry, a wait) whatever the verbosity. */
  notice(line: string): void;
  /** GitHub annotations: written under GitHub Actions, nothing elsewhere (chosen in `main`). */
  annotations: Annotations;
}

/** Colour only on a TTY, never with NO_COLOR or --no-color. */
export function colorEnabled(isTTY: boolean, env: CliIo['env'], colorFlag: boolean): boolean {
  if (!colorFlag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY;
}

export function createContext(io: CliIo, args: Pick<GlobalArgs, 'color' | 'verbose' | 'timeout'>, annotations = annotationsFor(io)): CommandContext {
  const verbose = args.verbose;
  return {
    annotations,
    ...(args.timeout !== undefined ? { timeoutSeconds: args.timeout } : {}),
    io,
    cwd: io.cwd,
    colors: pc.createColors(colorEnabled(io.stdoutIsTTY, io.env, args.color)),
    errColors: pc.createColors(colorEnabled(io.stderrIsTTY, io.env, args.color)),
    verbose,
    debug(line) {
      if (verbose) io.stderr.write(`${safeText(line)}\n`);
    },
    notice(line) {
      // Retry lines quote what a server sent back: shown with visible escapes, like debug lines.
      io.stderr.write(`${safeText(line)}\n`);
    },
    env(name) {
      const value = io.env[name];
      return value === undefined || value === '' ? undefined : value;
    },
  };
}

export function processIo(): CliIo {
  // A reader that closes the pipe early (`botrules plan | head -1`) is not an error: the command
  // runs on and ends with the exit code it would have had (docs/behaviour.md, "Exit codes").
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (!isBrokenPipe(err)) throw err;
    });
  }
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    stdinIsTTY: Boolean(process.stdin.isTTY),
    interrupts: processInterrupts,
  };
}

/**
 * The first interrupt goes to `onInterrupt` (the command finishes what is in flight and reports);
 * a second one ends the process at once with the signal's exit code, as Terraform does.
 */
function processInterrupts(onInterrupt: (signal: InterruptSignal) => void): () => void {
  let received = false;
  const handler = (signal: InterruptSignal) => {
    if (received) process.exit(INTERRUPT_EXIT_CODES[signal]);
    received = true;
    onInterrupt(signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

/** The reader of a pipe went away: EPIPE, or a write to the stream that error destroyed. */
export function isBrokenPipe(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}
