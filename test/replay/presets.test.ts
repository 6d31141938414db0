// Every preset of --log-format on a fixture in its real format (test/fixtures/logs: header
// lines, quoting, URL-encoding, cookies and tokens), replayed through the CLI to the counts this
// test works out itself from the raw files, with no secret reaching the report.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { albLine } from '../../src/replay/cdn-logs.js';
import { normaliseRequest } from '../../src/replay/coverage.js';
import { cloudflareLine, humanLine } from '../helpers/log-lines.js';
import { botrules, expectedTransitions as expected, replayProject, type Seen } from './fixtures.js';

const FIXTURES = path.resolve('test/fixtures/logs');
const raw = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');

const pathOf = (url: string) => new URL(url, 'https://x.example').pathname;

/** Each fixture read by hand: the simplest reading of its format, independent of the parsers. */
const INDEPENDENT: Record<string, () => Seen[]> = {
  'cloudfront.log': () => {
    const lines = raw('cloudfront.log').split('\n').filter((line) => line !== '');
    const fields = (lines.find((line) => line.startsWith('#Fields:')) ?? '').slice(8).trim().split(' ');
    return lines.filter((line) => !line.startsWith('#')).map((line) => {
      const cells = line.split('\t');
      return { path: cells[fields.indexOf('cs-uri-stem')] ?? '', agent: decodeURIComponent(cells[fields.indexOf('cs(User-Agent)')] ?? ''), monitor: false };
    });
  },
  'alb.log': () => raw('alb.log').split('\n').filter((line) => line !== '').map((line) => {
    const [, url = '', agent = ''] = /"\S+ (\S+) [^"]*" "((?:[^"\\]|\\.)*)"/.exec(line) ?? [];
    return { path: url === '-' ? '' : pathOf(url), agent, monitor: false };
  }),
  'cloudflare.ndjson': () => raw('cloudflare.ndjson').split('\n').filter((line) => line !== '').map((line) => {
    const record = JSON.parse(line) as { ClientRequestURI: string; ClientRequestUserAgent: string; RequestHeaders?: Record<string, string> };
    return { path: pathOf(record.ClientRequestURI), agent: record.ClientRequestUserAgent, monitor: record.RequestHeaders?.['x-monitor'] !== undefined };
  }),
  'human.ndjson': () => raw('human.ndjson').split('\n').filter((line) => line !== '').map((line) => {
    const record = JSON.parse(line) as { full_url: string; user_agent: string };
    return { path: pathOf(record.full_url), agent: record.user_agent, monitor: false };
  }),
  'requests.ndjson': () => raw('requests.ndjson').split('\n').filter((line) => line !== '').map((line) => {
    const record = JSON.parse(line) as { path: string; userAgent: string; headers: Record<string, unknown> };
    return { path: pathOf(record.path), agent: record.userAgent, monitor: record.headers['x-monitor'] !== undefined };
  }),
  // Quoted cells hold commas (the user agents) but no line breaks: a comma outside quotes separates.
  'requests.csv': () => raw('requests.csv').split('\r\n').slice(1).filter((line) => line !== '').map((line) => {
    const cells = line.match(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)?.map((cell) => cell.replace(/,$/, '').replace(/^"|"$/g, '').replace(/""/g, '"')) ?? [];
    return { path: pathOf(cells[0] ?? ''), agent: cells[2] ?? '', monitor: (cells[5] ?? '') !== '' };
  }),
  'access.log': () => raw('access.log').split('\n').filter((line) => line !== '').map((line) => {
    const [, target = '', agent = ''] = /"\S+ (\S+) HTTP\/1\.1" .* "((?:[^"\\]|\\.)*)"$/.exec(line) ?? [];
    return { path: pathOf(target), agent: agent.replace(/\\"/g, '"'), monitor: false };
  }),
  'session.har': () => (JSON.parse(raw('session.har')) as { log: { entries: { request: { url: string; headers: { name: string; value: string }[] } }[] } }).log.entries.map(({ request }) => ({
    path: pathOf(request.url),
    agent: request.headers.find((header) => header.name.toLowerCase() === 'user-agent')?.value ?? '',
    monitor: request.headers.some((header) => header.name.toLowerCase() === 'x-monitor'),
  })),
};

const PRESETS: [string, string][] = [['requests.ndjson', 'ndjson'], ['requests.csv', 'csv'], ['access.log', 'combined'], ['cloudfront.log', 'cloudfront'], ['alb.log', 'alb'], ['cloudflare.ndjson', 'cloudflare'], ['human.ndjson', 'human'], ['session.har', 'har']];

let project: string;
beforeAll(() => {
  project = replayProject();
  for (const [file] of PRESETS) copyFileSync(path.join(FIXTURES, file), path.join(project, file));
  // The same CloudFront and HAR files under names that do not tell their format.
  copyFileSync(path.join(FIXTURES, 'cloudfront.log'), path.join(project, 'E2ABCDEF.2026-11-20-08.a1b2c3'));
  copyFileSync(path.join(FIXTURES, 'session.har'), path.join(project, 'capture.json'));
});

interface Report {
  read: number;
  evaluated: number;
  skipped: { reason: string; count: number }[];
  transitions: { from: string; to: string; count: number }[];
  coverage: { undecided: number; carried: Record<string, number> };
}

async function replay(...args: string[]): Promise<{ code: number; report: Report; stdout: string }> {
  const result = await botrules(project, 'replay', '--live', 'live.json', '--format', 'json', ...args);
  expect(result.stderr).toBe('');
  return { code: result.code, report: JSON.parse(result.stdout) as Report, stdout: result.stdout };
}

describe.each(PRESETS)('%s (--log-format %s)', (file, preset) => {
  it('replays to the counts worked out from the raw file, named or told from the file', async () => {
    const requests = INDEPENDENT[file]?.() ?? [];
    expect(requests.length).toBeGreaterThanOrEqual(20);
    const named = await replay('--log-format', preset, file);
    expect(named.report.read).toBe(requests.length);
    // A request line the server could not parse (ALB's "- - - ") has no path: undecided, not "no change".
    expect(named.report.coverage.undecided).toBe(requests.filter((r) => r.path === '').length);
    expect(named.report.transitions.map((t) => [t.from, t.to, t.count])).toEqual(expected(requests));
    expect(named.code).toBe(2);
    const told = await replay(file);
    expect(told.report.transitions.map((t) => [t.from, t.to, t.count])).toEqual(expected(requests));
  });

  it('masks every planted secret (cookies, tokens, codes, Authorization)', async () => {
    const { stdout } = await replay('--log-format', preset, file);
    expect(stdout).not.toMatch(/sekrit/);
    // The fixture does carry them: the masking, not their absence, keeps them out.
    expect(raw(file)).toMatch(/sekrit/);
  });
});

it('tells CloudFront by its #Fields: line and a HAR by its opening, whatever the file names', async () => {
  const counts = (report: Report) => report.transitions.map((t) => [t.from, t.to, t.count]);
  expect(counts((await replay('E2ABCDEF.2026-11-20-08.a1b2c3')).report)).toEqual(expected(INDEPENDENT['cloudfront.log']?.() ?? []));
  expect(counts((await replay('capture.json')).report)).toEqual(expected(INDEPENDENT['session.har']?.() ?? []));
});

describe('bad input: an error naming the file and line, and no report', () => {
  it.each([
    ['a CloudFront file without #Fields:', 'nofields.log', '2026-11-20\t08:00:00\tFRA56-P1\t1000\t203.0.113.10\tGET\n', ['--log-format', 'cloudfront'], 'error: nofields.log:1: a request line before any #Fields: line'],
    ['a HAR that is not JSON', 'broken.har', '{\n  "log": {\n    "entries": [,]\n  }\n}\n', [], 'error: broken.har:3:17: not a HAR file: not JSON'],
    ['a HAR without log.entries', 'empty.har', '{"log": {"version": "1.2"}}\n', [], 'error: empty.har:1:1: not a HAR file: it has no log.entries list'],
    ['an NDJSON file named cloudfront', 'requests.ndjson', '{"path":"/a"}\n{"path":"/b"}\n', ['--log-format', 'cloudfront'], 'error: requests.ndjson:1: a request line before any #Fields: line'],
    ['an access log named alb', 'access.log', '203.0.113.9 - - [10/Oct/2026:13:55:40 +0000] "GET /login HTTP/1.1" 200 99 "-" "curl/8.0"\n', ['--log-format', 'alb'], 'error: access.log:1: not an ALB access-log line, and so is every line of the file (1): it is not a alb log'],
    ['an access log named cloudflare', 'access2.log', '203.0.113.9 - - [10/Oct/2026:13:55:40 +0000] "GET /login HTTP/1.1" 200 99\n', ['--log-format', 'cloudflare'], 'error: access2.log:1: not JSON, and so is every line of the file (1): it is not a cloudflare log'],
  ])('%s', async (_what, file, content, args, message) => {
    writeFileSync(path.join(project, file), content);
    const result = await botrules(project, 'replay', '--live', 'live.json', ...args, file);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toMatch(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });
});

describe('value normalisation per preset', () => {
  it('Cloudflare: lower-case country upper-cased, ASN number as text, URI split into path and query', () => {
    const result = cloudflareLine('{"ClientRequestURI":"/s?q=a%20b","ClientCountry":"de","ClientASN":13335,"ClientRequestHost":"Shop.Example.com"}');
    expect('request' in result && normaliseRequest(result.request)).toEqual({ path: '/s', query: { q: 'a b' }, country: 'DE', asn: '13335', domain: 'shop.example.com' });
  });

  it('ASN written AS13335 becomes 13335', () => {
    expect(normaliseRequest({ asn: 'AS13335' })).toEqual({ asn: '13335' });
    expect(normaliseRequest({ asn: 'as64512' })).toEqual({ asn: '64512' });
  });

  it('Data Export: client_ip by default, true_ip when set; the decision kept', () => {
    const line = '{"full_url":"https://shop.example.com/a?x=1","client_ip":"203.0.113.1","true_ip":"192.0.2.1","type":"block","filter_origin":"customer","filter_id":"r-1","simulated_block":false}';
    expect(humanLine(line)).toMatchObject({ request: { ip: '203.0.113.1', path: '/a', query: { x: '1' }, domain: 'shop.example.com' }, decision: { type: 'block', origin: 'customer', filterId: 'r-1', simulatedBlock: false } });
    expect(humanLine(line, 'true_ip')).toMatchObject({ request: { ip: '192.0.2.1' } });
  });

  it('ALB: IPv6 client, the URL host as domain, an unparsed request line "- - - "', () => {
    const line = 'https 2026-11-20T08:00:00.000000Z app/a/1 2001:db8::7:46000 10.0.1.0:80 0 0 0 400 - 0 0 "- - - " "-" - - - "-" "-" "-" - 2026-11-20T08:00:00.000000Z "-" "-" "-" "-" "-" "-" "-" -';
    expect(albLine(line)).toEqual({ request: { ip: '2001:db8::7' }, carriage: { partialHeaders: [], noCustom: true } });
  });
});
