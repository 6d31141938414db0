// Files a `botrules github` command reads came from artifacts: their size is checked before
// they are read, and a link is never followed.
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../errors.js';

/**
 * The text of an artifact file of at most `maxBytes`. Not src/io/capped-read.ts's reader: an
 * artifact that is a link or not a regular file is refused, and its caps are a few bytes.
 */
export async function readArtifactText(file: string, maxBytes: number, what: string): Promise<string> {
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

/** As readArtifactText, or undefined when the file does not exist. */
export async function readOptionalArtifactText(file: string, maxBytes: number, what: string): Promise<string | undefined> {
  const missing = await lstat(file).then(() => false, (error: NodeJS.ErrnoException) => error.code === 'ENOENT');
  return missing ? undefined : readArtifactText(file, maxBytes, what);
}

/** An app name as an artifact folder (or `github drift-pr --app`) may carry it: nothing a path or a shell could read otherwise. */
export const APP_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The apps with a folder `PREFIX<app>` under `root` (one downloaded artifact each), by name; a
 * folder whose name is no app name is left alone, and no `root` means no apps.
 */
export async function appFolders(root: string, prefix: string): Promise<{ app: string; folder: string }[]> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.isDirectory() && entry.name.startsWith(prefix))
    .map((entry) => ({ app: entry.name.slice(prefix.length), folder: join(root, entry.name) }))
    .filter(({ app }) => APP_NAME.test(app))
    .sort((a, b) => (a.app < b.app ? -1 : a.app > b.app ? 1 : 0));
}
