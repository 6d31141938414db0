// The fast path for reading YAML. Two parsers read the same text:
//  - `yaml` (yaml-source.ts) is the authority: its Document gives every problem and every
//    FILE:LINE:COL, and caps alias expansion. It is also slow (~0.4 ms a file, most of a plan).
//  - plain-yaml.ts reads only a plain subset of YAML (no aliases, tags, block or multi-line
//    scalars, non-strings...), about fifty times faster, and gives up on anything else.
// A file takes the fast path only when it stays inside that subset and is schema-valid; a file
// with any problem is always redone and reported by the slow path.
import { parsePlainYaml } from './plain-yaml.js';
import type { Path, Position, YamlSource, YamlSourceOptions } from './yaml-source.js';

interface FastYaml {
  /** The document as plain data (only strings, lists and mappings). */
  value: unknown;
  /** Position of the node at `path`, exactly as the slow path's `locate` gives it; undefined when the path names no node. */
  locate(path: Path): Position | undefined;
}

/** Parses `text` on the fast path; undefined means "use the slow path". */
function parseFastYaml(text: string): FastYaml | undefined {
  const parsed = parsePlainYaml(text);
  if (!parsed) return undefined;
  let lines: number[] | undefined;
  return {
    value: parsed.value,
    locate: (path) => {
      const offset = parsed.offsetOf(path);
      if (offset === undefined) return undefined;
      lines ??= lineStarts(text);
      return linePos(lines, offset);
    },
  };
}

/** Offsets where lines start, counted as the slow path's LineCounter counts them (after each LF). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function linePos(starts: readonly number[], offset: number): Position {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((starts[mid] ?? 0) <= offset) low = mid + 1;
    else high = mid;
  }
  return { line: low, col: offset - (starts[low - 1] ?? 0) + 1 };
}

export interface FastSource {
  source: YamlSource;
  /** True once `locate` was asked for a path it does not answer: the caller must use the slow path. */
  strayed(): boolean;
}

/**
 * A YamlSource for a file on the fast path, or undefined when it needs the slow path (outside
 * the subset, or not schema-valid: the slow path words and locates schema problems). `locate`
 * answers only the paths `answers` admits (those a clean file is asked about); any other
 * question marks the source as strayed.
 */
export function fastYamlSource(text: string, options: YamlSourceOptions, answers: (path: Path) => boolean): FastSource | undefined {
  const parsed = parseFastYaml(text);
  if (!parsed || (options.validate && !options.validate(parsed.value))) return undefined;
  let strayed = false;
  const locate = (path: Path, opts: { key?: boolean } = {}): Position => {
    const position = !opts.key && answers(path) ? parsed.locate(path) : undefined;
    if (!position) strayed = true;
    return position ?? { line: 1, col: 1 };
  };
  const source: YamlSource = {
    file: options.displayPath,
    value: parsed.value,
    problems: [],
    locate,
    problemAt: (path, message, opts) => ({ file: options.displayPath, ...locate(path, opts), message }),
    isSchemaValid: () => true,
  };
  return { source, strayed: () => strayed };
}
