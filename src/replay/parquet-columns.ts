// How a Parquet file's columns become request fields (docs/replay.md, "Parquet"). A row is read
// as the JSON object it would be as an NDJSON line, so the same maps apply: columns named as
// the request fields, `replay.fields` paths (into struct columns too), or a preset told from the
// column names. Unlike a JSON line, a Parquet file states its types once, in its schema: a
// column of a type no field can hold is an error before any row is read, never a row skipped.
import type { SchemaTree } from 'hyparquet';
import { UserError } from '../errors.js';
import { MAP_FIELDS, REQUEST_FIELDS, type RequestField } from './coverage.js';
import { ownValueAt } from './formats.js';
import { CLOUDFRONT_KEYS } from './cdn-logs.js';
import { recordFormatOf, recordParser, type ParserOptions, type RecordFormat, type RecordParser } from './parsers.js';
import { CLOUDFLARE_KEYS, HUMAN_KEYS } from './presets.js';
import { splitTarget } from './redact.js';

/** What a column (or a struct's field) holds, as replay reads it. */
type Kind = 'text' | 'integer' | 'boolean' | 'json' | 'map' | 'struct' | 'list' | 'other';

/** A request field's column and how its values are read. */
export interface FieldColumn {
  field: string;
  keys: readonly string[];
  kind: Kind;
}

/** How the rows of one file are read: the columns to read, and each row as a request. */
export interface ColumnPlan {
  /** The preset the columns were read by (`ndjson` for request-field names and `replay.fields`). */
  format: RecordFormat;
  /** The top-level columns read (the others are never decoded). */
  columns: string[];
  /** Every top-level column's name: what a row carrying none of the fields shows the user. */
  names: string[];
  /** The request fields' columns (a preset's columns named `text` or `headers`). */
  fields: readonly FieldColumn[];
  /** A row (the columns read) as a record the format's reader takes, or why it is skipped. */
  prepare(row: Record<string, unknown>): { record: Record<string, unknown> } | { skip: string };
  read: RecordParser;
}

const TEXT: readonly Kind[] = ['text'];
const ASN: readonly Kind[] = ['text', 'integer'];
const MAP: readonly Kind[] = ['map', 'struct', 'json', 'text'];
/** The kinds of column each request field can be read from (maps: also a text column holding a JSON object, or the raw query string). */
const FIELD_KINDS: Record<RequestField, readonly Kind[]> = {
  path: TEXT, method: TEXT, userAgent: TEXT, ip: TEXT, asn: ASN, country: TEXT, domain: TEXT, deviceType: TEXT,
  headers: MAP, query: MAP, custom: MAP,
};
/** A preset's columns: scalar columns hold text, numbers or flags; these hold maps. */
const PRESET_MAP_COLUMNS: readonly string[] = ['RequestHeaders', 'Cookies'];
const SCALAR: readonly Kind[] = ['text', 'integer', 'boolean'];

/** The plan of a file's columns under the project's `replay` settings. */
export function planColumns(file: string, tree: SchemaTree, options: ParserOptions): ColumnPlan {
  const names = tree.children.map((child) => child.element.name);
  const fields = options.fields ?? {};
  // `replay.fields` decides when given; else a preset's column names, else the fields' own names.
  const format: RecordFormat = Object.keys(fields).length > 0 ? 'ndjson' : recordFormatOf(names);
  const wanted = format === 'ndjson' ? fieldColumns(file, tree, fields) : presetColumns(file, tree, format);
  const decisionPaths = Object.values(options.decision ?? {}).filter((path): path is string => path !== undefined);
  const columns = [...new Set([...wanted.map((column) => column.keys[0] ?? ''), ...decisionPaths.map((path) => path.split('.')[0] ?? '')])]
    .filter((name) => names.includes(name));
  return { format, columns, names, fields: wanted, prepare: (row) => prepareRow(row, wanted), read: recordParser(format, options) };
}

/** The request fields by `replay.fields` (or their own names), starting from its preset's columns when it names one. */
function fieldColumns(file: string, tree: SchemaTree, fields: Readonly<Record<string, string>>): FieldColumn[] {
  const { preset, ...named } = fields;
  const own = preset === undefined ? REQUEST_FIELDS : REQUEST_FIELDS.filter((field) => named[field] !== undefined);
  const columns = own.flatMap((field) => {
    const path = named[field] ?? field;
    const node = nodeAt(file, tree, path, field);
    if (node === undefined) return [];
    const kind = kindOf(node);
    const expected = FIELD_KINDS[field];
    if (!expected.includes(kind)) throw typeError(file, path, node, `the request field ${field}${named[field] === undefined ? '' : ` (replay.fields.${field})`}`, expected);
    return [{ field, keys: path.split('.'), kind }];
  });
  return preset === undefined ? columns : [...presetColumns(file, tree, preset as Exclude<RecordFormat, 'ndjson'>), ...columns];
}

/** A preset's columns that the file has, each checked for a scalar (or, for Logpush's header columns, a map). */
function presetColumns(file: string, tree: SchemaTree, preset: Exclude<RecordFormat, 'ndjson'>): FieldColumn[] {
  const reads = PRESET_COLUMNS[preset];
  // Columns the preset does not read may hold anything: only those it reads are checked.
  return tree.children.filter((node) => reads.includes(node.element.name)).map((node) => {
    const name = node.element.name;
    const isMap = PRESET_MAP_COLUMNS.includes(name);
    const expected = isMap ? MAP : SCALAR;
    const kind = kindOf(node);
    if (!expected.includes(kind)) throw typeError(file, name, node, `the ${preset} preset`, expected);
    return { field: isMap ? 'headers' : 'text', keys: [name], kind };
  });
}

/** The columns each preset reads (its request fields and, for the Data Export, its decision). */
const PRESET_COLUMNS: Record<Exclude<RecordFormat, 'ndjson'>, readonly string[]> = {
  cloudflare: CLOUDFLARE_KEYS,
  human: [...HUMAN_KEYS, 'referrer', 'type', 'filter_origin', 'filter_id', 'simulated_block', ...Array.from({ length: 10 }, (_, n) => `custom_parameter${n + 1}`)],
  cloudfront: CLOUDFRONT_KEYS,
};

/** The schema node at a dotted path (through struct columns), undefined when the file has no such column. */
function nodeAt(file: string, tree: SchemaTree, path: string, field: string): SchemaTree | undefined {
  let node = tree;
  const keys = path.split('.');
  for (const [index, key] of keys.entries()) {
    if (index > 0 && kindOf(node) !== 'struct') {
      throw new UserError(`${file}: replay.fields.${field} is ${JSON.stringify(path)}, but column ${JSON.stringify(keys.slice(0, index).join('.'))} is ${describe(node)}, not a struct with fields`, [
        'Name a column of the file, or a field of a struct column as column.field.',
      ]);
    }
    const child = node.children.find((candidate) => candidate.element.name === key);
    if (child === undefined) return undefined;
    node = child;
  }
  return node;
}

function typeError(file: string, path: string, node: SchemaTree, purpose: string, expected: readonly Kind[]): UserError {
  const kinds = expected.map(kindName);
  const needed = kinds.length === 1 ? kinds.join('') : `${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1) ?? ''}`;
  return new UserError(`${file}: column ${JSON.stringify(path)} is ${describe(node)}, but ${purpose} needs ${needed}`, [
    'Map the field to another column with replay.fields (docs/replay.md, "Parquet"), or cast the column when exporting.',
  ]);
}

const KIND_NAMES: Record<Kind, string> = {
  text: 'a string column', integer: 'an integer column', boolean: 'a boolean column', json: 'a JSON column', map: 'a map of strings',
  struct: 'a struct of strings', list: 'a list', other: 'another type',
};
const kindName = (kind: Kind): string => KIND_NAMES[kind];

/** A column's type as the user's schema tool shows it: `INT64`, `BYTE_ARRAY (UTF8)`, a map, a struct, a list. */
function describe(node: SchemaTree): string {
  const kind = kindOf(node);
  if (kind === 'map' || kind === 'struct' || kind === 'list') return `a ${kind}`;
  if (node.children.length > 0) return 'a nested type that holds more than strings';
  const { type, converted_type: converted, logical_type: logical } = node.element;
  const annotation = converted ?? logical?.type;
  return `${type ?? 'a group'}${annotation === undefined ? '' : ` (${annotation})`}`;
}

/** What a schema node holds, as far as replay reads it: maps and structs only of scalar strings (or lists of them). */
function kindOf(node: SchemaTree): Kind {
  const { element } = node;
  if (node.children.length > 0) return groupKind(node);
  const annotation = element.converted_type ?? element.logical_type?.type;
  switch (element.type) {
    case 'BYTE_ARRAY':
      if (annotation === 'JSON') return 'json';
      return annotation === undefined || annotation === 'UTF8' || annotation === 'STRING' || annotation === 'ENUM' ? 'text' : 'other';
    case 'INT32':
    case 'INT64':
      return annotation === undefined || annotation === 'INTEGER' || /^U?INT_/.test(annotation) ? 'integer' : 'other';
    case 'BOOLEAN': return 'boolean';
    default: return 'other';
  }
}

function groupKind(node: SchemaTree): Kind {
  const annotation = node.element.converted_type ?? node.element.logical_type?.type;
  const entry = node.children[0];
  if ((annotation === 'MAP' || annotation === 'MAP_KEY_VALUE') && entry !== undefined) {
    const [key, value] = entry.children;
    return key !== undefined && value !== undefined && kindOf(key) === 'text' && holdsText(value) ? 'map' : 'other';
  }
  if (annotation === 'LIST') return 'list';
  return node.children.every(holdsText) ? 'struct' : 'other';
}

/** A map's value or a struct's field: a string, a number, or a list of strings (a header sent twice). */
function holdsText(node: SchemaTree): boolean {
  const kind = kindOf(node);
  if (kind === 'text' || kind === 'integer') return true;
  if (kind !== 'list') return false;
  const element = node.children[0]?.children[0] ?? node.children[0];
  return element !== undefined && kindOf(element) === 'text';
}

/**
 * A row's values as a JSON line would hold them: 64-bit integers and timestamps as text, an empty
 * string as absent, header names lower-case, a text column of a map field read as its raw query
 * string (`query`) or a JSON object (`headers`, `custom`).
 */
function prepareRow(row: Record<string, unknown>, columns: readonly FieldColumn[]): { record: Record<string, unknown> } | { skip: string } {
  plainInPlace(row);
  const record = row;
  for (const column of columns) {
    if (!(MAP_FIELDS as readonly string[]).includes(column.field)) {
      if (ownValueAt(record, column.keys) === '') setAt(record, column.keys, undefined);
      continue;
    }
    const value = ownValueAt(record, column.keys);
    if (value === undefined || value === null) continue;
    const map = column.kind === 'text' ? textColumnMap(column.field, value as string) : value;
    if (map === undefined) return { skip: `column "${column.keys.join('.')}" (${column.field}) holds no JSON object` };
    setAt(record, column.keys, column.field === 'headers' ? lowerCaseNames(map) : map);
  }
  return { record };
}

function textColumnMap(field: string, text: string): unknown {
  if (field === 'query') return splitTarget(`?${text.startsWith('?') ? text.slice(1) : text}`).query;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function lowerCaseNames(map: unknown): unknown {
  if (typeof map !== 'object' || map === null || Object.keys(map).every((name) => name === name.toLowerCase())) return map;
  const lower = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(map)) lower[name.toLowerCase()] = value;
  return lower;
}

/**
 * Values of the types Parquet decodes to (bigint, Date) as text, in place: the rows are this
 * reader's own, and a row group of them is garbage soon after (copies doubled the collector's work).
 */
function plainInPlace(values: Record<string, unknown> | unknown[]): void {
  for (const key in values) {
    if (!Object.prototype.hasOwnProperty.call(values, key)) continue;
    const value = (values as Record<string, unknown>)[key];
    if (typeof value === 'bigint') (values as Record<string, unknown>)[key] = String(value);
    else if (value instanceof Date) (values as Record<string, unknown>)[key] = Number.isNaN(value.getTime()) ? undefined : value.toISOString();
    else if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value)) plainInPlace(value as Record<string, unknown>);
  }
}

function setAt(record: Record<string, unknown>, keys: readonly string[], value: unknown): void {
  const parent = ownValueAt(record, keys.slice(0, -1));
  if (typeof parent === 'object' && parent !== null) (parent as Record<string, unknown>)[keys.at(-1) ?? ''] = value;
}
