// The drift patch comes from another job's artifact: before it is applied it must touch
// nothing but rule files of the app's rules directory, and change no file mode, link or
// name (docs/security.md, "The pipeline").
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../errors.js';
import { safeText } from '../render/sanitise.js';
import { git } from '../io/git.js';

/** `rules`, `./rules`, `rules/` → `rules/`: git names paths with neither a leading ./ nor a trailing /. */
export function rulesPrefix(rulesDir: string): string {
  const dir = rulesDir.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  if (dir === '' || dir === '.' || dir.startsWith('/') || dir.split('/').includes('..')) {
    throw new UserError(`the rules directory ${JSON.stringify(safeText(rulesDir))} must be a folder inside the repository`);
  }
  return `${dir}/`;
}

/** Every path the patch touches, from `git apply --numstat -z` (a rename lists both names). */
export function numstatPaths(numstat: string): string[] {
  const fields = numstat.split('\0');
  const paths: string[] = [];
  for (let i = 0; i < fields.length; i += 1) {
    const match = /^(?:\d+|-)\t(?:\d+|-)\t([\s\S]*)$/.exec(fields[i] ?? '');
    if (!match) continue;
    if (match[1] !== '') {
      paths.push(match[1] as string);
    } else {
      // A rename or copy: the two names follow as fields of their own.
      paths.push(fields[i + 1] ?? '', fields[i + 2] ?? '');
      i += 2;
    }
  }
  return paths;
}

/** Why a path may not be in the patch, or undefined when it is a rule file under `prefix`. */
export function pathRefusal(file: string, prefix: string): string | undefined {
  if (file.startsWith('/') || file.split('/').includes('..')) return 'leaves the repository';
  if (!file.startsWith(prefix) || !/\.ya?ml$/.test(file)) return `is not a rule file under ${prefix}`;
  return undefined;
}

/**
 * Why a path may not be written in the checkout at `cwd`: a folder on its way, or the file itself,
 * is a symbolic link (it could lead out of the rules directory; we refuse it ourselves rather than
 * rely on `git apply` to). Parts that do not exist yet are new folders, written as such.
 */
async function linkRefusal(cwd: string, file: string): Promise<string | undefined> {
  const parts = file.split('/');
  for (let depth = 1; depth <= parts.length; depth += 1) {
    const entry = await lstat(path.join(cwd, ...parts.slice(0, depth))).catch(() => undefined);
    if (entry === undefined) return undefined;
    if (entry.isSymbolicLink()) return `goes through a symbolic link (${parts.slice(0, depth).join('/')})`;
  }
  return undefined;
}

/** `git apply --summary` lines that change a mode, make a link or submodule, or rename or copy a file. */
const FORBIDDEN_SUMMARY = /^ *(mode change|rename|copy) | mode (120000|160000|100755) /m;

/** Checks the patch against the checkout at `cwd`; throws a UserError naming the first problem. */
export async function checkDriftPatch(patchFile: string, rulesDir: string, app: string, cwd: string): Promise<void> {
  const prefix = rulesPrefix(rulesDir);
  for (const file of numstatPaths(await git(['apply', '--numstat', '-z', patchFile], { cwd }))) {
    const refusal = pathRefusal(file, prefix) ?? (await linkRefusal(cwd, file));
    if (refusal !== undefined) {
      throw new UserError(`the drift patch of ${safeText(app)} touches a path that ${refusal}: refused (${safeText(file)})`);
    }
  }
  if (FORBIDDEN_SUMMARY.test(await git(['apply', '--summary', patchFile], { cwd }))) {
    throw new UserError(`the drift patch of ${safeText(app)} changes file modes, links or names: refused`);
  }
}
