// The repository's own files that the documentation tests read: every file below the named
// folders (dependencies, generated code and builds left out) and the named top-level files.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
const SKIPPED = new Set(['node_modules', 'generated', 'dist']);

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    if (SKIPPED.has(name)) return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Absolute paths of the files below `dirs` and of those `files` that exist, relative to the repository. */
export function scannedFiles(dirs: readonly string[], files: readonly string[]): string[] {
  const listed = files.map((name) => join(ROOT, name)).filter((path) => existsSync(path));
  return [...dirs.flatMap((dir) => filesUnder(join(ROOT, dir))), ...listed];
}
