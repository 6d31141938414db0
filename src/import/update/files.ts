// Reading an app's rule files for `import --update` and writing the result: each changed file
// is replaced atomically (src/io/atomic-write.ts: a temporary file beside it, then a rename), files the update empties
// are removed, and nothing is written through a symbolic link.
import { lstat, rm, mkdir } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { UserError, ValidationError } from '../../errors.js';
import { writeFileAtomic } from '../../io/atomic-write.js';
import { loadRules } from '../../rules/load.js';
import type { DeclaredRule } from '../../semantics/model.js';
import type { FileChange, RuleFileText } from './index.js';

interface AppFiles {
  files: RuleFileText[];
  declared: DeclaredRule[];
}

/** The app's rule files and declared rules; the files must be valid first. Each file is read and parsed once, by the loader. */
export async function readAppFiles(absDir: string, cwd: string, now = Date.now()): Promise<AppFiles> {
  const loaded = await loadRules(absDir, { cwd, keepSources: true, now });
  if (loaded.problems.length > 0) throw new ValidationError(loaded.problems);
  const files = loaded.files.map((shown) => {
    const source = loaded.sources?.get(shown);
    if (source === undefined) throw new Error(`import --update: the loader kept no text of ${shown}`);
    const rel = relative(absDir, join(cwd, shown)).split(sep).join('/');
    return { rel, shown, text: (source.bom ? '\uFEFF' : '') + source.text, document: source.document };
  });
  return { files, declared: loaded.rules };
}

/** Writes the changes below `absDir`. */
export async function writeChanges(absDir: string, changes: readonly FileChange[]): Promise<void> {
  for (const change of changes) {
    const target = join(absDir, ...change.rel.split('/'));
    await refuseSymlink(target);
    if (change.after === undefined) {
      await rm(target, { force: true });
      continue;
    }
    await mkdir(dirname(target), { recursive: true });
    await writeFileAtomic(target, change.after, 'the rule file', target);
  }
}

async function refuseSymlink(path: string): Promise<void> {
  try {
    if ((await lstat(path)).isSymbolicLink()) throw new UserError(`${path} is a symbolic link: import --update never writes through one`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
