// The lines of a log stream when only a few are wanted (readLog's `only`: the DuckDB engine reads
// again the lines its report shows, which may lie anywhere in the log; docs/replay.md,
// "Engines"). The same lines as streamLines (lines.ts), found by scanning bytes for newlines (a
// newline byte is never part of a longer UTF-8 character): a line neither wanted nor possibly
// blank is only counted, never decoded nor cut out of its chunk: decoding and cutting out every
// line cost more than the scan itself (bench/README.md, "The duckdb engine, issue #37, round 3: the
// cost of reading the log").
import type { Readable } from 'node:stream';
import { MAX_LINE_CHARS, TOO_LONG, type StreamLine } from './lines.js';

/** A line neither wanted nor blank, counted but not decoded. */
export const UNREAD: unique symbol = Symbol('line not read');

/** Whether a line is blank as readLog tells it: nothing but whitespace once a final carriage return is dropped. */
export function isBlank(text: string): boolean {
  return (text.endsWith('\r') ? text.slice(0, -1) : text).trim() === '';
}

/** Whether a line starting with this character is not blank: ASCII, and no whitespace trim() drops. */
function visiblyNonBlank(code: number): boolean {
  return code < 0x80 && code !== 0x20 && (code < 0x09 || code > 0x0d);
}

/** A UTF-8 line holds at least a third as many UTF-16 characters as bytes: beyond three bytes per character allowed it is too long. */
const MAX_BYTES_PER_CHAR = 3;

/**
 * streamLines' batches, one per chunk, for a reader that parses only the non-blank lines at the
 * ordinals `wanted` (1 for the first non-blank line; a line too long counts, as in readLog): those,
 * the first non-blank line (its format is told from it) and every line that might be blank come
 * as their text or TOO_LONG, the other lines as UNREAD. Ends after the last wanted line.
 */
export async function* wantedLines(stream: Readable, wanted: ReadonlySet<number>, options: { maxChars?: number; onBytes?: (bytes: number) => void } = {}):
AsyncGenerator<(StreamLine | typeof UNREAD)[]> {
  const maxChars = options.maxChars ?? MAX_LINE_CHARS;
  const last = Math.max(0, ...wanted);
  /** The bytes of the line begun in earlier chunks (a copy: a stream may reuse a chunk's memory). */
  let held: Buffer[] = [];
  let heldBytes = 0;
  let dropped = false;
  let ordinal = 0;
  /** Whether the first non-blank line (not too long) was given as its text. */
  let told = false;
  let bytes = 0;
  // One line, what is held then `chunk` from `from` to `to`: its text, TOO_LONG or UNREAD.
  const finish = (chunk: Buffer, from: number, to: number): StreamLine | typeof UNREAD => {
    const size = heldBytes + to - from;
    const first = held.length > 0 ? (held[0] as Buffer)[0] as number : from < to ? chunk[from] as number : -1;
    const parts = held;
    const over = dropped || size > maxChars * MAX_BYTES_PER_CHAR;
    held = [];
    heldBytes = 0;
    dropped = false;
    let line: StreamLine | typeof UNREAD;
    if (over) line = TOO_LONG;
    else if (size <= maxChars && first >= 0 && visiblyNonBlank(first)) {
      ordinal += 1;
      line = told && !wanted.has(ordinal) ? UNREAD : decode(parts, chunk, from, to);
      told = true;
      return line;
    } else line = decode(parts, chunk, from, to);
    if (line !== TOO_LONG && line.length > maxChars) line = TOO_LONG;
    if (line === TOO_LONG || !isBlank(line)) {
      ordinal += 1;
      told ||= line !== TOO_LONG;
    }
    return line;
  };
  for await (const data of stream as AsyncIterable<Buffer | string>) {
    const chunk = typeof data === 'string' ? Buffer.from(data) : data;
    bytes += chunk.length;
    options.onBytes?.(bytes);
    const lines: (StreamLine | typeof UNREAD)[] = [];
    let from = 0;
    for (let newline = chunk.indexOf(10); newline >= 0 && ordinal < last; newline = chunk.indexOf(10, from)) {
      lines.push(finish(chunk, from, newline));
      from = newline + 1;
    }
    if (ordinal >= last) {
      yield lines;
      return;
    }
    if (!dropped && from < chunk.length) {
      if (heldBytes + chunk.length - from > maxChars * MAX_BYTES_PER_CHAR) {
        // Dropped as it grows, as streamLines drops it: the rest of this line is only scanned for its end.
        dropped = true;
        held = [];
        heldBytes = 0;
      } else {
        held.push(Buffer.from(chunk.subarray(from)));
        heldBytes += chunk.length - from;
      }
    }
    yield lines;
  }
  if (heldBytes > 0 || dropped) yield [finish(Buffer.alloc(0), 0, 0)];
}

/** The text of a line's bytes: the held ones, then the chunk's from `from` to `to`. */
function decode(held: readonly Buffer[], chunk: Buffer, from: number, to: number): string {
  return held.length === 0 ? chunk.toString('utf8', from, to) : Buffer.concat([...held, chunk.subarray(from, to)]).toString('utf8');
}
