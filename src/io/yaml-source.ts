// The one YAML reader of the tool: every rule, config and policy file is read here, and
// nowhere else. Size capped, strict UTF-8, one document, alias expansion capped (an alias
// bomb fails fast), duplicate keys rejected in linear time, then checked against a JSON
// Schema. Every problem is located as FILE:LINE:COL through the parsed Document (with a
// LineCounter), so callers can also point their own checks at any node. The `yaml`
// package's own warnings are collected as located warnings, never printed by the library.
import type { ValidateFunction } from 'ajv';
import { createRequire } from 'node:module';
import type { Document, LineCounter, Node as YamlNode, YAMLError, YAMLWarning } from 'yaml';
import type { Problem } from '../errors.js';
import { pointerSegments, type Path } from './json-pointer.js';
import { DEFAULT_MAX_BYTES, readSourceText, type TextProblem } from './source-text.js';
import { translateSchemaErrors, type SchemaMessages } from './schema-messages.js';
import { readPlainYaml } from './yaml-plain.js';
import { linePos, plainOffsetOf } from './yaml-plain-positions.js';
import { definedFields } from '../defined.js';

export type { Path } from './json-pointer.js';

/**
 * The `yaml` package, loaded on first use: commands that read no YAML file (most of
 * `scripts report`, `emulator`) should not pay for loading it. It is CommonJS under Node.
 */
const requireModule = createRequire(import.meta.url);
let yamlPackage: typeof import('yaml') | undefined;
function yaml(): typeof import('yaml') {
  yamlPackage ??= requireModule('yaml') as typeof import('yaml');
  return yamlPackage;
}

type Position = Omit<TextProblem, 'message'>;

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
  /** Keep the parsed Document (for a caller that edits the text): the file is read by the Document API. */
  keepDocument?: boolean;
}

export interface YamlSource {
  /** The path printed in problems. */
  file: string;
  /** The parsed document (with the source's offsets), for a caller that edits the text it came from. */
  document?: Document;
  /** The document as plain data; undefined when the file could not be read or parsed. */
  value: unknown;
  /** Read, YAML and schema problems, in words a person understands. */
  problems: Problem[];
  /** What the YAML parser found odd but could read (an unknown tag...), located. */
  warnings: Problem[];
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

/**
 * YAML text as the `yaml` package's Document, with the LineCounter that turns its offsets into
 * lines and columns: the one place the tool asks the library to parse. parseYamlText builds on
 * it; code that edits a rule file, recognises one, or locates a problem in a snapshot uses it
 * directly. Nothing is expanded or converted here: aliases are expanded (with a cap) only by
 * parseYamlText's conversion to plain values.
 */
export function parseYamlDocument(text: string): { document: Document; lineCounter: LineCounter } {
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  // uniqueKeys off: the library compares every key with every other (quadratic; a 40,000-key
  // mapping took 90 s); keyProblems() below does it with a Set. logLevel error: the library
  // would print its own warnings; parseYamlText reports them as located warnings instead.
  const document = withoutEnvironment(() => parseDocument(text, { lineCounter, resolveKnownTags: false, uniqueKeys: false, logLevel: 'error' }));
  return { document, lineCounter };
}

export function parseYamlText(text: string, options: YamlSourceOptions): YamlSource {
  // A file in the plain style is read in one pass into the same values and offsets (yaml-plain.ts).
  const plain = options.keepDocument === true ? undefined : readPlainYaml(text);
  if (plain !== undefined) {
    const at = (offset: number): Position => linePos(plain.lineStarts, offset);
    return checkedSource(plain.value, undefined, [], (path, opts = {}) => at(plainOffsetOf(plain.root, path, opts.key ?? false)), options);
  }
  const { document: doc, lineCounter } = parseYamlDocument(text);
  const at = (offset: number | undefined): Position => (offset === undefined ? { line: 1, col: 1 } : lineCounter.linePos(offset));
  const locate = (path: Path, opts: { key?: boolean } = {}): Position => at(offsetOf(doc, path, opts.key ?? false));
  const located = (offset: number | undefined, message: string): Problem => ({ file: options.displayPath, ...at(offset), message });
  const warnings = doc.warnings.map((w) => located(w.pos[0], yamlWarningMessage(w)));
  const unusable = (problems: Problem[]): YamlSource => ({ ...locatedSource(locate, options), document: doc, value: undefined, problems, warnings, isSchemaValid: () => false });

  const syntax = [...doc.errors.map((e) => ({ offset: e.pos[0], message: yamlErrorMessage(e) })), ...keyProblems(doc.contents)];
  if (syntax.length > 0) return unusable(syntax.sort((a, b) => (a.offset ?? 0) - (b.offset ?? 0)).map((p) => located(p.offset, p.message)));
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    return unusable([located(firstAliasOffset(doc), aliasErrorMessage(err))]);
  }
  return checkedSource(value, doc, warnings, locate, options);
}

/** A parsed file's value checked against the schema, with its problems located through `locate`. */
function checkedSource(value: unknown, document: Document | undefined, warnings: Problem[], locate: YamlSource['locate'], options: YamlSourceOptions): YamlSource {
  const source = { ...locatedSource(locate, options), ...definedFields({ document }), value, warnings };
  if (!options.validate || options.validate(value)) return { ...source, problems: [], isSchemaValid: () => true };
  const errors = options.validate.errors ?? [];
  const problems = translateSchemaErrors(errors, value, options.messages).map((t) => source.problemAt(t.path, t.message, { key: t.key }));
  const errorPaths = errors.map((e) => pointerSegments(e.instancePath));
  const isSchemaValid = (path: Path): boolean => !errorPaths.some((errorPath) => startsWith(errorPath, path));
  return { ...source, problems, isSchemaValid };
}

/** The file's name and how its problems are located, for a source read either way. */
function locatedSource(locate: YamlSource['locate'], options: YamlSourceOptions): Pick<YamlSource, 'file' | 'locate' | 'problemAt'> {
  return { file: options.displayPath, locate, problemAt: (path, message, opts = {}) => ({ file: options.displayPath, ...locate(path, opts), message }) };
}

/**
 * Runs `parse` (synchronous) with an empty `process.env`. The `yaml` package's parser looks up
 * `process.env.LOG_TOKENS` for every token it reads (and its composer `LOG_STREAM` for every
 * document), to print its tokens to standard output when those debug variables are set. Each
 * lookup asks the operating system's environment (about 0.2 µs), which was a tenth of the time
 * to validate 5,000 rule files (bench/README.md, "Validate"); and a user's environment must
 * never make a library print into our output. Nothing else runs while `parse` does, and the
 * real environment is back before it returns or throws.
 */
function withoutEnvironment<T>(parse: () => T): T {
  const environment = process.env;
  process.env = EMPTY_ENVIRONMENT;
  try {
    return parse();
  } finally {
    process.env = environment;
  }
}
const EMPTY_ENVIRONMENT: NodeJS.ProcessEnv = Object.freeze({});

/** Mappings with more keys than this are checked for repeats with a Set. */
const SMALL_MAPPING = 16;

/** A key written twice in one mapping, or a key that is itself a mapping, list or alias. */
function keyProblems(root: unknown): { offset: number | undefined; message: string }[] {
  const { isMap, isScalar, isSeq } = yaml();
  const found: { offset: number | undefined; message: string }[] = [];
  // An explicit stack: a deeply nested file must not overflow the call stack here.
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (isSeq(node)) {
      for (const item of node.items) if (isMap(item) || isSeq(item)) pending.push(item);
      continue;
    }
    if (!isMap(node)) continue;
    // A rule file's mappings have a handful of keys: a list to search costs less than a Set to
    // build, and a Set keeps a mapping of thousands of keys linear.
    const seen: Set<string> | string[] = node.items.length > SMALL_MAPPING ? new Set<string>() : [];
    for (const pair of node.items) {
      if (isMap(pair.value) || isSeq(pair.value)) pending.push(pair.value);
      const key = pair.key as YamlNode | null;
      if (key !== null && !isScalar(key)) {
        found.push({ offset: rangeStart(key), message: 'a key must be a plain value such as a name, not a mapping, a list or an alias' });
        continue;
      }
      const value = key === null ? null : key.value;
      const name = value === null ? '' : typeof value === 'string' ? value : String(value);
      if (Array.isArray(seen) ? seen.includes(name) : seen.has(name)) found.push({ offset: rangeStart(key), message: `duplicate key "${name.slice(0, 60)}": a key may appear only once in a mapping` });
      if (Array.isArray(seen)) seen.push(name);
      else seen.add(name);
    }
  }
  return found;
}

/** The source of a file that could not be read as text: its one problem, and nothing to locate. */
export function unreadable(displayPath: string, problem: TextProblem): YamlSource {
  const located = { file: displayPath, ...problem };
  return {
    file: displayPath,
    value: undefined,
    problems: [located],
    warnings: [],
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

function yamlErrorMessage(error: YAMLError): string {
  switch (error.code) {
    case 'MULTIPLE_DOCS':
      return 'the file holds more than one YAML document (a line with ---); keep one';
    case 'TAB_AS_INDENT':
      return 'tabs are not allowed for indentation in YAML; indent with spaces';
    default:
      return `invalid YAML: ${bareMessage(error)}`;
  }
}

function yamlWarningMessage(warning: YAMLWarning): string {
  return `YAML: ${bareMessage(warning)}`;
}

/** The yaml package appends the position and a source excerpt; we print our own position. */
function bareMessage(error: YAMLError | YAMLWarning): string {
  return error.message.replace(/ at line \d+, column \d+:[\s\S]*$/, '').trim();
}

function aliasErrorMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  if (/excessive alias count/i.test(text)) {
    return `YAML aliases expand too much (more than ${MAX_ALIAS_COUNT} alias uses); write the values out instead`;
  }
  if (/unresolved alias/i.test(text)) return 'an alias (*name) refers to an anchor (&name) that is not defined before it';
  return `the YAML cannot be read: ${text}`;
}

function firstAliasOffset(doc: Document): number | undefined {
  const { visit } = yaml();
  let offset: number | undefined;
  visit(doc, {
    Alias(_key, node) {
      offset = node.range?.[0];
      return visit.BREAK;
    },
  });
  return offset;
}

function startsWith(path: readonly string[], prefix: Path): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => String(segment) === path[i]);
}

/** True for a line of YAML that holds nothing but a comment or white space. */
export function isBlankOrComment(line: string): boolean {
  const trimmed = line.trim();
  return trimmed === '' || trimmed.startsWith('#');
}
