// What a semantic check gets to report with: problems located relative to the node it checks.
import type { Problem } from '../../errors.js';
import type { Path, YamlSource } from '../../io/yaml-source.js';

export interface Where {
  /** A problem at `path` below the checked node (with `key`, at that key rather than its value). */
  at(path: Path, message: string, options?: { key?: boolean }): Problem;
}

export function whereIn(source: Pick<YamlSource, 'problemAt'>, base: Path): Where {
  return { at: (path, message, options) => source.problemAt([...base, ...path], message, options) };
}
