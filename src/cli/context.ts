// What a command gets to talk to the world. Commands never touch `process` directly,
// so tests can run the whole CLI in-process with their own streams and environment.
import type { Readable, Writable } from 'node:stream';
import pc from 'picocolors';
import type { Colors } from '../render/contract.js';
import { safeText } from '../render/sanitise.js';
import type { ProjectSelection, Runtime } from '../runtime.js';
import { annotationsFor, type Annotations } from './annotations.js';
import type { ExitCode, InterruptSignal } from '../exit-codes.js';
import { definedFields } from '../defined.js';

export interface CliIo {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  env: Record<string, string | undefined>;
  cwd: string;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** The interrupt service (SIGHUP, SIGINT, SIGTERM). Absent: interrupts are not caught. */
  interrupts?: Interrupts;
  /** Writes to stdout or stderr that failed other than by a closed pipe (a full disk, an I/O error). */
  writeFailures?: () => readonly WriteFailure[];
  /** Calls `onGone` once the process that started this one has ended; the returned function stops watching. */
  parentGone?: (onGone: () => void) => () => void;
  /** The clock; Date.now unless a test simulates time (a quarter of weekly reports in seconds). */
  now?: () => number;
}

export const INTERRUPT_SIGNALS: readonly InterruptSignal[] = ['SIGHUP', 'SIGINT', 'SIGTERM'];

/**
 * How a command lives with interrupts, while it listens (until the returned function is called).
 * Outside that, an interrupt ends the process as Node does by default.
 */
export interface Interrupts {
  /** The first interrupt calls `onInterrupt` and the command finishes; a second ends the process at once with the signal's exit code. */
  finish(onInterrupt: (signal: InterruptSignal) => void): () => void;
  /** An interrupt runs `cleanUp` (synchronously), then the process ends by the same signal. */
  stop(cleanUp: (signal: InterruptSignal) => void): () => void;
}

/** A standard stream that could not be written (its first failure). */
export interface WriteFailure {
  stream: 'stdout' | 'stderr';
  error: NodeJS.ErrnoException;
}

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
  /** Runs another command line in this process, with some of the streams or the environment replaced (`github action`; set by `main`). */
  runCli?(argv: readonly string[], io: Partial<CliIo>): Promise<ExitCode>;
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
    ...definedFields({ timeoutSeconds: args.timeout }),
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

/** The reader of a pipe went away: EPIPE, or a write to the stream that error destroyed. */
export function isBrokenPipe(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}
