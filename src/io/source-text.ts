// Turns a file on disk into text, or into one located problem that says why it cannot:
// too large (checked before reading all of it, so a huge file costs nothing), unreadable, or
// not UTF-8.
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';

/** 1 MiB: far above any real rule or policy file, far below what would slow the tool down. */
export const DEFAULT_MAX_BYTES = 1024 * 1024;

export interface TextProblem {
  line: number;
  col: number;
  message: string;
}

/** `bom`: the bytes began with a UTF-8 byte-order mark, which `text` leaves out (a writer that keeps the file's style puts it back). */
export type SourceText = { ok: true; text: string; bom: boolean } | { ok: false; problem: TextProblem };

/**
 * Synchronous on purpose: rule files are small and many (one per rule after `import`), and for
 * thousands of them a blocking read is several times faster than a promise per file through the
 * thread pool; nothing else runs while the CLI loads its rules.
 */
export function readSourceText(absPath: string, maxBytes: number): SourceText {
  let read: Uint8Array | { size: number };
  try {
    const fd = openSync(absPath, 'r');
    try {
      read = readWhole(fd, maxBytes);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    return { ok: false, problem: { line: 1, col: 1, message: `cannot read the file: ${describeFsError(err)}` } };
  }
  if (!(read instanceof Uint8Array)) return tooLarge(read.size, maxBytes);
  // The file may have grown between the size check and the read.
  if (read.length > maxBytes) return tooLarge(read.length, maxBytes);
  return decodeUtf8(read);
}

/**
 * Reused for every file that fits, which is nearly every rule file: reading one then costs an
 * open, one read and a close, and allocates nothing. Only decodeUtf8 reads it, before returning.
 */
const scratch = Buffer.allocUnsafe(64 * 1024);

/** The file's bytes, or the size of a file larger than `maxBytes` (which is then not read). */
function readWhole(fd: number, maxBytes: number): Uint8Array | { size: number } {
  const length = readSync(fd, scratch, 0, scratch.length, 0);
  if (length < scratch.length) return scratch.subarray(0, length);
  const size = fstatSync(fd).size;
  return size > maxBytes ? { size } : readFileSync(fd);
}

/** One strict decoder for every file: a decode call without `stream` starts afresh, even after an error. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes strict UTF-8 (a leading byte-order mark is dropped); invalid bytes are located. */
export function decodeUtf8(bytes: Uint8Array): SourceText {
  try {
    return { ok: true, text: strictUtf8.decode(bytes), bom: bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf };
  } catch {
    const offset = firstInvalidByte(bytes);
    const { line, col } = bytePosition(bytes, offset);
    const byte = (bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0');
    return {
      ok: false,
      problem: { line, col, message: `the file is not valid UTF-8 (byte 0x${byte}); save it with UTF-8 encoding` },
    };
  }
}

/** The problem of a file of `size` bytes, over `maxBytes` (not read). */
export function tooLarge(size: number, maxBytes: number): SourceText {
  return {
    ok: false,
    problem: { line: 1, col: 1, message: `the file is too large: ${formatBytes(size)}; the limit is ${formatBytes(maxBytes)}` },
  };
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB (${n} bytes)`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB (${n} bytes)`;
  return `${n} bytes`;
}

function describeFsError(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  if (code === 'ENOENT') return 'it does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  return err instanceof Error ? err.message : String(err);
}

/**
 * The offset of the first byte that makes the input invalid UTF-8. A streaming decoder accepts
 * any valid prefix (an unfinished character at the end is held back, not rejected), so
 * "this prefix decodes" is monotone in its length and a binary search finds the first bad byte.
 */
function firstInvalidByte(bytes: Uint8Array): number {
  const prefixDecodes = (length: number): boolean => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, length), { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  if (prefixDecodes(bytes.length)) {
    // Only the end is unfinished: the last character is cut short.
    let start = bytes.length - 1;
    while (start > 0 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start -= 1;
    return start;
  }
  let good = 0; // longest prefix known to decode
  let bad = bytes.length; // shortest prefix known to fail
  while (bad - good > 1) {
    const mid = Math.floor((good + bad) / 2);
    if (prefixDecodes(mid)) good = mid;
    else bad = mid;
  }
  return startOfBrokenCharacter(bytes, bad - 1);
}

/** The byte at `offset` broke the input; if it cut short a character begun earlier, point at that start. */
function startOfBrokenCharacter(bytes: Uint8Array, offset: number): number {
  let lead = offset - 1;
  while (lead >= 0 && ((bytes[lead] ?? 0) & 0xc0) === 0x80) lead -= 1;
  if (lead < 0) return offset;
  const first = bytes[lead] ?? 0;
  const expected = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  return offset - lead < expected ? lead : offset;
}

/** 1-based line and column of a byte offset; the column counts characters, as editors do. */
function bytePosition(bytes: Uint8Array, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i += 1) {
    if (bytes[i] === 0x0a) {
      line += 1;
      lineStart = i + 1;
    }
  }
  const before = new TextDecoder('utf-8').decode(bytes.subarray(lineStart, offset));
  return { line, col: before.length + 1 };
}
