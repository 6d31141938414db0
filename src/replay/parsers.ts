// Which parser reads a log file (docs/replay.md, "Log formats"): the format named with
// --log-format, else told from the file's name, else from its first line (a `#Fields:` header,
// a HAR's opening, a JSON object, an ALB or access-log line). Each parser takes one line and
// its number and gives a request, a skip, or nothing for a line that is no request (a header).
import { UserError } from '../errors.js';
import { albLine, cloudfrontParser, cloudfrontRecord, isAlbLine, isCloudFrontHeader } from './cdn-logs.js';
import { accessLogLine, csvColumns, csvLine, isAccessLogLine, recordReader, ownValueAt, type FieldMapping, type LineResult, type LogFormat } from './formats.js';
import { isHarStart } from './har.js';
import { REQUEST_FIELDS } from './coverage.js';
import { cloudflareRecord, decisionOfFields, humanRecord, parseObject, presetForKeys, type IpField, type JsonRecord, type RecordedDecision } from './presets.js';

export type LineParser = (line: string, number: number) => LineResult | undefined;
/** A reader of one record: a JSON line's object or a Parquet row. */
export type RecordParser = (record: JsonRecord) => LineResult;
/** The formats whose requests are records of named keys (JSON lines, Parquet rows). */
export type RecordFormat = 'ndjson' | 'cloudflare' | 'human' | 'cloudfront';
/** The presets `replay.fields` can start from. */
const FIELD_PRESETS: readonly string[] = ['cloudflare', 'human', 'cloudfront'];

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
  if (name.endsWith('.parquet')) return 'parquet';
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
  const format = recordFormatOf(Object.keys(parsed.record));
  return format === 'cloudfront' ? 'ndjson' : format;
}

/**
 * The preset whose keys a record carries (a JSON line's keys, a Parquet file's columns): the
 * Data Export with `px_app_id`; Cloudflare's or CloudFront's names when no request field name
 * is among the keys; else the request fields by their own names.
 */
export function recordFormatOf(keys: readonly string[]): RecordFormat {
  const preset = presetForKeys(keys);
  if (preset === 'human' && keys.includes('px_app_id')) return 'human';
  const ownNames = keys.some((key) => (REQUEST_FIELDS as readonly string[]).includes(key));
  if ((preset === 'cloudflare' || preset === 'cloudfront') && !ownNames) return preset;
  return 'ndjson';
}

/** The line parser of a line-based format (not HAR, read whole; not Parquet, read by row group). */
export function lineParser(file: string, format: Exclude<LogFormat, 'har' | 'parquet'>, options: ParserOptions): LineParser {
  if (format !== 'ndjson' && format !== 'cloudflare' && format !== 'human') return formatParser(file, format);
  const read = recordParser(format, options);
  return (line) => {
    const parsed = parseObject(line);
    return 'skip' in parsed ? parsed : read(parsed.record);
  };
}

/**
 * The reader of a record format: a preset's map, or the fields' dotted paths (`replay.fields`,
 * which can start from a preset), with production's decision where `replay.decision` says.
 */
export function recordParser(format: RecordFormat, options: ParserOptions): RecordParser {
  const read = baseRecordParser(format, options);
  const { decision } = options;
  if (decision === undefined) return read;
  return (record) => {
    const result = read(record);
    if ('skip' in result) return result;
    const recorded = decisionOf(record, decision);
    return recorded === undefined ? result : { ...result, decision: recorded };
  };
}

function baseRecordParser(format: RecordFormat, options: ParserOptions): RecordParser {
  switch (format) {
    case 'ndjson': {
      const { preset, ...named } = options.fields ?? {};
      if (preset !== undefined && FIELD_PRESETS.includes(preset)) return presetWithFields(presetParser(preset as Exclude<RecordFormat, 'ndjson'>, options.ipField), named);
      return recordReader(options.fields);
    }
    default: return presetParser(format, options.ipField);
  }
}

function presetParser(preset: Exclude<RecordFormat, 'ndjson'>, ipField: IpField | undefined): RecordParser {
  switch (preset) {
    case 'cloudflare': return cloudflareRecord;
    case 'human': return (record) => humanRecord(record, ipField);
    case 'cloudfront': return cloudfrontRecord;
  }
}

function decisionOf(record: Record<string, unknown>, mapping: DecisionMapping): RecordedDecision | undefined {
  const at = (path: string | undefined): unknown => (path === undefined ? undefined : ownValueAt(record, path.split('.')));
  const text = (path: string | undefined): string | undefined => {
    const value = at(path);
    return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
  };
  const type = text(mapping.type);
  return type === undefined ? undefined : decisionOfFields(type, at(mapping.simulatedBlock), text(mapping.origin), text(mapping.filterId));
}

function formatParser(file: string, format: 'csv' | 'combined' | 'cloudfront' | 'alb'): LineParser {
  switch (format) {
    case 'combined': return (line) => accessLogLine(line);
    case 'cloudfront': return cloudfrontParser(file);
    case 'alb': return (line) => albLine(line);
    case 'csv': return csvParser(file);
  }
}

/**
 * `replay.fields` starting from a preset: the preset's map, then each field named beside it
 * read from its dotted path instead (when the record has it).
 */
function presetWithFields(base: RecordParser, named: FieldMapping): RecordParser {
  if (Object.keys(named).length === 0) return base;
  const overlay = recordReader(Object.fromEntries(REQUEST_FIELDS.map((field) => [field, named[field] ?? UNMAPPED])));
  return (record) => {
    const result = base(record);
    if ('skip' in result) return result;
    const mapped = overlay(record);
    if ('skip' in mapped) return mapped;
    Object.assign(result.request, mapped.request);
    return result;
  };
}

/** A dotted path no key can hold: a field the overlay leaves to the preset. */
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
