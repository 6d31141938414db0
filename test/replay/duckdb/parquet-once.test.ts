// A Parquet file read once by the duckdb engine (src/replay/duckdb/class-read.ts, group-query.ts
// mergeQuery): its text columns classed on their dictionaries, an address that is no IPv4 one
// classed where it stands, the maps grouped by their texts and classed after. Rules that read each
// of those (an address range, so addresses are classed by range; the query, a header, the user
// agent), over rows that hold IPv6 and unreadable addresses, query strings in the path alone and
// headers in a map. Both engines give the same report whole, and --verbose says the file was read
// once; a map whose text the js reader reads otherwise (odd) sends the file to the two readings.
import path from 'node:path';
import type { Rule } from '../../../src/semantics/model.js';
import { botrules, DECLARED, LIVE, replayProject } from '../fixtures.js';
import { writeParquet, type Column } from '../parquet-files.js';

const [MONITORS, SCRAPERS, LOGIN, CHECKOUT] = DECLARED as [Rule, Rule, Rule, Rule];
/** The scraper and checkout rules (by their ids) made to read the user agent and a header, and an address range and the query. */
const WIDER: Rule[] = [
  MONITORS,
  { ...SCRAPERS, name: 'Challenge curl without a language', actions: ['blockWithChallenge'], conditions: { operator: '$and', children: [{ operator: '$and', children: [
    { conditionType: 'userAgent', operator: '$contains', value: 'curl' }, { conditionType: 'header', fieldOption: 'accept-language', operator: '$notExists' },
  ] }] } },
  LOGIN,
  { ...CHECKOUT, name: 'Block a range with a page', actions: ['hardBlock'], conditions: { operator: '$and', children: [{ operator: '$and', children: [
    { conditionType: 'socketIps', operator: '$in', value: ['198.51.100.0/24', '2001:db8::/32'] }, { conditionType: 'queryParam', fieldOption: 'page', operator: '$in', value: ['2', '3'] },
  ] }] } },
];

const PATHS = ['/login', '/checkout/pay', '/search?page=2', '/search?page=3&q=x', '/about', '', '/home'];
const AGENTS = ['Mozilla/5.0', 'Scrapy/2.11', 'curl/8.4', ''];
const IPS = ['198.51.100.7', '2001:db8::1', '2001:db9::1', 'not an address', '203.0.113.9', ''];

function columns(rows: number, headers: Column): Column[] {
  const at = <T>(list: readonly T[], i: number, step: number) => list[(i * step) % list.length] as T;
  return [
    { name: 'path', type: 'STRING', data: Array.from({ length: rows }, (_, i) => at(PATHS, i, 1)) },
    { name: 'method', type: 'STRING', data: Array.from({ length: rows }, (_, i) => ['GET', 'POST'][i % 2]) },
    { name: 'userAgent', type: 'STRING', data: Array.from({ length: rows }, (_, i) => at(AGENTS, i, 3)) },
    { name: 'ip', type: 'STRING', data: Array.from({ length: rows }, (_, i) => at(IPS, i, 1)) },
    headers,
    { name: 'query', type: 'MAP', data: Array.from({ length: rows }, (_, i) => (i % 4 === 0 ? { page: String(i % 5) } : null)) },
  ];
}

const mapHeaders = (rows: number): Column => ({
  name: 'headers', type: 'MAP', data: Array.from({ length: rows }, (_, i) => (i % 9 === 0 ? null : { ...(i % 3 === 0 ? {} : { 'accept-language': 'en' }), ...(i % 5 === 0 ? { 'x-monitor': '1' } : {}) })),
});

async function both(project: string, file: string) {
  const run = (engine: string) => botrules(project, 'replay', file, '--live', 'live.json', '--format', 'json', '--verbose', '--engine', engine);
  return { js: await run('js'), duckdb: await run('duckdb') };
}

function withoutEngine(stdout: string): unknown {
  const { engine: _engine, ...report } = JSON.parse(stdout) as Record<string, unknown>;
  return report;
}

it('reads a Parquet file once: addresses, query strings, headers in a map and the user agent classed as the js engine decides them', async () => {
  const dir = replayProject(WIDER, LIVE);
  writeParquet(path.join(dir, 'once.parquet'), columns(2000, mapHeaders(2000)), { rowGroupSize: 300 });
  const { js, duckdb } = await both(dir, 'once.parquet');
  expect(duckdb.stderr).toContain('once.parquet: read by DuckDB (its first 2000 records numbered), in one reading');
  expect(withoutEngine(duckdb.stdout)).toEqual(withoutEngine(js.stdout));
  expect(duckdb.code).toBe(js.code);
  const report = JSON.parse(js.stdout) as { evaluated: number; transitions: { rules: { after: string | null; count: number }[] }[] };
  expect(report.evaluated).toBe(2000);
  // Each new rule decides some requests: the address range with a page, curl without a language.
  const after = new Set(report.transitions.flatMap((change) => change.rules.filter((rule) => rule.count > 0).map((rule) => rule.after)));
  expect(after).toContain('Block a range with a page');
  expect(after).toContain('Challenge curl without a language');
});

it('reads a Parquet file whose header text the js reader reads otherwise in two readings, with the same report', async () => {
  const dir = replayProject(WIDER, LIVE);
  // Headers as a text column of JSON, some of it broken: records the js reader reads otherwise (odd).
  const texts: Column = { name: 'headers', type: 'STRING', data: Array.from({ length: 600 }, (_, i) => (i % 50 === 7 ? '{"x-monitor": ' : JSON.stringify({ 'accept-language': 'en' }))) };
  writeParquet(path.join(dir, 'odd.parquet'), columns(600, texts), { rowGroupSize: 100 });
  const { js, duckdb } = await both(dir, 'odd.parquet');
  expect(duckdb.stderr).toContain('odd.parquet: read by DuckDB (its first 600 records numbered)\n');
  expect(withoutEngine(duckdb.stdout)).toEqual(withoutEngine(js.stdout));
  expect(duckdb.code).toBe(js.code);
});
