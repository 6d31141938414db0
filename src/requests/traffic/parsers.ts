// Which parser reads a log file (docs/replay.md, "Log formats"): the format named with
// --log-format, else told from the file's name, else from its first line (a `#Fields:` header,
// a HAR's opening, a JSON object, an ALB or access-log line). Each parser takes one line and
// its number and gives a request, a skip, or nothing for a line that is no request (a header).
import { UserError } from '../../errors.js';
import { albLine, cloudfrontParser, isAlbLine, isCloudFrontHeader } from './cdn-logs.js';
import { accessLogLine, csvColumns, csvLine, isAccessLogLine, ndjsonReader, type FieldMapping, type LineResult, type LogFormat } from './formats.js';
import { isHarStart } from './har.js';
import { REQUEST_FIELDS } from './coverage.js';
import { cloudflareLine, humanLine, parseObject, presetForKeys, type IpField, type RecordedDecision } from './presets.js';

export type LineParser = (line: string, number: number) => LineResult | undefined;

export interface ParserOptions {
  format?: LogFormat;
  fields?: FieldMapping;
  ipField?: IpField;
  /** Where a JSON log records production's decision (botrules.yaml `replay.decision`): dotted paths. */
  decision?: DecisionMapping;
}

/** `replay.decision`: the keys of a JSON log's decision, as dotted paths (`type` required). */
export interface DecisionMapping {
  type: string;
  origin?: string;
  filterId?: string;
  simulatedBlock?: string;
}

/** The format of a file: named, else by its name, else by its first non-empty line. */
export function formatOf(file: string, firstLine: string, format: LogFormat | undefined): LogFormat | undefined {
  if (format !== undefined) return format;
  const name = file.toLowerCase().replace(/\.gz$/, '');
  if (name.endsWith('.har')) return 'har';
  if (isCloudFrontHeader(firstLine)) return 'cloudfront';
  if (/\.(ndjson|jsonl|json)$/.test(name)) return isHarStart(firstLine) ? 'har' : jsonFormat(firstLine);
  if (name.endsWith('.csv')) return 'csv';
  if (isHarStart(firstLine)) return 'har';
  if (firstLine.trimStart().startsWith('{')) return jsonFormat(firstLine);
  if (isAlbLine(firstLine)) return 'alb';
  if (isAccessLogLine(firstLine)) return 'combined';
  return undefined;
}

/**
 * A JSON line of a preset is told by keys that only it writes: Cloudflare's `Client…` names
 * (when no request field name is among its keys), the Data Export's `px_app_id`.
 */
function jsonFormat(firstLine: string): 'ndjson' | 'cloudflare' | 'human' {
  const parsed = parseObject(firstLine);
  if ('skip' in parsed) return 'ndjson';
  const keys = Object.keys(parsed.record);
  const preset = presetForKeys(keys);
  if (preset === 'human' && keys.includes('px_app_id')) return 'human';
  if (preset === 'cloudflare' && !keys.some((key) => (REQUEST_FIELDS as readonly string[]).includes(key))) return 'cloudflare';
  return 'ndjson';
}

/** The line parser of a line-based format (not HAR, read whole), with `replay.decision` read beside a JSON format's fields. */
export function lineParser(file: string, format: Exclude<LogFormat, 'har'>, options: ParserOptions): LineParser {
  const parse = formatParser(file, format, options);
  const { decision } = options;
  if (decision === undefined || (format !== 'ndjson' && format !== 'cloudflare' && format !== 'human')) return parse;
  return (line, number) => {
    const result = parse(line, number);
    if (result === undefined || 'skip' in result) return result;
    const parsed = parseObject(line);
    const recorded = 'skip' in parsed ? undefined : decisionOf(parsed.record, decision);
    return recorded === undefined ? result : { ...result, decision: recorded };
  };
}

function decisionOf(record: Record<string, unknown>, mapping: DecisionMapping): RecordedDecision | undefined {
  const at = (path: string | undefined): unknown => {
    if (path === undefined) return undefined;
    let value: unknown = record;
    for (const key of path.split('.')) {
      if (typeof value !== 'object' || value === null || !Object.prototype.hasOwnProperty.call(value, key)) return undefined;
      value = (value as Record<string, unknown>)[key];
    }
    return value;
  };
  const text = (path: string | undefined): string | undefined => {
    const value = at(path);
    return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
  };
  const type = text(mapping.type);
  if (type === undefined) return undefined;
  const origin = text(mapping.origin);
  const filterId = text(mapping.filterId);
  const simulated = at(mapping.simulatedBlock);
  return { type, simulatedBlock: simulated === true || simulated === 'true', ...(origin === undefined ? {} : { origin }), ...(filterId === undefined ? {} : { filterId }) };
}

function formatParser(file: string, format: Exclude<LogFormat, 'har'>, options: ParserOptions): LineParser {
  switch (format) {
    case 'ndjson': {
      const { preset, ...named } = options.fields ?? {};
      if (preset === 'cloudflare' || preset === 'human') return presetWithFields(preset, named, options.ipField);
      const read = ndjsonReader(options.fields);
      return (line) => read(line);
    }
    case 'combined': return (line) => accessLogLine(line);
    case 'cloudfront': return cloudfrontParser(file);
    case 'alb': return (line) => albLine(line);
    case 'cloudflare': return (line) => cloudflareLine(line);
    case 'human': return (line) => humanLine(line, options.ipField);
    case 'csv': return csvParser(file);
  }
}

/**
 * `replay.fields` starting from a JSON preset: the preset's map, then each field named beside
 * it read from its dotted path instead (when the line has it).
 */
function presetWithFields(preset: 'cloudflare' | 'human', named: FieldMapping, ipField: IpField | undefined): LineParser {
  const base = preset === 'cloudflare' ? cloudflareLine : (line: string) => humanLine(line, ipField);
  if (Object.keys(named).length === 0) return (line) => base(line);
  const overlay = ndjsonReader(Object.fromEntries(REQUEST_FIELDS.map((field) => [field, named[field] ?? UNMAPPED])));
  return (line) => {
    const result = base(line);
    if ('skip' in result) return result;
    const mapped = overlay(line);
    if ('skip' in mapped) return mapped;
    Object.assign(result.request, mapped.request);
    return result;
  };
}

/** A dotted path no JSON key can hold: a field the overlay leaves to the preset. */
const UNMAPPED = '\u0000';

/** A CSV file's first line is its header row, naming the fields of the lines after it. */
function csvParser(file: string): LineParser {
  let columns: ReturnType<typeof csvColumns>;
  return (line, number) => {
    if (columns !== undefined) return csvLine(line, columns);
    columns = csvColumns(line);
    if (columns === undefined || columns.every((column) => column === undefined)) {
      throw new UserError(`${file}:${number}: the CSV header row names none of the request fields (path, method, userAgent, ip, asn, country, domain, deviceType, headers.NAME, query.NAME, custom.NAME)`);
    }
    return undefined;
  };
}
