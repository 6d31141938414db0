// Reads a YAML file the way every botrules file is read: size capped, strict UTF-8, one
// document, alias expansion capped (an alias bomb fails fast), duplicate keys rejected, then
// checked against a JSON Schema. Every problem is located as FILE:LINE:COL through the
// parsed Document, so callers can also point their own checks at any node.
import type { ValidateFunction } from 'ajv';
import { createRequire } from 'node:module';
import type { Document, YAMLError } from 'yaml';
import type { Problem } from '../errors.js';
import { DEFAULT_MAX_BYTES, decodeUtf8, readSourceText, type TextProblem } from './source-text.js';
import { translateSchemaErrors, type SchemaMessages } from './schema-messages.js';

/**
 * The `yaml` package, loaded on first use: rule files in the plain subset of YAML never need it
 * (fast-yaml.ts reads them), and a plan of thousands of clean files should not pay for loading it,
 * in the CLI or in the worker thread that reads files alongside it. It is CommonJS under Node.
 */
const requireModule = createRequire(import.meta.url);
let yamlPackage: typeof import('yaml') | undefined;
function yaml(): typeof import('yaml') {
  yamlPackage ??= requireModule('yaml') as typeof import('yaml');
  return yamlPackage;
}

/** A path into the document: mapping keys and list indexes. */
export type Path = readonly (string | number)[];

export interface Position {
  line: number;
  col: number;
}

/** Aliases a file may expand in total; real files need a handful, an alias bomb needs millions. */
export const MAX_ALIAS_COUNT = 50;

export interface YamlSourceOptions {
  /** The path printed in problems (relative to the working directory). */
  displayPath: string;
  /** A compiled JSON Schema the document must satisfy. */
  validate?: ValidateFunction;
  /** How schema errors are worded for this kind of file. */
  messages?: SchemaMessages;
  maxBytes?: number;
}

export interface YamlSource {
  /** The path printed in problems. */
  file: string;
  /** The document as plain data; undefined when the file could not be read or parsed. */
  value: unknown;
  /** Read, YAML and schema problems, in words a person understands. */
  problems: Problem[];
  /** Position of the node at `path` (with `key`, of its key), or of the nearest ancestor that exists. */
  locate(path: Path, options?: { key?: boolean }): Position;
  /** A problem located at `path`. */
  problemAt(path: Path, message: string, options?: { key?: boolean }): Problem;
  /** True when the file parsed and the schema found nothing wrong at or under `path`. */
  isSchemaValid(path: Path): boolean;
}

export async function loadYamlFile(absPath: string, options: YamlSourceOptions): Promise<YamlSource> {
  const source = readSourceText(absPath, options.maxBytes ?? DEFAULT_MAX_BYTES);
  return source.ok ? parseYamlText(source.text, options) : unreadable(options.displayPath, source.problem);
}

/** Like loadYamlFile, from bytes already in memory (no size cap: the caller read them). */
export function parseYamlBytes(bytes: Uint8Array, options: YamlSourceOptions): YamlSource {
  const source = decodeUtf8(bytes);
  return source.ok ? parseYamlText(source.text, options) : unreadable(options.displayPath, source.problem);
}

export function parseYamlText(text: string, options: YamlSourceOptions): YamlSource {
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, resolveKnownTags: false, uniqueKeys: true });
  const locate = (path: Path, opts: { key?: boolean } = {}): Position => {
    const offset = offsetOf(doc, path, opts.key ?? false);
    return offset === undefined ? { line: 1, col: 1 } : lineCounter.linePos(offset);
  };
  const problemAt = (path: Path, message: string, opts: { key?: boolean } = {}): Problem => ({
    file: options.displayPath,
    ...locate(path, opts),
    message,
  });

  if (doc.errors.length > 0) {
    const problems = doc.errors.map((e) => ({ file: options.displayPath, ...yamlErrorPosition(e, lineCounter), message: yamlErrorMessage(e, text) }));
    return { file: options.displayPath, value: undefined, problems, locate, problemAt, isSchemaValid: () => false };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    const message = aliasErrorMessage(err);
    const problems = [{ file: options.displayPath, ...firstAliasPosition(doc, lineCounter), message }];
    return { file: options.displayPath, value: undefined, problems, locate, problemAt, isSchemaValid: () => false };
  }
  if (!options.validate || options.validate(value)) {
    return { file: options.displayPath, value, problems: [], locate, problemAt, isSchemaValid: () => true };
  }
  const errors = options.validate.errors ?? [];
  const problems = translateSchemaErrors(errors, value, options.messages).map((t) => problemAt(t.path, t.message, { key: t.key }));
  const errorPaths = errors.map((e) => pointerSegments(e.instancePath));
  const isSchemaValid = (path: Path): boolean => !errorPaths.some((errorPath) => startsWith(errorPath, path));
  return { file: options.displayPath, value, problems, locate, problemAt, isSchemaValid };
}

/** The source of a file that could not be read as text: its one problem, and nothing to locate. */
export function unreadable(displayPath: string, problem: TextProblem): YamlSource {
  const located = { file: displayPath, ...problem };
  return {
    file: displayPath,
    value: undefined,
    problems: [located],
    locate: () => ({ line: problem.line, col: problem.col }),
    problemAt: (_path, message) => ({ ...located, message }),
    isSchemaValid: () => false,
  };
}

/** Source offset of the node at `path`, or of the deepest ancestor the path reaches. */
function offsetOf(doc: Document, path: Path, wantKey: boolean): number | undefined {
  const { isMap, isScalar, isSeq } = yaml();
  let node: unknown = doc.contents;
  let offset = rangeStart(node);
  for (const [i, segment] of path.entries()) {
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) return offset;
      const keyOffset = rangeStart(pair.key);
      if (last && wantKey) return keyOffset ?? offset;
      // `key:` with nothing after it has a value node without a useful position: use the key.
      node = pair.value;
      offset = (isScalar(node) && node.value === null ? keyOffset : rangeStart(node)) ?? keyOffset ?? offset;
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment];
      if (node === undefined) return offset;
      offset = rangeStart(node) ?? offset;
    } else {
      // A scalar, or an alias: the path continues inside the anchored node; point at the alias.
      return offset;
    }
  }
  return offset;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: readonly number[] | null } | null | undefined)?.range;
  return range?.[0];
}

function yamlErrorPosition(error: YAMLError, lineCounter: { linePos(offset: number): Position }): Position {
  return error.linePos?.[0] ?? lineCounter.linePos(error.pos[0]);
}

function yamlErrorMessage(error: YAMLError, text: string): string {
  switch (error.code) {
    case 'DUPLICATE_KEY': {
      const key = /^[^:\n]*/.exec(text.slice(error.pos[0]))?.[0].trim().slice(0, 60) ?? '';
      return `duplicate key "${key}": a key may appear only once in a mapping`;
    }
    case 'MULTIPLE_DOCS':
      return 'the file holds more than one YAML document (a line with ---); keep one';
    case 'TAB_AS_INDENT':
      return 'tabs are not allowed for indentation in YAML; indent with spaces';
    default: {
      // The yaml package appends the position and a source excerpt; we print our own position.
      const bare = error.message.replace(/ at line \d+, column \d+:[\s\S]*$/, '').trim();
      return `invalid YAML: ${bare}`;
    }
  }
}

function aliasErrorMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  if (/excessive alias count/i.test(text)) {
    return `YAML aliases expand too much (more than ${MAX_ALIAS_COUNT} alias uses); write the values out instead`;
  }
  if (/unresolved alias/i.test(text)) return 'an alias (*name) refers to an anchor (&name) that is not defined before it';
  return `the YAML cannot be read: ${text}`;
}

function firstAliasPosition(doc: Document, lineCounter: { linePos(offset: number): Position }): Position {
  const { visit } = yaml();
  let offset: number | undefined;
  visit(doc, {
    Alias(_key, node) {
      offset = node.range?.[0];
      return visit.BREAK;
    },
  });
  return offset === undefined ? { line: 1, col: 1 } : lineCounter.linePos(offset);
}

/** "/rules/0/name" → ["rules", "0", "name"] (JSON Pointer unescaping). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function startsWith(path: readonly string[], prefix: Path): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => String(segment) === path[i]);
}
