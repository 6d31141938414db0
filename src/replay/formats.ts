// One log line as a request (docs/replay.md, "Log formats"): NDJSON objects with the request
// field names of docs/evaluation.md, CSV rows under a header row naming those fields, and the
// common/combined access-log format. A line that cannot be read is a skip with a fixed reason,
// never an error: logs are large and a few bad lines must not stop a replay.
import type { TestRequest } from '../evaluate/request.js';
import { MAP_FIELDS, TEXT_FIELDS, type Carriage, type MapField, type TextField } from './coverage.js';
import type { RecordedDecision } from './presets.js';
import { splitTarget } from './redact.js';

export const LOG_FORMATS = ['ndjson', 'csv', 'combined', 'cloudfront', 'alb', 'cloudflare', 'human', 'har', 'parquet'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * A line read as a request, or why it was skipped (a fixed sentence: reasons are counted). A
 * request may say what its format records (`carriage`) and, when it carries no request field,
 * the keys its line had (`keys`), for the report's mapping hint.
 */
export type LineResult = { request: TestRequest; carriage?: Carriage; keys?: string[]; decision?: RecordedDecision } | { skip: string };

const isTextField = (name: string): name is TextField => (TEXT_FIELDS as readonly string[]).includes(name);
const isMapField = (name: string): name is MapField => (MAP_FIELDS as readonly string[]).includes(name);

/** Where an NDJSON line keeps each request field: a dotted path into the object, by field name. */
export type FieldMapping = Readonly<Record<string, string>>;

/** A reader of records (an NDJSON line's object, a Parquet row) under a mapping: dotted paths by field name. */
export function recordReader(mapping: FieldMapping = {}): (record: Record<string, unknown>) => LineResult {
  // Without a mapping every field is read by its own name: the direct reader (the common, fast case).
  if ([...TEXT_FIELDS, ...MAP_FIELDS].every((field) => (mapping[field] ?? field) === field)) return (record) => recordRequest(record);
  const paths: Readonly<Record<string, readonly string[]>> = Object.fromEntries([...TEXT_FIELDS, ...MAP_FIELDS].map((field) => [field, (mapping[field] ?? field).split('.')]));
  return (record) => recordRequest(record, (from, field) => ownValueAt(from, paths[field] ?? [field]));
}

/** The value at a dotted path's keys in a record (own keys only), or undefined. */
export function ownValueAt(record: Record<string, unknown>, keys: readonly string[]): unknown {
  let value: unknown = record;
  for (const key of keys) {
    if (typeof value !== 'object' || value === null || !Object.prototype.hasOwnProperty.call(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

const ownField = (record: Record<string, unknown>, field: string): unknown =>
  (Object.prototype.hasOwnProperty.call(record, field) ? record[field] : undefined);

/**
 * A record's request (an NDJSON line's object): each field where `fieldOf` finds it (its own
 * name by default); unknown keys are ignored, numbers count as text (`"asn": 13335`).
 */
export function recordRequest(record: Record<string, unknown>, fieldOf: (record: Record<string, unknown>, field: string) => unknown = ownField): LineResult {
  const request: TestRequest = {};
  for (const field of TEXT_FIELDS) {
    const value = fieldOf(record, field);
    if (value === undefined || value === null) continue;
    const text = scalarText(value);
    if (text === undefined) return { skip: `"${field}" is not text` };
    request[field] = text;
  }
  for (const field of MAP_FIELDS) {
    const value = fieldOf(record, field);
    if (value === undefined || value === null) continue;
    const map = textMap(value);
    if (map === undefined) return { skip: `"${field}" is not an object of texts` };
    request[field] = map;
  }
  const result = withQueryFromPath(request);
  // An object none of whose keys maps to a field: its keys tell the user what to map.
  if (Object.keys(request).length === 0) return { request, keys: Object.keys(record) };
  return result;
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** Header values a pipeline logged as a list (`["a", "b"]`) join as HTTP joins them: `a, b`. */
function textMap(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const map: Record<string, string> = Object.create(null) as Record<string, string>;
  const record = value as Record<string, unknown>;
  // for…in over own keys: no entry arrays per header (a JSON object has no inherited enumerable keys).
  for (const name in record) {
    if (!Object.prototype.hasOwnProperty.call(record, name)) continue;
    const item = record[name];
    const text = Array.isArray(item) ? joinTexts(item) : scalarText(item);
    if (text === undefined) return undefined;
    map[name] = text;
  }
  return map;
}

function joinTexts(items: readonly unknown[]): string | undefined {
  const texts = items.map(scalarText);
  return texts.every((text) => text !== undefined) ? texts.join(', ') : undefined;
}

/** A path logged with its query string: the query becomes parameters (so secrets in it are masked). */
function withQueryFromPath(request: TestRequest): LineResult {
  if (request.path === undefined || !request.path.includes('?')) return { request };
  const { path, query } = splitTarget(request.path);
  request.path = path;
  request.query = { ...query, ...request.query };
  return { request };
}

/** A CSV file's header row, read once: each column's field (`path`, `headers.x-monitor`, …). */
type CsvColumns = ({ text: TextField } | { map: MapField; name: string } | undefined)[];

/** The columns of a header row; a column with an unknown name is ignored (undefined). */
export function csvColumns(header: string): CsvColumns | undefined {
  const cells = csvCells(header);
  if (cells === undefined) return undefined;
  return cells.map((cell) => {
    const name = cell.trim();
    if (isTextField(name)) return { text: name };
    const dot = name.indexOf('.');
    const group = name.slice(0, dot);
    return dot > 0 && isMapField(group) ? { map: group, name: name.slice(dot + 1) } : undefined;
  });
}

/** A CSV row under `columns`; an empty cell is an absent field. */
export function csvLine(line: string, columns: CsvColumns): LineResult {
  const cells = csvCells(line);
  if (cells === undefined) return { skip: 'not a CSV row (unbalanced quotes)' };
  if (cells.length !== columns.length) return { skip: 'CSV row with a different number of cells than the header' };
  const request: TestRequest = {};
  cells.forEach((cell, index) => {
    const column = columns[index];
    if (column === undefined || cell === '') return;
    if ('text' in column) request[column.text] = cell;
    else (request[column.map] ??= Object.create(null) as Record<string, string>)[column.name] = cell;
  });
  return withQueryFromPath(request);
}

/** RFC 4180 cells of one line (quoted cells with `""` escapes); undefined when quotes do not balance. */
export function csvCells(line: string): string[] | undefined {
  const cells: string[] = [];
  let at = 0;
  for (;;) {
    if (line[at] === '"') {
      let text = '';
      let from = at + 1;
      for (;;) {
        const quote = line.indexOf('"', from);
        if (quote < 0) return undefined;
        text += line.slice(from, quote);
        if (line[quote + 1] === '"') { text += '"'; from = quote + 2; continue; }
        at = quote + 1;
        break;
      }
      cells.push(text);
      if (at === line.length) return cells;
      if (line[at] !== ',') return undefined;
      at += 1;
    } else {
      const comma = line.indexOf(',', at);
      if (comma < 0) { cells.push(line.slice(at)); return cells; }
      cells.push(line.slice(at, comma));
      at = comma + 1;
    }
  }
}

/**
 * The common and combined log formats (Apache, nginx): `IP - user [time] "METHOD TARGET
 * PROTOCOL" status size`, then, combined, `"referer" "user-agent"`. Quotes inside are escaped
 * `\"` as nginx and Apache write them.
 */
const ACCESS_LOG = /^(\S+) \S+ \S+ \[[^\]]*\] "(\S+) (\S+)(?: [^"\\]*)?" \d{3} \S+(?: "((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)")?/;

export function isAccessLogLine(line: string): boolean {
  return ACCESS_LOG.test(line);
}

export function accessLogLine(line: string): LineResult {
  const match = ACCESS_LOG.exec(line);
  if (match === null) return { skip: 'not a common or combined access-log line' };
  const [, ip = '', method = '', target = '', referer, agent] = match;
  const { path, query } = splitTarget(target);
  const request: TestRequest = { ip, method, path };
  if (query !== undefined) request.query = query;
  if (agent !== undefined && agent !== '-') request.userAgent = unescapeLogText(agent);
  if (referer !== undefined && referer !== '-') request.headers = { referer: unescapeLogText(referer) };
  return { request, carriage: agent === undefined ? COMMON_CARRIAGE : COMBINED_CARRIAGE };
}

/** The combined format records the Referer header (and the User-Agent, as its own field); the common one no header. */
const COMBINED_CARRIAGE: Carriage = { partialHeaders: ['referer'], noCustom: true };
const COMMON_CARRIAGE: Carriage = { partialHeaders: [], noCustom: true };

/** `\"`, `\\` and `\xHH` as access logs escape them. */
function unescapeLogText(text: string): string {
  return text.replace(/\\(x[0-9a-fA-F]{2}|.)/g, (_, escaped: string) =>
    escaped.length === 3 ? String.fromCharCode(parseInt(escaped.slice(1), 16)) : escaped);
}
