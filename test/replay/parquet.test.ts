// `--log-format parquet` on a warehouse export written out by hand (test/fixtures/logs/
// warehouse.parquet, made by make-warehouse-parquet.js: the path and raw query string in their
// own columns, the country in a struct, the ASN as `AS14061`, headers in a map under their sent
// names), replayed through the CLI to the counts this test works out itself from the rows as
// hyparquet decodes them; other compression codecs; the preset told from a Data Export's columns.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { parquetReadObjects } from 'hyparquet';
import { stringify } from 'yaml';
import { botrules, expectedTransitions, replayProject, type Seen } from './fixtures.js';
import { writeParquet, type Column } from './parquet-files.js';

const FIXTURE = path.resolve('test/fixtures/logs/warehouse.parquet');

/** The mapping a user of this export writes in botrules.yaml. */
const FIELDS = {
  path: 'request_path', query: 'query_string', method: 'http_method', userAgent: 'user_agent', ip: 'client_ip',
  asn: 'client_asn', country: 'geo.country_code', domain: 'host', deviceType: 'device_type', headers: 'request_headers',
};

interface Row {
  request_path: string | null;
  user_agent: string;
  client_asn: string | null;
  geo: { country_code: string | null } | null | undefined;
  request_headers: Record<string, string> | null | undefined;
}

/** The fixture's rows as hyparquet decodes them, read the simplest way: every column, the whole file at once. */
async function fixtureRows(): Promise<Row[]> {
  const bytes = readFileSync(FIXTURE);
  return await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) }) as unknown as Row[];
}

const seen = (row: Row): Seen => ({
  path: row.request_path === null ? '' : new URL(row.request_path, 'https://x.example').pathname,
  agent: row.user_agent,
  monitor: Object.keys(row.request_headers ?? {}).some((name) => name.toLowerCase() === 'x-monitor'),
});

interface Report {
  read: number;
  evaluated: number;
  skipped: { reason: string; count: number }[];
  transitions: { from: string; to: string; count: number; examples: { request: { headers?: Record<string, string> } }[] }[];
  coverage: { undecided: number; carried: Record<string, number>; unusable: unknown[]; empty: { count: number; keys: string[] } };
  production?: { recorded: number };
}

let project: string;
beforeAll(() => {
  project = replayProject();
  writeFileSync(path.join(project, 'botrules.yaml'), stringify({ apps: [{ name: 'shop', rulesDir: 'rules' }], replay: { fields: FIELDS } }));
  copyFileSync(FIXTURE, path.join(project, 'warehouse.parquet'));
  // The same file as a warehouse names its parts: told by its PAR1 magic bytes.
  copyFileSync(FIXTURE, path.join(project, 'part-00000-c000'));
  // The same rows compressed with ZSTD (hyparquet-compressors' decoder, loaded for it).
  copyFileSync(FIXTURE.replace('.parquet', '-zstd.parquet'), path.join(project, 'warehouse-zstd.parquet'));
});

async function replay(cwd: string, ...args: string[]): Promise<{ code: number; report: Report; stdout: string }> {
  const result = await botrules(cwd, 'replay', '--live', 'live.json', '--format', 'json', ...args);
  expect(result.stderr).toBe('');
  return { code: result.code, report: JSON.parse(result.stdout) as Report, stdout: result.stdout };
}

describe('a warehouse export mapped with replay.fields', () => {
  it('replays to the counts worked out from the rows, named or told from the file', async () => {
    const rows = await fixtureRows();
    expect(rows.length).toBeGreaterThanOrEqual(20);
    const requests = rows.map(seen);
    for (const args of [['--log-format', 'parquet', 'warehouse.parquet'], ['warehouse.parquet'], ['part-00000-c000'], ['warehouse-zstd.parquet']]) {
      const { code, report } = await replay(project, ...args);
      expect(report.read).toBe(rows.length);
      expect(report.skipped).toEqual([]);
      // The row without a path: the changed rules read it, so its outcome is unknown.
      expect(report.coverage.undecided).toBe(requests.filter((request) => request.path === '').length);
      expect(report.transitions.map((t) => [t.from, t.to, t.count])).toEqual(expectedTransitions(requests));
      expect(code).toBe(2);
    }
  });

  it('normalises as the service compares: countries upper-case, `AS14061` as 14061; struct fields and map headers carried', async () => {
    const rows = await fixtureRows();
    const { report } = await replay(project, 'warehouse.parquet');
    // `de` and `AS14061` would each be a form no rule can match, were they not normalised.
    expect(report.coverage.unusable).toEqual([]);
    expect(report.coverage.carried).toMatchObject({
      country: rows.filter((row) => (row.geo?.country_code ?? '') !== '').length,
      asn: rows.filter((row) => (row.client_asn ?? '') !== '').length,
      path: rows.filter((row) => row.request_path !== null).length,
      headers: rows.filter((row) => row.request_headers !== null && row.request_headers !== undefined).length,
    });
    // Header names as the service compares them, and as --emit-sql's maps hold them: lower case.
    const names = report.transitions.flatMap((t) => t.examples.flatMap((example) => Object.keys(example.request.headers ?? {})));
    expect(names).toEqual(expect.arrayContaining(['cookie', 'referer']));
    expect(names.filter((name) => name !== name.toLowerCase())).toEqual([]);
  });

  it('masks every planted secret (cookies, Authorization, tokens in the raw query string and in the Referer)', async () => {
    const { stdout } = await replay(project, '--log-format', 'parquet', 'warehouse.parquet');
    expect(stdout).not.toMatch(/sekrit/);
    expect(stdout).toContain('[redacted]');
    // The fixture does carry them: the masking, not their absence, keeps them out.
    expect(JSON.stringify(await fixtureRows(), (_, value: unknown) => (typeof value === 'bigint' ? String(value) : value))).toMatch(/sekrit/);
  });

  it('without the mapping, says that no row carries a field, names the columns, and does not exit 0', async () => {
    const bare = replayProject();
    copyFileSync(FIXTURE, path.join(bare, 'warehouse.parquet'));
    const { code, report } = await replay(bare, 'warehouse.parquet');
    expect(report.coverage.empty.count).toBe(report.read);
    expect(report.coverage.empty.keys).toEqual(expect.arrayContaining(['request_path', 'geo', 'request_headers', 'status']));
    expect(code).not.toBe(0);
    const text = await botrules(bare, 'replay', '--live', 'live.json', 'warehouse.parquet');
    expect(text.stdout).toContain('carry none of the request fields');
    expect(text.stdout).toContain('replay.fields');
  });
});

/** The fixture's rules in a file of request-field columns: scraper, login, checkout, monitor. */
const FIELD_COLUMNS: Column[] = [
  { name: 'path', type: 'STRING', data: ['/search', '/login', '/checkout/pay', '/', '/about'] },
  { name: 'userAgent', type: 'STRING', data: ['Scrapy/2.11', 'Mozilla/5.0', 'Mozilla/5.0', 'Mozilla/5.0', 'Mozilla/5.0'] },
  { name: 'headers', type: 'MAP', data: [{}, {}, {}, { 'x-monitor': '1' }, null] },
];

describe('compression codecs', () => {
  it.each([['GZIP', (input: Uint8Array) => gzipSync(input)], ['BROTLI', (input: Uint8Array) => brotliCompressSync(input)], ['UNCOMPRESSED', undefined]] as const)(
    '%s: read as Snappy is', async (codec, compress) => {
      const dir = replayProject();
      writeParquet(path.join(dir, 'a.parquet'), FIELD_COLUMNS, { codec, ...(compress === undefined ? {} : { compressors: { [codec]: compress } }) });
      const { code, report } = await replay(dir, 'a.parquet');
      expect(report.transitions.map((t) => [t.from, t.to, t.count])).toEqual([['none', 'challenge', 1], ['challenge', 'block', 1]]);
      expect(code).toBe(2);
    });
});

it('tells a Data Export in Parquet by its columns, and compares production\'s decisions', async () => {
  const dir = replayProject();
  writeParquet(path.join(dir, 'export.parquet'), [
    { name: 'px_app_id', type: 'STRING', data: ['PXshop', 'PXshop', 'PXshop'] },
    { name: 'full_url', type: 'STRING', data: ['https://shop.example.com/login', 'https://shop.example.com/search?q=a', 'https://shop.example.com/about'] },
    { name: 'user_agent', type: 'STRING', data: ['Mozilla/5.0', 'Scrapy/2.11', 'Mozilla/5.0'] },
    { name: 'country', type: 'STRING', data: ['de', 'US', null] },
    { name: 'type', type: 'STRING', data: ['captcha', 'block', 'legitimate'] },
    { name: 'filter_origin', type: 'STRING', data: ['customer', 'customer', null] },
    { name: 'filter_id', type: 'STRING', data: ['r-3', 'r-2', null] },
    { name: 'simulated_block', type: 'BOOLEAN', data: [false, false, false] },
  ]);
  const { report } = await replay(dir, 'export.parquet');
  expect(report.read).toBe(3);
  expect(report.coverage.empty.count).toBe(0);
  expect(report.transitions.map((t) => [t.from, t.to, t.count])).toEqual([['challenge', 'block', 1]]);
  // Its decisions are read from the rows (simulated_block a boolean column), whether or not a lacking header leaves them uncompared.
  expect(report.production).toMatchObject({ recorded: 3 });
});

it('tells Cloudflare Logpush columns in Parquet, its headers a map and the ASN a 64-bit integer', async () => {
  const dir = replayProject();
  writeParquet(path.join(dir, 'logpush.parquet'), [
    { name: 'ClientRequestURI', type: 'STRING', data: ['/login?session=sekrit-1', '/checkout/pay', '/'] },
    { name: 'ClientRequestUserAgent', type: 'STRING', data: ['Mozilla/5.0', 'Mozilla/5.0', 'Pingdom'] },
    { name: 'ClientASN', type: 'INT64', data: [13335n, 7922n, 16509n] },
    { name: 'ClientCountry', type: 'STRING', data: ['de', 'us', 'gb'] },
    { name: 'RequestHeaders', type: 'MAP', data: [{}, { authorization: 'Bearer sekrit-2' }, { 'x-monitor': '1' }] },
  ]);
  const { report, stdout } = await replay(dir, 'logpush.parquet');
  expect(report.transitions.map((t) => [t.from, t.to, t.count])).toEqual([['none', 'challenge', 1], ['challenge', 'block', 1]]);
  expect(report.coverage.carried).toMatchObject({ asn: 3, country: 3, path: 3 });
  expect(report.coverage.unusable).toEqual([]);
  expect(stdout).not.toMatch(/sekrit/);
});

it('reads an empty string as absent, as a null: a warehouse writes either for a missing value', async () => {
  const dir = replayProject();
  writeParquet(path.join(dir, 'blanks.parquet'), [
    { name: 'path', type: 'STRING', data: ['/a', '', null] },
    { name: 'country', type: 'STRING', data: ['', 'de', null] },
  ]);
  const { report } = await replay(dir, 'blanks.parquet');
  expect(report.coverage.carried).toMatchObject({ path: 1, country: 1 });
  expect(report.coverage.unusable).toEqual([]);
});

it('tells CloudFront\'s Parquet log delivery by its column names; replay.fields.preset: cloudfront reads the same names in JSON', async () => {
  const dir = replayProject();
  const rows = [
    { 'c-ip': '198.51.100.1', 'cs-method': 'GET', 'cs-uri-stem': '/login', 'cs-uri-query': 'next=%2Fa&token=sekrit-q', 'cs(User-Agent)': 'Mozilla/5.0%20(X11)', 'x-host-header': 'Shop.Example.com', 'cs(Cookie)': 'sid=sekrit-c' },
    { 'c-ip': '198.51.100.2', 'cs-method': 'POST', 'cs-uri-stem': '/checkout/pay', 'cs-uri-query': '-', 'cs(User-Agent)': 'Mozilla/5.0', 'x-host-header': 'shop.example.com', 'cs(Cookie)': '-' },
    { 'c-ip': '198.51.100.3', 'cs-method': 'GET', 'cs-uri-stem': '/search', 'cs-uri-query': 'q=a', 'cs(User-Agent)': 'Scrapy/2.11', 'x-host-header': 'shop.example.com', 'cs(Cookie)': '-' },
  ];
  const names = Object.keys(rows[0] ?? {});
  writeParquet(path.join(dir, 'E2ABC.parquet'), names.map((name) => ({ name, type: 'STRING' as const, data: rows.map((row) => row[name as keyof typeof row]) })));
  const parquet = await replay(dir, 'E2ABC.parquet');
  expect(parquet.report.transitions.map((t) => [t.from, t.to, t.count])).toEqual([['none', 'challenge', 1], ['challenge', 'block', 1]]);
  expect(parquet.report.coverage.carried).toMatchObject({ ip: 3, path: 3, domain: 3, country: 0, asn: 0 });
  expect(parquet.stdout).not.toMatch(/sekrit/);
  writeFileSync(path.join(dir, 'botrules.yaml'), stringify({ apps: [{ name: 'shop', rulesDir: 'rules' }], replay: { fields: { preset: 'cloudfront' } } }));
  writeFileSync(path.join(dir, 'cloudfront.ndjson'), rows.map((row) => JSON.stringify(row)).join('\n'));
  const json = await replay(dir, 'cloudfront.ndjson');
  expect(json.report.transitions).toEqual(parquet.report.transitions.map((t) => ({ ...t, examples: t.examples.map((example) => ({ ...example, file: 'cloudfront.ndjson' })) })));
});
