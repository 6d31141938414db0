// Every file botrules writes goes through here (docs/behaviour.md, "Output files"): the path is
// checked before a command changes or asks anything, the content goes to a temporary file
// beside the target and is renamed over it (a reader never sees half a file), and nothing is
// ever written through a symbolic link. Failures are UserErrors that name the path and the
// reason, never internal errors.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, lstat, open, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import atomicWrite from 'write-file-atomic';
import { UserError } from '../errors.js';

/**
 * Throws a UserError unless `path` can be written: its directory exists and is writable, and
 * the path itself is not a directory or a symbolic link. `label` names the option (`--out`).
 */
export async function checkWritable(path: string, label: string, shown: string = path): Promise<void> {
  const dir = dirname(path);
  const dirStat = await stat(dir).catch((err: NodeJS.ErrnoException) => {
    throw cannotWrite(label, shown, err.code === 'ENOENT' ? `its directory ${dir} does not exist` : describeWriteError(err));
  });
  if (!dirStat.isDirectory()) throw cannotWrite(label, shown, `${dir} is not a directory`);
  await access(dir, constants.W_OK).catch(() => {
    throw cannotWrite(label, shown, `the directory ${dir} is not writable`);
  });
  const existing = await lstat(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw cannotWrite(label, shown, describeWriteError(err));
  });
  if (existing?.isDirectory()) throw cannotWrite(label, shown, 'it is a directory');
  if (existing?.isSymbolicLink()) throw cannotWrite(label, shown, 'it is a symbolic link, and botrules never writes through one');
}

/**
 * Writes `text` to `path` atomically, with write-file-atomic: a temporary file beside the target
 * (named `<path>.<number>`, the number from a hash of the process, thread and call), synced, then
 * renamed over it. `mode`: the new file's permissions (0o600 for a file that holds secrets),
 * less the umask as for any file created. The temporary file never outlives the command: the
 * library removes it when the write fails, and on exit or a signal (SIGINT, SIGTERM, SIGHUP…)
 * through signal-exit; when botrules handles the signal itself (apply, scripts report), the
 * library's handler runs once botrules re-raises it. Only SIGKILL can leave one behind.
 */
export async function writeFileAtomic(path: string, text: string, label: string, shown: string = path, mode = 0o644): Promise<void> {
  // The library follows a symbolic link to its target: the check refuses one first.
  await checkWritable(path, label, shown);
  try {
    // The mode is given less the umask: the library sets it with chmod, which the umask does not touch.
    await atomicWrite(path, text, { encoding: 'utf8', mode: mode & ~process.umask(), fsync: true });
  } catch (err) {
    throw cannotWrite(label, shown, describeWriteError(err as NodeJS.ErrnoException));
  }
}

/** One file of `writeFilesAtomically`. */
interface FileToWrite {
  path: string;
  text: string;
  /** What the file is, for a message (`the rule file`), and its name as the user knows it. */
  label: string;
  shown: string;
}

/**
 * Writes several files so that a failure (a full disk) changes none of them: every text goes to
 * a temporary file of its own beside its target first (created exclusively, synced), and only
 * once all are written are they renamed into place, which takes no space. A failure removes the
 * temporary files and throws a UserError naming the file and the reason.
 */
export async function writeFilesAtomically(files: readonly FileToWrite[], mode = 0o644): Promise<void> {
  const staged: { temporary: string; file: FileToWrite }[] = [];
  try {
    for (const file of files) {
      await checkWritable(file.path, file.label, file.shown);
      const temporary = temporaryBeside(file.path);
      staged.push({ temporary, file });
      await writeSynced(temporary, file.text, mode & ~process.umask()).catch((err: NodeJS.ErrnoException) => {
        throw cannotWrite(file.label, file.shown, describeWriteError(err));
      });
    }
  } catch (err) {
    await Promise.all(staged.map(({ temporary }) => rm(temporary, { force: true })));
    throw err;
  }
  for (const { temporary, file } of staged) {
    await rename(temporary, file.path).catch(async (err: NodeJS.ErrnoException) => {
      await Promise.all(staged.map(({ temporary: left }) => rm(left, { force: true })));
      throw cannotWrite(file.label, file.shown, describeWriteError(err));
    });
  }
}

async function writeSynced(path: string, text: string, mode: number): Promise<void> {
  const handle = await open(path, 'wx', mode);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes a file that `write` produces at a path it is given (a stream, a library): to a temporary
 * file beside `path`, renamed into place once whole; a failure removes it and names the reason.
 */
export async function writeThroughTemporary(path: string, label: string, shown: string, write: (temporary: string) => Promise<void>): Promise<void> {
  await checkWritable(path, label, shown);
  const temporary = temporaryBeside(path);
  try {
    await write(temporary);
    await rename(temporary, path);
  } catch (err) {
    await rm(temporary, { force: true });
    throw cannotWrite(label, shown, describeWriteError(err as NodeJS.ErrnoException));
  }
}

/** A fresh name in the target's directory, so the rename never crosses file systems. */
function temporaryBeside(path: string): string {
  return `${path}.botrules-${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
}

function cannotWrite(label: string, shown: string, reason: string): UserError {
  return new UserError(`cannot write ${label} ${shown}: ${reason}`);
}

/** Why a write failed, in words a user can act on (the code kept for a search). */
export function describeWriteError(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOSPC':
      return 'the disk is full (ENOSPC)';
    case 'EDQUOT':
      return 'the disk quota is used up (EDQUOT)';
    case 'EFBIG':
      return 'the file is larger than this system allows (EFBIG; see ulimit -f)';
    case 'EIO':
      return 'an input/output error of the device (EIO)';
    case 'EROFS':
      return 'the file system is read-only';
    case 'EISDIR':
      return 'it is a directory';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    default:
      return err.code ?? err.message;
  }
}
