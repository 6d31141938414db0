// Where a report goes: stdout, or `--out FILE` written through a temporary file in the same
// directory and renamed at the end, so a failed export never leaves a complete-looking file.
import { createWriteStream, unlinkSync, type WriteStream } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { once } from 'node:events';
import { basename, dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import { UserError } from '../errors.js';
import { checkWritable, describeWriteError } from '../io/atomic-write.js';

/** Writes a chunk, waiting for the stream to drain when its buffer is full (flat memory). */
export type Emit = (chunk: string) => Promise<void>;

export interface ReportOutput {
  emit: Emit;
  /** Finishes the output; for a file, renames the temporary file into place. */
  commit(): Promise<void>;
  /** Drops a partial file. Safe to call after a failure at any point. */
  abort(): Promise<void>;
  /** The file written, relative to how the user named it; undefined for stdout. */
  file?: string;
}

/** Temporary files being written now, so a signal handler can remove them (dropPartialFiles). */
const partialFiles = new Set<string>();

/**
 * Removes every temporary file still being written, synchronously: for a signal handler that
 * ends the process next (no `.partial` file outlives a command).
 */
export function dropPartialFiles(): void {
  for (const file of partialFiles) {
    try {
      unlinkSync(file);
    } catch {
      // Already renamed or removed.
    }
  }
  partialFiles.clear();
}

export async function openOutput(out: string | undefined, options: { cwd: string; stdout: Writable }): Promise<ReportOutput> {
  if (out === undefined || out === '-') {
    // stdout that fails other than by a closed pipe (a full disk) ends the report the same way:
    // the CLI records the stream's failure and says it, with a failing exit code.
    const emit = emitter(options.stdout);
    const stdoutEmit: Emit = (chunk) => emit(chunk).catch(() => Promise.reject(brokenPipe()));
    return { emit: stdoutEmit, commit: async () => undefined, abort: async () => undefined };
  }
  const target = resolve(options.cwd, out);
  await checkWritable(target, '--out', out);
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}-${randomBytes(4).toString('hex')}.partial`);
  const stream = createWriteStream(temporary, { flags: 'wx' });
  partialFiles.add(temporary);
  await openedOrFailed(stream, out).catch((err: unknown) => {
    partialFiles.delete(temporary);
    throw err;
  });
  let failure: Error | undefined;
  stream.on('error', (err) => {
    failure = err;
  });
  const emit = emitter(stream);
  return {
    file: out,
    emit: async (chunk) => {
      if (failure) throw outputError(out, failure);
      // A failed write destroys the stream: the wait for it ends in its error, never in a
      // broken pipe (that is for a reader that went away, not for a file).
      await emit(chunk).catch((err: unknown) => {
        throw outputError(out, failure ?? (err as Error));
      });
    },
    async commit() {
      stream.end();
      await closed(stream);
      try {
        if (failure) throw failure;
        await rename(temporary, target);
      } catch (err) {
        await unlink(temporary).catch(() => undefined);
        throw outputError(out, err as Error);
      } finally {
        partialFiles.delete(temporary);
      }
    },
    async abort() {
      stream.destroy();
      await closed(stream);
      await unlink(temporary).catch(() => undefined);
      partialFiles.delete(temporary);
    },
  };
}

/** Resolves once the file is closed, whether it closed cleanly or after an error. */
async function closed(stream: WriteStream): Promise<void> {
  if (stream.closed) return;
  await new Promise<void>((done) => stream.once('close', () => done()));
}

function emitter(stream: Writable): Emit {
  return async (chunk) => {
    // A reader that went away (`| head`) destroys the stream: 'drain' would never come.
    if (stream.destroyed) throw brokenPipe();
    if (!stream.write(chunk)) {
      // Both listeners go once either fires: left behind, one per wait, they pile up on the
      // stream (and Node warns about a listener leak after ten).
      const waited = new AbortController();
      try {
        await Promise.race([
          once(stream, 'drain', { signal: waited.signal }),
          once(stream, 'close', { signal: waited.signal }).then(() => Promise.reject(brokenPipe())),
        ]);
      } finally {
        waited.abort();
      }
    }
  };
}

function brokenPipe(): Error {
  return Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
}

async function openedOrFailed(stream: WriteStream, out: string): Promise<void> {
  try {
    await once(stream, 'open');
  } catch (err) {
    throw outputError(out, err as Error);
  }
}

function outputError(out: string, err: Error): UserError {
  if (err instanceof UserError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  const reason = code === 'ENOENT' ? 'the directory does not exist' : describeWriteError(err as NodeJS.ErrnoException);
  const full = code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG';
  return new UserError(`cannot write ${out}: ${reason}; nothing was written to it`, full ? ['Free some space (or choose another --out) and run the report again.'] : []);
}
