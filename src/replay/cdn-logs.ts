// Text presets (docs/replay.md, "Log formats"): CloudFront standard logs (a `#Fields:` header
// naming tab-separated columns, URL-encoded user agents) and ALB access logs (space-separated,
// the request line and user agent quoted). Neither records a country or an ASN: the report
// says so when a changed rule reads them.
import { UserError } from '../errors.js';
import type { TestRequest } from '../evaluate/request.js';
import type { Carriage } from './coverage.js';
import { percentDecode, splitTarget, splitUrl } from './redact.js';

type Result = { request: TestRequest; carriage?: Carriage } | { skip: string };
/** A line's request, its skip, or undefined for a line that is no request (a header line). */
type TextLineParser = (line: string, number: number) => Result | undefined;

/** CloudFront records these headers (besides the User-Agent, its own field). */
const CLOUDFRONT_CARRIAGE: Carriage = { partialHeaders: ['cookie', 'referer', 'host'], noCustom: true };

/** Whether a first line starts a CloudFront standard log. */
export function isCloudFrontHeader(line: string): boolean {
  return /^#(Version|Fields):/.test(line);
}

/**
 * CloudFront standard logs: `#Version:` and `#Fields:` directives, then one tab-separated line
 * per request in the order `#Fields:` names. `-` is an empty value. The user agent, referer and
 * cookie are URL-encoded once by CloudFront; `cs-uri-query` is the query string as sent.
 */
export function cloudfrontParser(file: string): TextLineParser {
  let columns: Map<string, number> | undefined;
  let count = 0;
  return (line, number) => {
    if (line.startsWith('#')) {
      const fields = /^#Fields:\s*(.*)$/.exec(line);
      if (fields !== null) {
        const names = (fields[1] ?? '').trim().split(/\s+/);
        columns = new Map(names.map((name, index) => [name, index]));
        count = names.length;
      }
      return undefined;
    }
    if (columns === undefined) {
      throw new UserError(`${file}:${number}: a request line before any #Fields: line; a CloudFront standard log starts with #Version: and #Fields: (is this a CloudFront log?)`);
    }
    const cells = line.split('\t');
    if (cells.length !== count) return { skip: 'CloudFront line with a different number of fields than its #Fields: line' };
    const at = columns;
    const cell = (name: string): string | undefined => {
      const index = at.get(name);
      const value = index === undefined ? undefined : cells[index];
      return value === undefined || value === '-' || value === '' ? undefined : value;
    };
    return { request: cloudfrontRequest(cell), carriage: CLOUDFRONT_CARRIAGE };
  };
}

/**
 * A CloudFront record of named values (a standard-logging v2 Parquet row, a JSON line): the
 * same map as the tab-separated log's, its values read as text.
 */
export function cloudfrontRecord(record: Record<string, unknown>): Result {
  const cell = (name: string): string | undefined => {
    const value = Object.prototype.hasOwnProperty.call(record, name) ? record[name] : undefined;
    const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'bigint' ? String(value) : undefined;
    return text === undefined || text === '-' || text === '' ? undefined : text;
  };
  if (!CLOUDFRONT_KEYS.some((key) => cell(key) !== undefined)) return { skip: 'not a CloudFront record (none of its fields)' };
  return { request: cloudfrontRequest(cell), carriage: CLOUDFRONT_CARRIAGE };
}

export const CLOUDFRONT_KEYS = ['c-ip', 'cs-method', 'cs-uri-stem', 'cs-uri-query', 'cs(User-Agent)', 'x-host-header', 'cs(Referer)', 'cs(Cookie)'];

function cloudfrontRequest(cell: (name: string) => string | undefined): TestRequest {
  const request: TestRequest = {};
  const set = (field: 'path' | 'method' | 'userAgent' | 'ip' | 'domain', value: string | undefined) => {
    if (value !== undefined) request[field] = value;
  };
  set('ip', cell('c-ip'));
  set('method', cell('cs-method'));
  set('path', cell('cs-uri-stem'));
  const agent = cell('cs(User-Agent)');
  set('userAgent', agent === undefined ? undefined : percentDecode(agent));
  const host = cell('x-host-header');
  set('domain', host?.toLowerCase());
  const query = cell('cs-uri-query');
  if (query !== undefined) request.query = splitTarget(`?${query}`).query ?? {};
  const headers = Object.create(null) as Record<string, string>;
  const referer = cell('cs(Referer)');
  if (referer !== undefined) headers.referer = percentDecode(referer);
  const cookie = cell('cs(Cookie)');
  if (cookie !== undefined) headers.cookie = percentDecode(cookie);
  if (host !== undefined) headers.host = host;
  if (Object.keys(headers).length > 0) request.headers = headers;
  return request;
}

/** ALB records no header but the User-Agent (its own field). */
const ALB_CARRIAGE: Carriage = { partialHeaders: [], noCustom: true };

/** The request types an ALB log line starts with. */
const ALB_TYPES = /^(?:http|https|h2|grpcs|ws|wss) \d{4}-\d{2}-\d{2}T/;

export function isAlbLine(line: string): boolean {
  return ALB_TYPES.test(line);
}

/**
 * An ALB access-log line: `type time elb client:port target:port … "request" "user_agent" …`;
 * the request line holds the method, the full URL (its host is the domain) and the protocol.
 * A request ALB could not parse is logged as `"- - - "`: no method, no path.
 */
export function albLine(line: string): Result {
  const tokens = albTokens(line);
  if (tokens === undefined || tokens.length < 14 || !isAlbLine(line)) return { skip: 'not an ALB access-log line' };
  const request: TestRequest = {};
  const client = tokens[3] ?? '-';
  const colon = client.lastIndexOf(':');
  if (client !== '-') request.ip = (colon < 0 ? client : client.slice(0, colon)).replace(/^\[|\]$/g, '');
  const [method, url] = (tokens[12] ?? '').split(' ');
  if (method !== undefined && method !== '-' && method !== '') request.method = method;
  if (url !== undefined && url !== '-' && url !== '') {
    const { domain, path, query } = splitUrl(url);
    request.path = path;
    if (query !== undefined) request.query = query;
    if (domain !== undefined) request.domain = domain;
  }
  const agent = tokens[13];
  if (agent !== undefined && agent !== '-' && agent !== '') request.userAgent = agent;
  return { request, carriage: ALB_CARRIAGE };
}

/** Space-separated tokens, a double-quoted token taken whole (`\"` inside it is a quote). */
function albTokens(line: string): string[] | undefined {
  const tokens: string[] = [];
  let at = 0;
  while (at < line.length) {
    if (line[at] === ' ') { at += 1; continue; }
    if (line[at] === '"') {
      let text = '';
      let from = at + 1;
      for (;;) {
        const quote = line.indexOf('"', from);
        if (quote < 0) return undefined;
        if (line[quote - 1] === '\\') { text += `${line.slice(from, quote - 1)}"`; from = quote + 1; continue; }
        text += line.slice(from, quote);
        at = quote + 1;
        break;
      }
      tokens.push(text);
    } else {
      const space = line.indexOf(' ', at);
      const end = space < 0 ? line.length : space;
      tokens.push(line.slice(at, end));
      at = end;
    }
  }
  return tokens;
}
