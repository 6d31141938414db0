// Files a `botrules github` command reads came from artifacts: their size is checked before
// they are read, and a link is never followed.
import { lstat, readFile } from 'node:fs/promises';
import { UserError } from '../errors.js';

export async function readCappedText(file: string, maxBytes: number, what: string): Promise<string> {
  let info;
  try {
    info = await lstat(file);
  } catch (error) {
    throw new UserError(`cannot read ${what} (${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  if (!info.isFile()) throw new UserError(`${what} (${file}) is not a regular file`);
  if (info.size > maxBytes) throw new UserError(`${what} (${file}) is ${info.size} bytes, more than the ${maxBytes} it may have`);
  return readFile(file, 'utf8');
}

/** As readCappedText, or undefined when the file does not exist. */
export async function readOptionalCappedText(file: string, maxBytes: number, what: string): Promise<string | undefined> {
  try {
    await lstat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  }
  return readCappedText(file, maxBytes, what);
}
