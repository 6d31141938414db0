// The lines of a log stream (docs/replay.md, "Long lines and compressed files"). Memory stays
// flat whatever the log holds: newlines are found by scanning each chunk, never by joining the
// unfinished line with the next chunk and splitting again (which made one long line quadratic),
// and a line longer than MAX_LINE_CHARS is dropped as it grows and reported as a skip.
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { UserError } from '../errors.js';

/** The longest line read (characters); a longer one is skipped with its line number. */
export const MAX_LINE_CHARS = 256 * 1024;

/** The skip reason of a line longer than MAX_LINE_CHARS. */
export const LONG_LINE_REASON = `line longer than ${MAX_LINE_CHARS.toLocaleString('en-US')} characters`;

/** What a line too long to read becomes: its place is kept, so line numbers stay right. */
export const TOO_LONG: unique symbol = Symbol('line too long');
export type StreamLine = string | typeof TOO_LONG;

/**
 * Decompressed bytes may exceed compressed bytes read by at most this factor once past
 * RATIO_GRACE_BYTES: text logs compress 5 to 30 times; a gzip bomb (zeros, one repeated line)
 * up to 1,000 times.
 */
const MAX_GZIP_RATIO = 200;
const RATIO_GRACE_BYTES = 16 * 1024 * 1024;

/** The gzip guard: throws a UserError naming the file once the data expands like a bomb. */
export function gzipGuard(file: string, compressedRead: () => number): (decompressed: number) => void {
  return (decompressed) => {
    if (decompressed <= RATIO_GRACE_BYTES) return;
    const compressed = Math.max(compressedRead(), 1);
    if (decompressed / compressed > MAX_GZIP_RATIO) {
      throw new UserError(`${file}: the gzip data expands more than ${MAX_GZIP_RATIO} times (${compressed.toLocaleString('en-US')} bytes read gave ` +
        `${decompressed.toLocaleString('en-US')}): refused as a decompression bomb, not a log`, [
        'Decompress the file yourself and replay the result if it is a real log.',
      ]);
    }
  };
}

/**
 * Lines of a byte stream, one array per chunk (one await per chunk, not per line). A line
 * longer than `maxChars` is TOO_LONG; its text is never held beyond `maxChars` characters.
 * `onBytes` hears the bytes taken from the stream so far (after decompression).
 */
export async function* streamLines(stream: Readable, options: { maxChars?: number; onBytes?: (bytes: number) => void } = {}): AsyncGenerator<StreamLine[]> {
  const maxChars = options.maxChars ?? MAX_LINE_CHARS;
  const decoder = new StringDecoder('utf8');
  let pending: string[] = [];
  let pendingChars = 0;
  let tooLong = false;
  let bytes = 0;
  const finish = (tail: string): StreamLine => {
    const over = tooLong || pendingChars + tail.length > maxChars;
    const line: StreamLine = over ? TOO_LONG : pending.length === 0 ? tail : pending.join('') + tail;
    pending = [];
    pendingChars = 0;
    tooLong = false;
    return line;
  };
  for await (const data of stream as AsyncIterable<Buffer | string>) {
    const chunk = typeof data === 'string' ? data : decoder.write(data);
    bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    options.onBytes?.(bytes);
    const lines: StreamLine[] = [];
    let from = 0;
    for (let newline = chunk.indexOf('\n'); newline >= 0; newline = chunk.indexOf('\n', from)) {
      lines.push(finish(chunk.slice(from, newline)));
      from = newline + 1;
    }
    const piece = chunk.slice(from);
    if (!tooLong && piece !== '') {
      if (pendingChars + piece.length > maxChars) {
        // Dropped as it grows: the rest of this line is only scanned for its end.
        tooLong = true;
        pending = [];
        pendingChars = 0;
      } else {
        pending.push(piece);
        pendingChars += piece.length;
      }
    }
    yield lines;
  }
  const tail = decoder.end();
  if (tail !== '') {
    // A chunk-split character completed at the end: part of the last line.
    if (!tooLong) { pending.push(tail); pendingChars += tail.length; }
  }
  if (pendingChars > 0 || tooLong) yield [finish('')];
}
