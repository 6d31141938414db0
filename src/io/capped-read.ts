// Every JSON file botrules reads whole (live snapshots, saved plans, script inventory
// snapshots) has a size cap, checked before the file is read: a crafted multi-gigabyte
// "previous snapshot" or plan costs a stat, not the heap. Rule, test and policy files have
// their own, smaller cap (source-text.ts, beside this file).
import { open } from 'node:fs/promises';
import { UserError } from '../errors.js';

/**
 * 64 MiB: a few thousand rules make a live snapshot or a plan of a few MB, and a script
 * inventory of tens of thousands of scripts a snapshot of tens of MB.
 */
export const MAX_JSON_FILE_BYTES = 64 * 1024 * 1024;

/**
 * The text of the file at `path`, refused with a UserError naming `shown`, `what` it is and
 * the cap when it is larger than `maxBytes` (checked before reading, and again after, for a
 * file that grew). Errors opening or reading it are thrown as they are, for the caller's message.
 */
export async function readCappedText(path: string, shown: string, what: string, maxBytes = MAX_JSON_FILE_BYTES): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) throw tooLarge(shown, what, size, maxBytes);
    const bytes = await handle.readFile();
    if (bytes.length > maxBytes) throw tooLarge(shown, what, bytes.length, maxBytes);
    return bytes.toString('utf8');
  } finally {
    await handle.close();
  }
}

function tooLarge(shown: string, what: string, size: number, maxBytes: number): UserError {
  return new UserError(`${shown} is ${mebibytes(size)}, more than the ${mebibytes(maxBytes)} botrules reads in ${what}`, [
    'Nothing was read from it. A real one is far smaller: check where the file came from.',
  ]);
}

function mebibytes(bytes: number): string {
  const value = bytes / (1024 * 1024);
  return `${Number.isInteger(value) ? value : value.toFixed(1)} MiB`;
}
