// The fast path for reading YAML. Two parsers read the same text:
//  - `yaml` (yaml-source.ts) is the authority: its Document gives every problem and every
//    FILE:LINE:COL, and caps alias expansion. It is also slow (~0.4 ms a file, most of a plan).
//  - js-yaml (here) is ~10x faster but locates nothing and has no alias cap.
// A file takes the fast path only when it stays inside a plain subset of YAML on which both
// parsers are known to agree, and js-yaml's result is checked against the source text; anything
// else (an alias, tag or anchor, a multi-line or block scalar, a number where a string is
// written, ...) returns undefined and the caller uses the slow path. Clean files are the common
// case; a file with any problem is always redone and reported by the slow path.
import { CORE_SCHEMA, load, type State } from 'js-yaml';
import { Schema } from 'yaml';
import type { Path, Position, YamlSource, YamlSourceOptions } from './yaml-source.js';

/**
 * Text that may mean something the fast path does not handle: an alias, anchor or tag
 * (`*`, `&`, `!` where a node may start; aliases must stay behind the slow path's expansion
 * cap), a merge key, a directive, a document end marker, content after `---`, an explicit
 * key (`? `), tabs, a lone CR, control and Unicode line-break characters, or a comment glued
 * to a token. A false positive only costs the slow path.
 */
const OUTSIDE_SUBSET =
  // eslint-disable-next-line no-control-regex
  /(?:^|[\s[{,:-])[*&!]|<<|^%|^\.\.\.|^---(?!(?: +#.*)? *\r?$)|(?:^|[\s[{,])\?(?:\s|$)|\t|\r(?!\n)|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|[,[\]{}"':]#/m;

/** Plain scalars that `yaml` (YAML 1.2 core schema) reads as null, a boolean or a number: its own tests, as one RegExp. */
const NON_STRING_PLAIN = new RegExp(
  new Schema({ schema: 'core' }).tags.flatMap((tag) => (tag.default === true && tag.test ? [`(?:${tag.test.source})`] : [])).join('|'),
);

/** One js-yaml node: where its parse began, where it ended, its value and the nodes inside. */
interface Frame {
  open: number;
  end: number;
  value: unknown;
  children: Frame[];
}

interface FastYaml {
  /** The document as plain data (only strings, lists and mappings). */
  value: unknown;
  /** Position of the node at `path`, exactly as the slow path's `locate` gives it; undefined when the path names no node. */
  locate(path: Path): Position | undefined;
}

/** Parses `text` on the fast path; undefined means "use the slow path". */
function parseFastYaml(text: string): FastYaml | undefined {
  if (OUTSIDE_SUBSET.test(text)) return undefined;
  const root = parseFrames(text);
  if (!root || !isPlainNode(root, text)) return undefined;
  const lines = lineStarts(text);
  return {
    value: root.value,
    locate: (path) => {
      const frame = frameAt(root, path);
      return frame ? linePos(lines, skipSeparation(text, frame.open)) : undefined;
    },
  };
}

/** js-yaml's parse as a tree of frames (one per composed node), or undefined when it fails or warns. */
function parseFrames(text: string): Frame | undefined {
  const top: Frame = { open: 0, end: 0, value: undefined, children: [] };
  const stack: Frame[] = [top];
  let warned = false;
  const listener = (event: 'open' | 'close', state: State): void => {
    if (event === 'open') {
      stack.push({ open: state.position, end: state.position, value: undefined, children: [] });
      return;
    }
    const frame = stack.pop();
    if (!frame) return;
    frame.end = state.position;
    frame.value = state.result;
    stack.at(-1)?.children.push(frame);
  };
  try {
    load(text, { schema: CORE_SCHEMA, json: false, listener, onWarning: () => (warned = true) });
  } catch {
    return undefined;
  }
  return !warned && stack.length === 1 && top.children.length === 1 ? top.children[0] : undefined;
}

/**
 * True when the node and everything in it is in the subset: every scalar a single-line string
 * that reads the same to both parsers, every flow collection on one line, and every mapping
 * and list fully made of the nodes js-yaml reported (so paths can be walked through frames).
 */
function isPlainNode(frame: Frame, text: string): boolean {
  const value = frame.value;
  if (typeof value === 'string') return scalarMatches(text, skipSeparation(text, frame.open), frame.end, value);
  if (typeof value !== 'object' || value === null) return false;
  const inner = innermost(frame);
  const start = skipSeparation(text, inner.open);
  if ((text[start] === '{' || text[start] === '[') && text.slice(start, inner.end).includes('\n')) return false;
  if (!(Array.isArray(value) ? listMatches(inner, value) : mappingMatches(inner, value as Record<string, unknown>))) return false;
  return inner.children.every((child) => isPlainNode(child, text));
}

function listMatches(frame: Frame, list: unknown[]): boolean {
  return frame.children.length === list.length && frame.children.every((child, i) => child.value === list[i]);
}

/** Keys and values alternate, each pair is in the mapping, and the mapping holds nothing else. */
function mappingMatches(frame: Frame, mapping: Record<string, unknown>): boolean {
  const { children } = frame;
  if (children.length % 2 !== 0 || children.length !== 2 * Object.keys(mapping).length) return false;
  for (let i = 0; i < children.length; i += 2) {
    const key = children[i]?.value;
    if (typeof key !== 'string' || !Object.hasOwn(mapping, key) || mapping[key] !== children[i + 1]?.value) return false;
  }
  return true;
}

/**
 * The scalar at [start, end) is a single-line string whose value both parsers agree on: plain
 * (the text itself, and not a null, boolean or number to `yaml`), single-quoted, or
 * double-quoted with only the escapes JSON also has. Block scalars and multi-line scalars are
 * left to the slow path (and `yaml` counts no line inside a multi-line flow scalar).
 */
function scalarMatches(text: string, start: number, end: number, value: string): boolean {
  const raw = text.slice(start, end).replace(/ +$/, '');
  if (raw === '' || raw.includes('\n') || raw.includes('\r')) return false;
  const first = raw[0];
  if (first === '"') return raw.length > 1 && raw.endsWith('"') && jsonString(raw) === value;
  if (first === "'") return raw.length > 1 && raw.endsWith("'") && raw.slice(1, -1).replaceAll("''", "'") === value;
  if (first === '|' || first === '>') return false;
  return raw === value && !NON_STRING_PLAIN.test(value);
}

function jsonString(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** A node js-yaml composed through a nested call has that call as its only child: the frame that holds its items. */
function innermost(frame: Frame): Frame {
  let inner = frame;
  while (inner.children.length === 1 && inner.children[0]?.value === inner.value) inner = inner.children[0] ?? inner;
  return inner;
}

/** The frame of the node at `path`, or undefined when the path leaves the document. */
function frameAt(root: Frame, path: Path): Frame | undefined {
  let frame: Frame | undefined = root;
  for (const segment of path) {
    if (!frame) return undefined;
    const inner = innermost(frame);
    if (typeof inner.value !== 'object' || inner.value === null) return undefined;
    if (Array.isArray(inner.value)) {
      frame = typeof segment === 'number' ? inner.children[segment] : undefined;
    } else {
      const keyIndex = inner.children.findIndex((child, i) => i % 2 === 0 && child.value === String(segment));
      frame = keyIndex === -1 ? undefined : inner.children[keyIndex + 1];
    }
  }
  return frame;
}

/** Where a node's content starts: js-yaml may open a node before the spaces, comments and line breaks ahead of it. */
function skipSeparation(text: string, from: number): number {
  let i = from;
  for (;;) {
    const ch = text[i];
    if (ch === ' ' || ch === '\n' || ch === '\r') i += 1;
    else if (ch === '#') {
      const eol = text.indexOf('\n', i);
      i = eol === -1 ? text.length : eol;
    } else return i;
  }
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
