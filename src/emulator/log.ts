// The request log: every request the emulator answered (or dropped), in memory for tests and
// optionally as JSON lines in a file for benchmarks and demos. Headers are never recorded,
// so the Authorization header and its token cannot leak into a log.
import { createWriteStream, type WriteStream } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { UserError } from '../errors.js';

export interface RequestLogEntry {
  /** ISO 8601 time the request arrived. */
  time: string;
  method: string;
  path: string;
  query: Record<string, string>;
  /** The parsed JSON body; the raw text when it was not JSON; absent when empty. */
  body?: unknown;
  /** The status sent; 0 when the connection was dropped. */
  status: number;
  /** Milliseconds from arrival to answer. */
  ms: number;
  /** The injected fault's spec, when one fired. */
  fault?: string;
}

/** The in-memory log keeps the most recent entries only, so a long-running emulator stays small. */
const MEMORY_LIMIT = 10_000;

export class RequestLog {
  readonly entries: RequestLogEntry[] = [];

  private constructor(private readonly file: WriteStream | undefined) {}

  /** Opens the log; a log file that cannot be written is a UserError before the server starts. */
  static async open(filePath?: string): Promise<RequestLog> {
    if (filePath === undefined) return new RequestLog(undefined);
    try {
      await appendFile(filePath, '', { mode: 0o600 });
    } catch (err) {
      throw new UserError(`cannot write the request log ${filePath}: ${(err as Error).message}`);
    }
    const file = createWriteStream(filePath, { flags: 'a' });
    // A write failure later on (disk full) must not take the emulator down; the log is a by-product.
    file.on('error', () => undefined);
    return new RequestLog(file);
  }

  add(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > MEMORY_LIMIT) this.entries.splice(0, this.entries.length - MEMORY_LIMIT);
    this.file?.write(`${JSON.stringify(entry)}\n`);
  }

  /** Flushes and closes the log file. */
  async close(): Promise<void> {
    const file = this.file;
    if (!file || file.destroyed) return;
    await new Promise<void>((resolve) => {
      file.once('error', () => resolve());
      file.end(() => resolve());
    });
  }
}
