// The synthetic traffic written in each log format replay reads (docs/replay.md, "Synthetic
// traffic"): the same requests as NDJSON, CSV, an access log, CloudFront and ALB logs, Cloudflare
// Logpush, the service's Data Export and HAR (and Parquet, traffic-parquet.ts), each with what that format records and no more
// (an access log has no country; a Data Export has no ASN number), so a replay of each shows
// what the format can and cannot decide.
import { definedFields } from '../defined.js';

/** A request as a log line holds it (the field names of docs/evaluation.md). */
export interface TrafficRequest {
  path: string;
  method: string;
  userAgent: string;
  ip: string;
  asn: string;
  country: string;
  domain: string;
  deviceType: string;
  headers: Record<string, string>;
  query?: Record<string, string>;
  custom?: Record<string, string>;
}

export const TRAFFIC_FORMATS = ['ndjson', 'csv', 'combined', 'cloudfront', 'alb', 'cloudflare', 'human', 'har', 'parquet'] as const;
export type TrafficFormat = (typeof TRAFFIC_FORMATS)[number];

/** How a format writes a log: an opening, one piece per request, a closing. */
interface TrafficWriter {
  start: string;
  request(request: TrafficRequest, i: number): string;
  end: string;
}

/** The requests' time: one second apart from a fixed start, so a seed always writes the same file. */
const START = Date.UTC(2026, 10, 20, 8, 0, 0);
export const timeOf = (i: number) => new Date(START + i * 1000);

const queryString = (query: Record<string, string> | undefined) =>
  query === undefined ? '' : Object.entries(query).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
const target = (request: TrafficRequest) => (request.query === undefined ? request.path : `${request.path}?${queryString(request.query)}`);

/** The header and parameter columns of the CSV format: every name the generator writes. */
const CSV_COLUMNS = ['path', 'method', 'userAgent', 'ip', 'asn', 'country', 'domain', 'deviceType',
  'headers.accept-language', 'headers.referer', 'headers.x-monitor', 'headers.x-partner-key', 'query.q', 'query.page', 'query.coupon', 'custom.session_age'];

function csvCell(text: string | undefined): string {
  if (text === undefined) return '';
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvRow(request: TrafficRequest): string {
  return CSV_COLUMNS.map((column) => {
    const [group, name] = column.split('.') as [string, string | undefined];
    if (name === undefined) return csvCell((request as unknown as Record<string, string>)[column]);
    return csvCell((request[group as 'headers' | 'query' | 'custom'] ?? {})[name]);
  }).join(',');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

function combinedLine(request: TrafficRequest, i: number): string {
  const t = timeOf(i);
  const when = `${pad(t.getUTCDate())}/${MONTHS[t.getUTCMonth()] ?? ''}/${t.getUTCFullYear()}:${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())} +0000`;
  const quoted = (text: string | undefined) => (text === undefined ? '-' : text.replace(/\\/g, '\\\\').replace(/"/g, '\\"'));
  return `${request.ip} - - [${when}] "${request.method} ${target(request)} HTTP/1.1" 200 ${1000 + (i % 5000)} "${quoted(request.headers.referer)}" "${quoted(request.userAgent)}"`;
}

const CLOUDFRONT_FIELDS = ['date', 'time', 'x-edge-location', 'sc-bytes', 'c-ip', 'cs-method', 'cs(Host)', 'cs-uri-stem', 'sc-status', 'cs(Referer)', 'cs(User-Agent)', 'cs-uri-query', 'cs(Cookie)', 'x-edge-result-type', 'x-edge-request-id', 'x-host-header', 'cs-protocol', 'cs-bytes', 'time-taken'];

function cloudfrontLine(request: TrafficRequest, i: number): string {
  const iso = timeOf(i).toISOString();
  const dash = (text: string | undefined) => (text === undefined || text === '' ? '-' : encodeURIComponent(text).replace(/%2F/g, '/').replace(/%3A/g, ':'));
  return [iso.slice(0, 10), iso.slice(11, 19), 'FRA56-P1', String(1000 + (i % 5000)), request.ip, request.method, 'd111111abcdef8.cloudfront.net', request.path, '200',
    dash(request.headers.referer), dash(request.userAgent), request.query === undefined ? '-' : queryString(request.query), '-', 'Miss',
    `SYNTH${String(i).padStart(10, '0')}==`, request.domain, 'https', '300', '0.010'].join('\t');
}

function albLine(request: TrafficRequest, i: number): string {
  const iso = timeOf(i).toISOString().replace('Z', '000Z');
  const quoted = (text: string) => text.replace(/"/g, '\\"');
  return `https ${iso} app/shop-alb/50dc6c495c0c9188 ${request.ip}:${40000 + (i % 20000)} 10.0.1.1:80 0.000 0.010 0.000 200 200 300 ${1000 + (i % 5000)} ` +
    `"${request.method} https://${request.domain}:443${target(request)} HTTP/1.1" "${quoted(request.userAgent)}" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 ` +
    `arn:aws:elasticloadbalancing:eu-central-1:123456789012:targetgroup/shop/73e2d6bc24d8a067 "Root=1-${i.toString(16).padStart(8, '0')}-synthetic" "${request.domain}" "-" 0 ${iso} "forward" "-" "-" "10.0.1.1:80" "200" "-" "-" TID_${i}`;
}

function cloudflareLine(request: TrafficRequest, i: number): string {
  const { referer, ...others } = request.headers;
  return JSON.stringify({
    ClientIP: request.ip, ClientRequestHost: request.domain, ClientRequestMethod: request.method, ClientRequestURI: target(request), ClientRequestPath: request.path,
    ClientRequestUserAgent: request.userAgent, ClientASN: Number(request.asn), ClientCountry: request.country.toLowerCase(), ClientDeviceType: request.deviceType,
    ClientRequestReferer: referer ?? '', RequestHeaders: others, EdgeResponseStatus: 200, EdgeStartTimestamp: timeOf(i).toISOString(), RayID: `8e${i.toString(16).padStart(14, '0')}`,
  });
}

function humanLine(request: TrafficRequest, i: number): string {
  return JSON.stringify({
    px_app_id: 'PXshop', request_id: `synthetic-${i}`, timestamp: timeOf(i).toISOString(), domain: request.domain, path: request.path,
    full_url: `https://${request.domain}${target(request)}`, http_method: request.method, user_agent: request.userAgent, client_ip: request.ip, true_ip: request.ip,
    true_ip_asn_name: `AS${request.asn}-NET`, country: request.country, referrer: request.headers.referer ?? '',
    ...definedFields({ custom_parameter1: request.custom?.session_age }),
  });
}

function harEntry(request: TrafficRequest, i: number): string {
  const headers = [{ name: ':authority', value: request.domain }, { name: 'user-agent', value: request.userAgent }, ...Object.entries(request.headers).map(([name, value]) => ({ name, value }))];
  const entry = {
    startedDateTime: timeOf(i).toISOString(), time: 10,
    request: { method: request.method, url: `https://${request.domain}${target(request)}`, httpVersion: 'HTTP/2', headers, queryString: Object.entries(request.query ?? {}).map(([name, value]) => ({ name, value })), cookies: [], headersSize: -1, bodySize: 0 },
    response: { status: 200, statusText: '', httpVersion: 'HTTP/2', headers: [], cookies: [], content: { size: 0, mimeType: 'text/html' }, redirectURL: '', headersSize: -1, bodySize: 0 },
    cache: {}, timings: { send: 0, wait: 9, receive: 1 },
  };
  return `${i === 0 ? '' : ',\n'}    ${JSON.stringify(entry)}`;
}

const line = (write: (request: TrafficRequest, i: number) => string) => (request: TrafficRequest, i: number) => `${write(request, i)}\n`;

/** The writer of a text format (Parquet is binary: traffic-parquet.ts). */
export function trafficWriter(format: Exclude<TrafficFormat, 'parquet'>): TrafficWriter {
  switch (format) {
    case 'ndjson': return { start: '', request: line((request) => JSON.stringify(request)), end: '' };
    case 'csv': return { start: `${CSV_COLUMNS.join(',')}\n`, request: line(csvRow), end: '' };
    case 'combined': return { start: '', request: line(combinedLine), end: '' };
    case 'cloudfront': return { start: `#Version: 1.0\n#Fields: ${CLOUDFRONT_FIELDS.join(' ')}\n`, request: line(cloudfrontLine), end: '' };
    case 'alb': return { start: '', request: line(albLine), end: '' };
    case 'cloudflare': return { start: '', request: line(cloudflareLine), end: '' };
    case 'human': return { start: '', request: line(humanLine), end: '' };
    case 'har': return { start: '{\n  "log": {\n    "version": "1.2",\n    "creator": { "name": "botrules emulator", "version": "1" },\n    "entries": [\n', request: harEntry, end: '\n    ]\n  }\n}\n' };
  }
}
