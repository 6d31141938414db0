// The duckdb engine reading Parquet itself (read_parquet; src/replay/duckdb/parquet-source.ts):
// the warehouse fixture under its replay.fields mapping (a struct's field, a raw query string,
// headers in a map under their sent names, `AS14061`), and a file of the request fields' own
// names holding what the js reader reads otherwise than as written (empty strings, capitals in
// header names, secrets, IPv6, a row carrying no field). Both engines give the same report whole,
// and --verbose says DuckDB read the file; so with headers as a text column of JSON (lists joined).
import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import type { Rule } from '../../../src/semantics/model.js';
import { botrules, DECLARED, LIVE, replayProject } from '../fixtures.js';
import { writeParquet, type Column } from '../parquet-files.js';

const FIXTURES = path.resolve('test/fixtures/logs');
const FIELDS = {
  path: 'request_path', query: 'query_string', method: 'http_method', userAgent: 'user_agent', ip: 'client_ip',
  asn: 'client_asn', country: 'geo.country_code', domain: 'host', deviceType: 'device_type', headers: 'request_headers',
};
/** The fixture rules plus a changed rule on the x-monitor header, the country and the masked cookie. */
const WIDER: Rule[] = [
  ...DECLARED,
  { name: 'Block FR monitors with a session', description: '', status: 'active', actions: ['hardBlock'], conditions: { operator: '$and', children: [{ operator: '$and', children: [
    { conditionType: 'header', fieldOption: 'x-monitor', operator: '$exists' }, { conditionType: 'country', operator: '$in', value: ['FR'] },
    { conditionType: 'header', fieldOption: 'cookie', operator: '$eq', value: '[redacted]' },
  ] }] } },
];

const PATHS = ['/login', '/checkout/pay', '/about', '/search?q=1&token=sekrit', ''];
const AGENTS = ['Mozilla/5.0', 'Scrapy/2.11', 'curl/8.4', 'Bearer sekrit-ua', ''];
const COUNTRIES = ['FR', 'de', 'us ', 'FRA', ''];
const IPS = ['198.51.100.7', '2001:db8::1', 'not an address', '203.0.113.9', ''];

function ownNames(rows: number, headerValue: (i: number) => unknown = (i) => String(i % 3)): Column[] {
  const at = <T>(list: readonly T[], i: number, step: number) => list[(i * step) % list.length] as T;
  const empty = (i: number) => i % 97 === 13;
  return [
    { name: 'path', type: 'STRING', data: Array.from({ length: rows }, (_, i) => (empty(i) ? null : at(PATHS, i, 1))) },
    { name: 'method', type: 'STRING', data: Array.from({ length: rows }, (_, i) => (empty(i) ? null : ['GET', 'POST'][i % 2])) },
    { name: 'userAgent', type: 'STRING', data: Array.from({ length: rows }, (_, i) => (empty(i) ? null : at(AGENTS, i, 3))) },
    { name: 'ip', type: 'STRING', data: Array.from({ length: rows }, (_, i) => (empty(i) ? null : at(IPS, i, 7))) },
    { name: 'asn', type: 'INT64', data: Array.from({ length: rows }, (_, i) => (empty(i) || i % 11 === 0 ? null : BigInt(13335 + (i % 4)))) },
    { name: 'country', type: 'STRING', data: Array.from({ length: rows }, (_, i) => (empty(i) ? null : at(COUNTRIES, i, 2))) },
    { name: 'headers', type: 'MAP', data: Array.from({ length: rows }, (_, i) => (empty(i) ? null : {
      'Accept-Language': 'en', ...(i % 5 === 0 ? { 'X-Monitor': headerValue(i), Cookie: `sid=${i}` } : {}), ...(i % 7 === 0 ? { referer: 'https://a.example/?code=sekrit' } : {}),
    })) },
  ];
}

async function both(project: string, ...args: string[]) {
  const run = (engine: string) => botrules(project, 'replay', '--live', 'live.json', '--format', 'json', '--verbose', '--engine', engine, ...args);
  return { js: await run('js'), duckdb: await run('duckdb') };
}

function withoutEngine(stdout: string): unknown {
  const { engine: _engine, ...report } = JSON.parse(stdout) as Record<string, unknown>;
  return report;
}

let mapped: string;
let own: string;
beforeAll(() => {
  mapped = replayProject(WIDER, LIVE);
  writeFileSync(path.join(mapped, 'botrules.yaml'), stringify({ apps: [{ name: 'shop', rulesDir: 'rules' }], replay: { fields: FIELDS } }));
  copyFileSync(path.join(FIXTURES, 'warehouse.parquet'), path.join(mapped, 'warehouse.parquet'));
  copyFileSync(path.join(FIXTURES, 'warehouse-zstd.parquet'), path.join(mapped, 'warehouse-zstd.parquet'));
  own = replayProject(WIDER, LIVE);
  writeParquet(path.join(own, 'own.parquet'), ownNames(1500), { rowGroupSize: 200 });
});

it.each(['warehouse.parquet', 'warehouse-zstd.parquet'])('reads %s (replay.fields) itself and gives the js engine\'s report whole', async (file) => {
  const { js, duckdb } = await both(mapped, file);
  expect(duckdb.stderr).toContain(`${file}: read by DuckDB`);
  expect(withoutEngine(duckdb.stdout)).toEqual(withoutEngine(js.stdout));
  expect(duckdb.code).toBe(js.code);
  const report = JSON.parse(js.stdout) as { evaluated: number; transitions: unknown[] };
  expect(report.evaluated).toBe(24);
  expect(report.transitions.length).toBeGreaterThan(0);
});

it('reads a Parquet file of the fields\' own names itself: empty strings, capitals, secrets, IPv6 and empty rows as the js reader reads them', async () => {
  const { js, duckdb } = await both(own, 'own.parquet');
  expect(duckdb.stderr).toContain('own.parquet: read by DuckDB');
  expect(withoutEngine(duckdb.stdout)).toEqual(withoutEngine(js.stdout));
  expect(duckdb.code).toBe(js.code);
  const report = JSON.parse(js.stdout) as { evaluated: number; transitions: unknown[]; coverage: { unusable: unknown[]; empty: { count: number }; undecided: number } };
  expect(report.evaluated).toBe(1500);
  expect(report.transitions.length).toBeGreaterThan(0);
  expect(report.coverage.unusable.length).toBeGreaterThan(0);
  expect(report.coverage.empty.count).toBeGreaterThan(0);
  expect(report.coverage.undecided).toBeGreaterThan(0);
  expect(duckdb.stdout).not.toContain('sekrit');
});

it('reads headers from a text column of JSON objects (a header sent twice as a list) as the js reader does', async () => {
  const dir = replayProject(WIDER, LIVE);
  const columns = ownNames(300).map((column) => (column.name === 'headers' ? { name: 'tags', type: 'LIST', data: column.data.map((_, i) => ['a', String(i)]) } as Column : column));
  writeParquet(path.join(dir, 'lists.parquet'), [...columns, { name: 'headers', type: 'STRING', data: columns[0]?.data.map((_, i) => JSON.stringify({ 'x-monitor': ['1', String(i)] })) ?? [] }]);
  const { js, duckdb } = await both(dir, 'lists.parquet');
  expect(duckdb.stderr).toContain('lists.parquet: read by DuckDB');
  expect(withoutEngine(duckdb.stdout)).toEqual(withoutEngine(js.stdout));
  expect(duckdb.code).toBe(js.code);
});
