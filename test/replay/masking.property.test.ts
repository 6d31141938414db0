// Generated secrets in every carrier a log line can hold them in — a query string, a fragment,
// a redirect URL nested (percent-encoded) in a parameter, a Referer, a Bearer credential with
// an encoded tail, a percent-encoded parameter name, Cookie and Authorization headers, custom
// parameters — read through every format's reader (NDJSON, CSV, access log, ALB, CloudFront,
// Cloudflare, Data Export, HAR, and Parquet files in four column layouts, written with
// hyparquet-writer; each carries what its format can), never reach any output format of the
// replay report.
import path from 'node:path';
import fc from 'fast-check';
import type { TestRequest } from '../../src/evaluate/request.js';
import { REPLAY_FORMATS, REPLAY_OUTPUTS } from '../../src/render/replay/index.js';
import { NO_COLORS } from '../../src/render/contract.js';
import { albLine, cloudfrontParser } from '../../src/replay/cdn-logs.js';
import { normaliseRequest } from '../../src/replay/coverage.js';
import { accessLogLine, csvColumns, csvLine, type LineResult } from '../../src/replay/formats.js';
import { harEntry } from '../../src/replay/har.js';
import { readParquetRows } from '../../src/replay/parquet.js';
import { cloudflareLine, humanLine, ndjsonLine } from '../helpers/log-lines.js';
import { redactRequest } from '../../src/replay/redact.js';
import type { ReplayReport } from '../../src/replay/tally.js';
import { tempDir } from '../helpers/temp.js';
import { writeParquet, type Column } from './parquet-files.js';

/** Credential parameter names, as logs write them (the cases the masking missed, and the classics). */
const NAMES = ['access_token', 'id_token', 'refresh_token', 'code', 'pass', 'pw', 'password', 'otp', 'pin', 'SAMLResponse', 'ticket', 'client_assertion', 'client_secret', 'token', 'api_key', 'sessionid', 'code_verifier'];

/** A name as a log may spell it: any case, some characters percent-encoded (`%74oken`). */
const spelledName = fc.tuple(fc.constantFrom(...NAMES), fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }), fc.boolean()).map(([name, encode, upper]) =>
  [...(upper ? name.toUpperCase() : name)].map((char, i) => (encode[i] === true && /[a-z]/i.test(char) ? `%${char.charCodeAt(0).toString(16).toUpperCase()}` : char)).join(''));

/** A secret no output contains by chance. */
const secret = fc.stringMatching(/^[A-Za-z0-9]{10,24}$/).map((text) => `QX${text}`);

type Carrier = (name: string, value: string) => TestRequest;
const CARRIERS: Record<string, Carrier> = {
  'query string': (name, value) => ({ path: `/cb?state=1&${name}=${value}` }),
  'fragment in a Referer': (name, value) => ({ path: '/', headers: { referer: `https://idp.example/cb#${name}=${value}&state=1` } }),
  'fragment in the path': (name, value) => ({ path: `/cb#${name}=${value}` }),
  'redirect URL in a parameter': (name, value) => ({ path: `/login?next=${encodeURIComponent(`https://shop.example/cb?x=1&${name}=${value}`)}` }),
  'redirect URL in a Referer': (name, value) => ({ path: '/', headers: { referer: `https://shop.example/?return=${encodeURIComponent(`/cb?${name}=${value}`)}` } }),
  'twice-encoded redirect': (name, value) => ({ path: `/r?u=${encodeURIComponent(encodeURIComponent(`/cb?${name}=${value}`))}` }),
  'Bearer with an encoded tail': (_name, value) => ({ path: '/', headers: { 'x-upstream': `Bearer abc%3A${value}` } }),
  'Authorization header': (_name, value) => ({ path: '/', headers: { Authorization: `Basic ${value}` } }),
  'Cookie header': (name, value) => ({ path: '/', headers: { Cookie: `theme=dark; ${name}=${value}` } }),
  'custom parameter': (name, value) => ({ path: '/', custom: { [decodeURIComponent(name)]: value } }),
  'user agent': (name, value) => ({ path: '/', userAgent: `Mozilla/5.0 (${name}=${value})` }),
};

/** The request, written in a format's line and read back by its reader. */
const READERS: Record<string, (request: TestRequest) => LineResult | undefined> = {
  ndjson: (request) => ndjsonLine(JSON.stringify(request)),
  cloudflare: (request) => cloudflareLine(JSON.stringify({ ClientRequestURI: request.path, ClientRequestUserAgent: request.userAgent, RequestHeaders: { ...request.headers, ...request.custom } })),
  human: (request) => humanLine(JSON.stringify({ px_app_id: 'PX1', full_url: `https://shop.example${request.path ?? '/'}`, user_agent: request.userAgent, referrer: request.headers?.referer })),
  combined: (request) => accessLogLine(`203.0.113.1 - - [20/Nov/2026:08:00:00 +0000] "GET ${request.path ?? '/'} HTTP/1.1" 200 1 "${request.headers?.referer ?? '-'}" "${(request.userAgent ?? '-').replace(/"/g, '\\"')}"`),
  alb: (request) => albLine(`https 2026-11-20T08:00:00.000000Z app/a/1 203.0.113.1:4000 10.0.0.1:80 0 0 0 200 200 1 1 "GET https://shop.example:443${request.path ?? '/'} HTTP/1.1" "${(request.userAgent ?? '-').replace(/"/g, '\\"')}" - - - "-" "-" "-" 0 2026-11-20T08:00:00.000000Z "forward" "-" "-" "-" "-" "-" "-" -`),
  csv: (request) => {
    const columns = csvColumns('path,userAgent,headers.referer,headers.cookie,headers.authorization,headers.x-upstream') ?? [];
    const cell = (text: string | undefined) => `"${(text ?? '').replace(/"/g, '""')}"`;
    const headers = request.headers ?? {};
    return csvLine([request.path, request.userAgent, headers.referer, headers.Cookie, headers.Authorization, headers['x-upstream']].map(cell).join(','), columns);
  },
  har: (request) => harEntry({ request: {
    method: 'GET', url: `https://shop.example${request.path ?? '/'}`,
    headers: Object.entries({ ...request.headers, ...(request.userAgent === undefined ? {} : { 'User-Agent': request.userAgent }) }).map(([name, value]) => ({ name, value })),
    cookies: request.headers?.Cookie === undefined ? [] : request.headers.Cookie.split('; ').map((pair) => ({ name: pair.split('=')[0] ?? '', value: pair.split('=').slice(1).join('=') })),
  } }),
  cloudfront: (request) => {
    const parse = cloudfrontParser('log');
    parse('#Fields: c-ip cs-uri-stem cs-uri-query cs(User-Agent) cs(Referer) cs(Cookie)', 1);
    const [stem = '/', query = '-'] = (request.path ?? '/').split(/\?(.*)/s);
    const cell = (text: string | undefined) => (text === undefined || text === '' ? '-' : encodeURIComponent(text));
    return parse(['203.0.113.1', stem, query, cell(request.userAgent), cell(request.headers?.referer), cell(request.headers?.Cookie)].join('\t'), 2);
  },
};

function reportOf(request: TestRequest): ReplayReport {
  const example = { file: 'log', line: 1, request };
  return {
    app: 'shop', against: 'the live rules', files: ['log'], notApplied: [], read: 1, evaluated: 1, skipped: [], sameOutcomeOtherRule: 0,
    undecided: { live: 0, declared: 0 },
    transitions: [{ from: 'none', to: 'block', count: 1, share: 1, rules: [{ before: undefined, after: 'r', count: 1 }], examples: [example] }],
    coverage: {
      carried: { path: 1, method: 0, userAgent: 0, ip: 0, asn: 0, country: 0, domain: 0, deviceType: 0, headers: 0, query: 1, custom: 0 },
      unusable: [], empty: { count: 0, keys: [] }, missing: [{ field: 'country', rules: ['r'], undecided: 1 }], undecided: 1, undecidedShare: 1, examples: [example],
    },
  };
}

function rendered(report: ReplayReport): string {
  let out = '';
  const sink = { write: (chunk: string) => { out += chunk; } };
  for (const format of REPLAY_FORMATS) REPLAY_OUTPUTS[format].stdout(report, sink, { colors: NO_COLORS });
  return out;
}

it('no generated secret in any carrier, read by any reader, reaches text, JSON or Markdown', () => {
  fc.assert(fc.property(spelledName, secret, fc.constantFrom(...Object.keys(CARRIERS)), fc.constantFrom(...Object.keys(READERS)), (name, value, carrier, reader) => {
    const written = CARRIERS[carrier]?.(name, value) ?? {};
    const result = READERS[reader]?.(written);
    if (result === undefined || !('request' in result)) return;
    const output = rendered(reportOf(redactRequest(normaliseRequest(result.request))));
    expect(output).not.toContain(value);
  }), { numRuns: 4000 });
});

/** Parquet layouts a warehouse export may have, each column holding what its format can carry. */
const column = (name: string, type: Column['type'], data: unknown[]): Column => ({ name, type, data });
const PARQUET_LAYOUTS: Record<string, (requests: readonly TestRequest[]) => Column[]> = {
  'request-field columns, headers and custom parameters as maps': (requests) => [
    column('path', 'STRING', requests.map((request) => request.path ?? null)),
    column('userAgent', 'STRING', requests.map((request) => request.userAgent ?? null)),
    column('headers', 'MAP', requests.map((request) => request.headers ?? null)),
    column('custom', 'MAP', requests.map((request) => request.custom ?? null)),
  ],
  'headers and custom parameters as JSON text': (requests) => [
    column('path', 'STRING', requests.map((request) => request.path ?? null)),
    column('userAgent', 'STRING', requests.map((request) => request.userAgent ?? null)),
    column('headers', 'STRING', requests.map((request) => (request.headers === undefined ? null : JSON.stringify(request.headers)))),
    column('custom', 'STRING', requests.map((request) => (request.custom === undefined ? null : JSON.stringify(request.custom)))),
  ],
  'Cloudflare Logpush columns': (requests) => [
    column('ClientRequestURI', 'STRING', requests.map((request) => request.path ?? null)),
    column('ClientRequestUserAgent', 'STRING', requests.map((request) => request.userAgent ?? null)),
    column('RequestHeaders', 'MAP', requests.map((request) => ({ ...request.headers, ...request.custom }))),
  ],
  'Data Export columns': (requests) => [
    column('px_app_id', 'STRING', requests.map(() => 'PX1')),
    column('full_url', 'STRING', requests.map((request) => `https://shop.example${request.path ?? '/'}`)),
    column('user_agent', 'STRING', requests.map((request) => request.userAgent ?? null)),
    column('referrer', 'STRING', requests.map((request) => request.headers?.referer ?? null)),
  ],
};

/** Every row of a Parquet file, read by replay's Parquet reader. */
async function parquetResults(file: string): Promise<LineResult[]> {
  const results: LineResult[] = [];
  for await (const rows of readParquetRows('log.parquet', file, {})) results.push(...rows.map((row) => row.result));
  return results;
}

const planted = fc.tuple(spelledName, secret, fc.constantFrom(...Object.keys(CARRIERS)));
const dir = tempDir('botrules-masking-');
let files = 0;

it('no generated secret in any carrier, in any row of a Parquet file of any layout, reaches text, JSON or Markdown', async () => {
  await fc.assert(fc.asyncProperty(fc.array(planted, { minLength: 1, maxLength: 40 }), fc.constantFrom(...Object.keys(PARQUET_LAYOUTS)), async (cases, layout) => {
    const written = cases.map(([name, value, carrier]) => CARRIERS[carrier]?.(name, value) ?? {});
    const file = path.join(dir, `log-${files++}.parquet`);
    writeParquet(file, PARQUET_LAYOUTS[layout]?.(written) ?? []);
    const results = await parquetResults(file);
    // Every row is read as a request: a secret cannot pass for masked by being skipped.
    expect(results.filter((result) => 'request' in result)).toHaveLength(cases.length);
    for (const result of results) {
      if (!('request' in result)) continue;
      const output = rendered(reportOf(redactRequest(normaliseRequest(result.request))));
      for (const [, value] of cases) expect(output).not.toContain(value);
    }
  }), { numRuns: 150 });
});
