// Reading and writing live snapshot files. Reading refuses anything larger than a real rule
// set could be before reading it; writing goes to a temporary file that is renamed into
// place, so a failed `botrules live` never leaves a snapshot that looks complete.
import { stat } from 'node:fs/promises';
import { readCappedText } from '../io/capped-read.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import { UserError } from '../errors.js';
import { MAX_SNAPSHOT_BYTES, readLiveSnapshot, type LiveSnapshot, type RecordedRule } from './snapshot.js';

/** Reads and checks the snapshot at `path`; `shown` names it in messages. */
export async function readLiveSnapshotFile(path: string, shown: string): Promise<LiveSnapshot> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new UserError(`${shown} is not a file: --live takes a snapshot written by botrules live --out FILE`);
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`cannot read the live snapshot ${shown} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`, [
      'Write one with: botrules live --out FILE (in CI: download the newest snapshot artifact first)',
    ]);
  }
  return readLiveSnapshot(await readCappedText(path, shown, 'a live snapshot', MAX_SNAPSHOT_BYTES), shown);
}

/** Writes the snapshot whole or not at all. */
export async function writeLiveSnapshotFile(path: string, snapshot: LiveSnapshot<RecordedRule>, shown: string = path): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(snapshot, null, 2)}\n`, 'the live snapshot', shown);
}
