// JSON presets (docs/replay.md, "Log formats"): Cloudflare Logpush `http_requests` and the
// service's own Data Export, each a fixed map from the log's keys onto the request fields.
// Values are normalised later, with every other format's (coverage.ts); here each key is read
// in the shape the format writes it, and a line carrying none of the format's keys is a skip
// (the file is then not the format named).
import type { TestRequest } from '../evaluate/request.js';
import type { Carriage } from './coverage.js';
import { splitUrl } from './redact.js';

/** The decision production took for a request, as a log that records it says (the Data Export's fields). */
export interface RecordedDecision {
  /** `legitimate`, `block`, `captcha`, … as written. */
  type: string;
  simulatedBlock: boolean;
  /** Who decided: `customer` for a custom rule, else the service itself. */
  origin?: string;
  /** The deciding filter's id (a custom rule's id when origin is customer). */
  filterId?: string;
}

type JsonLineResult = { request: TestRequest; carriage?: Carriage; keys?: string[]; decision?: RecordedDecision } | { skip: string };

/** Which Data Export address stands for the rules' `socketIps` (docs/replay.md, "Presets: the logs users have"). */
export type IpField = 'client_ip' | 'true_ip';
const DEFAULT_IP_FIELD: IpField = 'client_ip';

export type JsonRecord = Record<string, unknown>;

export function parseObject(line: string): { record: JsonRecord } | { skip: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return { skip: 'not JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { skip: 'not a JSON object' };
  return { record: parsed as JsonRecord };
}

const own = (record: JsonRecord, key: string): unknown => (Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined);

/** A text value ('' and `-` are absent, numbers count as text). */
function text(record: JsonRecord, key: string): string | undefined {
  const value = own(record, key);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'string' && value !== '' && value !== '-' ? value : undefined;
}

function textMap(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const map = Object.create(null) as Record<string, string>;
  for (const [name, item] of Object.entries(value as JsonRecord)) {
    if (typeof item === 'string' || typeof item === 'number') map[name.toLowerCase()] = String(item);
  }
  return map;
}

function put<K extends keyof TestRequest>(request: TestRequest, field: K, value: TestRequest[K] | undefined): void {
  if (value !== undefined) request[field] = value;
}

export const CLOUDFLARE_KEYS = ['ClientRequestPath', 'ClientRequestURI', 'ClientRequestMethod', 'ClientRequestUserAgent', 'ClientIP', 'ClientASN', 'ClientCountry', 'ClientDeviceType', 'ClientRequestHost', 'RequestHeaders', 'ClientRequestReferer', 'Cookies'];

/**
 * A Logpush `http_requests` record (a line's object, a Parquet row) as a request:
 * `ClientRequestURI` (path and query) or `ClientRequestPath`, `ClientRequestMethod`,
 * `ClientRequestUserAgent`, `ClientIP`, `ClientASN` (a number), `ClientCountry` (lower case),
 * `ClientDeviceType`, `ClientRequestHost`, and as headers `RequestHeaders` (the headers the job
 * was told to log), `ClientRequestReferer` and `Cookies`.
 */
export function cloudflareRecord(record: JsonRecord): JsonLineResult {
  if (!CLOUDFLARE_KEYS.some((key) => own(record, key) !== undefined)) return { skip: 'not a Cloudflare http_requests line (none of its fields)' };
  const uri = text(record, 'ClientRequestURI');
  const target: { path?: string; query?: Record<string, string> } = uri === undefined ? { path: text(record, 'ClientRequestPath') } : splitUrl(uri);
  const request: TestRequest = {};
  put(request, 'path', target.path);
  put(request, 'query', target.query);
  put(request, 'method', text(record, 'ClientRequestMethod'));
  put(request, 'userAgent', text(record, 'ClientRequestUserAgent'));
  put(request, 'ip', text(record, 'ClientIP'));
  put(request, 'asn', text(record, 'ClientASN'));
  put(request, 'country', text(record, 'ClientCountry'));
  put(request, 'deviceType', text(record, 'ClientDeviceType'));
  put(request, 'domain', text(record, 'ClientRequestHost')?.toLowerCase());
  const headers = textMap(own(record, 'RequestHeaders')) ?? (Object.create(null) as Record<string, string>);
  const referer = text(record, 'ClientRequestReferer');
  if (referer !== undefined) headers.referer = referer;
  const cookies = textMap(own(record, 'Cookies'));
  if (cookies !== undefined) headers.cookie = Object.entries(cookies).map(([name, value]) => `${name}=${value}`).join('; ');
  const recorded = Object.keys(headers);
  if (recorded.length > 0) request.headers = headers;
  return { request, carriage: { partialHeaders: recorded, noCustom: true } };
}

export const HUMAN_KEYS = ['path', 'full_url', 'http_method', 'user_agent', 'client_ip', 'true_ip', 'px_app_id', 'request_id', 'country', 'domain'];

/**
 * A Data Export record (a line's object, a Parquet row) as a request: `full_url` (or `path`),
 * `http_method`, `user_agent`, `client_ip` or `true_ip` (the setting), `country`, `domain`,
 * `referrer` as the Referer, and `custom_parameter1` … `custom_parameter10` as custom parameters
 * of the same names. The ASN is recorded by name only (`true_ip_asn_name`), so it is not
 * carried. The decision production took comes with it.
 */
export function humanRecord(record: JsonRecord, ipField: IpField = DEFAULT_IP_FIELD): JsonLineResult {
  if (!HUMAN_KEYS.some((key) => own(record, key) !== undefined)) return { skip: 'not a Data Export line (none of its fields)' };
  const url = text(record, 'full_url');
  const target = url === undefined ? splitUrl(text(record, 'path') ?? '') : splitUrl(url);
  const request: TestRequest = {};
  if (target.path !== '') request.path = target.path;
  put(request, 'query', target.query);
  put(request, 'method', text(record, 'http_method'));
  put(request, 'userAgent', text(record, 'user_agent'));
  put(request, 'ip', text(record, ipField));
  put(request, 'country', text(record, 'country'));
  put(request, 'domain', text(record, 'domain')?.toLowerCase() ?? target.domain);
  const referrer = text(record, 'referrer');
  if (referrer !== undefined) request.headers = { referer: referrer };
  const custom = Object.create(null) as Record<string, string>;
  for (let n = 1; n <= 10; n++) {
    const value = text(record, `custom_parameter${n}`);
    if (value !== undefined) custom[`custom_parameter${n}`] = value;
  }
  if (Object.keys(custom).length > 0) request.custom = custom;
  const decision = recordedDecision(record);
  return { request, carriage: { partialHeaders: ['referer'] }, ...(decision === undefined ? {} : { decision }) };
}

function recordedDecision(record: JsonRecord): RecordedDecision | undefined {
  const type = text(record, 'type');
  return type === undefined ? undefined : decisionOfFields(type, own(record, 'simulated_block'), text(record, 'filter_origin'), text(record, 'filter_id'));
}

/** The decision of a log's fields, as the Data Export and a mapped log alike write them: a simulated block is `true` or `"true"`. */
export function decisionOfFields(type: string, simulated: unknown, origin: string | undefined, filterId: string | undefined): RecordedDecision {
  return { type, simulatedBlock: simulated === true || simulated === 'true', ...(origin === undefined ? {} : { origin }), ...(filterId === undefined ? {} : { filterId }) };
}

/** A key each JSON preset's lines carry, that no other format uses. */
const PRESET_KEYS: readonly (readonly [string, string])[] = [
  ['ClientRequestPath', 'cloudflare'], ['ClientRequestURI', 'cloudflare'], ['ClientIP', 'cloudflare'],
  ['px_app_id', 'human'], ['true_ip', 'human'], ['http_method', 'human'], ['full_url', 'human'],
  ['cs-uri-stem', 'cloudfront'], ['log', 'har'],
];

/** The preset whose keys a line carries, if one does. */
export function presetForKeys(keys: readonly string[]): string | undefined {
  return PRESET_KEYS.find(([key]) => keys.includes(key))?.[1];
}
