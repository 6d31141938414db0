// Programs that npm cannot provide (a browser, curl). A test that needs one looks it up here and,
// where the machine lacks it, is skipped under a title that says why: the run's summary lists it
// (test/helpers/summary-reporter.js) and CI counts it (.ci/run), so nothing is skipped unnoticed.
// Found by reading PATH, not by starting a shell, so that looking costs nothing in any tier.
import { statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** Where the first of `names` is on PATH (or the absolute path itself, when it names an executable file), else undefined. */
export function findProgram(...names: string[]): string | undefined {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== '');
  for (const name of names) {
    const candidates = isAbsolute(name) ? [name] : dirs.map((dir) => join(dir, name));
    const found = candidates.find(isExecutableFile);
    if (found !== undefined) return found;
  }
  return undefined;
}

function isExecutableFile(path: string): boolean {
  const stat = statSync(path, { throwIfNoEntry: false });
  // Any execute bit: the tests run as whoever owns the checkout.
  return stat !== undefined && stat.isFile() && (stat.mode & 0o111) !== 0;
}

/**
 * `describe`, or, when `missing` says what the machine lacks, `describe.skip` under a title that
 * ends with `[skipped: <missing>]`. The one way a suite skips (test/tooling/skips.test.ts).
 */
export function describeUnless(missing: string | undefined, title: string, body: () => void): void {
  if (missing === undefined) describe(title, body);
  else describe.skip(`${title} [skipped: ${missing}]`, body);
}
