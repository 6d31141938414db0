import { relative, sep } from 'node:path';

/** A path as printed in problems: relative to the working directory, with "/" separators. */
export function displayPath(cwd: string, absPath: string): string {
  const rel = relative(cwd, absPath);
  return (rel === '' ? '.' : rel).split(sep).join('/');
}
