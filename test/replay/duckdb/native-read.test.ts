// The duckdb engine reading NDJSON itself (src/engine/replay-duckdb-native.ts): it does so for a
// plain NDJSON log, gzip too (said with --verbose), and its report is the js engine's whole even
// where DuckDB would read a record otherwise than JavaScript (numbers written otherwise, lists and
// objects, header names with capitals, masked values, IPv6, lines lacking a field a changed rule
// reads, blank lines, CRLF). A log DuckDB cannot read, or refuses as gzip, is read by the js
// reader: the same report, or the js reader's error naming the file and line.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Rule } from '../../../src/semantics/model.js';
import { botrules, DECLARED, LIVE, replayProject } from '../fixtures.js';

/** The fixture rules plus a changed rule on the x-monitor header, a country and the cookie (masked whole). */
const WIDER: Rule[] = [
  ...DECLARED,
  { name: 'Block FR monitors with a session', description: '', status: 'active', actions: ['hardBlock'], conditions: { operator: '$and', children: [{ operator: '$and', children: [
    { conditionType: 'header', fieldOption: 'x-monitor', operator: '$exists' }, { conditionType: 'country', operator: '$in', value: ['FR'] },
    { conditionType: 'header', fieldOption: 'cookie', operator: '$eq', value: '[redacted]' },
  ] }] } },
];

const AGENTS = ['Mozilla/5.0', 'Scrapy/2.11', 'curl/8.4'];
const PATHS = ['/login', '/checkout/pay', '/about', '/search'];
/** A line DuckDB reads as JavaScript does. */
const plain = (i: number) => JSON.stringify({
  path: PATHS[i % 4], method: 'GET', userAgent: AGENTS[i % 3], ip: `198.51.100.${i % 250}`, country: ['FR', 'DE', 'us'][i % 3], asn: 'AS13335',
  headers: { 'accept-language': 'en', ...(i % 5 === 0 ? { 'x-monitor': '1', cookie: `sid=${i}` } : {}) },
});
/** Lines DuckDB would read otherwise, or that the js reader skips. */
const ODD = [
  '{"path":"/login","asn":1.50,"country":"FR","ip":"198.51.100.1","headers":{}}',
  '{"path":"/login","asn":13335,"country":"FR","ip":"198.51.100.1","headers":{"X-Monitor":"1"}}',
  '{"path":"/login","country":"FR","ip":"198.51.100.1","headers":{"accept":["a","b"],"x-monitor":"1"}}',
  '{"path":"/login?next=%2Fa&token=x","country":"FR","ip":"198.51.100.1","headers":{}}',
  '{"path":"/login","userAgent":"Bearer abc","country":"FR","ip":"198.51.100.1","headers":{}}',
  '{"path":"/checkout/x","country":"FR","ip":"2001:db8::1","headers":{"x-monitor":"1"}}',
  '{"path":"/checkout/x","ip":"198.51.100.1","headers":{"x-monitor":"1"}}',
  '{"path":"/checkout/x","country":"fr ","ip":"198.51.100.1","headers":{}}',
  '{"path":{"a":1},"country":"FR"}',
  '{"path":"/a","headers":{"a":null}}',
  '{"other":"x"}',
  '{"path":"/a","method":1e3,"country":"FRA","ip":"not an address","headers":{}}',
  '   ',
  '',
];

function log(lines: number, eol = '\n'): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i += 1) {
    out.push(plain(i));
    if (i % 37 === 5) out.push(ODD[(i / 37 | 0) % ODD.length] as string);
  }
  return `${out.join(eol)}${eol}`;
}

async function both(project: string, ...args: string[]) {
  const run = (engine: string) => botrules(project, 'replay', '--live', 'live.json', '--format', 'json', '--verbose', '--engine', engine, ...args);
  const [js, duckdb] = [await run('js'), await run('duckdb')];
  return { js, duckdb };
}

function withoutEngine(stdout: string): unknown {
  const { engine: _engine, ...report } = JSON.parse(stdout) as Record<string, unknown>;
  return report;
}

let project: string;
beforeAll(() => {
  project = replayProject(WIDER, LIVE);
  writeFileSync(path.join(project, 'mixed.ndjson'), log(2000));
  writeFileSync(path.join(project, 'crlf.ndjson'), log(500, '\r\n'));
  writeFileSync(path.join(project, 'mixed.ndjson.gz'), gzipSync(log(2000)));
  writeFileSync(path.join(project, 'broken.ndjson'), `${log(300)}{"path": /broken\n${log(10)}`);
  writeFileSync(path.join(project, 'cut.ndjson.gz'), gzipSync(log(3000)).subarray(0, 4000));
  writeFileSync(path.join(project, 'not.ndjson'), 'path,method\n/login,GET\n/about,GET\n');
  // Valid lines, expanding about a thousand times: DuckDB would read them all.
  writeFileSync(path.join(project, 'bomb.ndjson.gz'), gzipSync(`${plain(1)}\n`.repeat(Math.ceil((40 << 20) / plain(1).length))));
});

it.each(['mixed.ndjson', 'crlf.ndjson', 'mixed.ndjson.gz'])('reads %s itself and gives the js engine\'s report whole', async (file) => {
  const { js, duckdb } = await both(project, file);
  expect(duckdb.stderr).toContain(`${file}: read by DuckDB`);
  expect(withoutEngine(duckdb.stdout)).toEqual(withoutEngine(js.stdout));
  expect(duckdb.code).toBe(js.code);
  const report = JSON.parse(js.stdout) as { skipped: unknown[]; transitions: unknown[]; coverage: { undecided: number; unusable: unknown[] } };
  // The odd lines are in the report: skipped lines, undecided requests, unusable values.
  expect(report.skipped.length).toBeGreaterThan(0);
  expect(report.coverage.undecided).toBeGreaterThan(0);
  expect(report.coverage.unusable.length).toBeGreaterThan(0);
  expect(report.transitions.length).toBeGreaterThan(1);
});

it('reads addresses that are no IPv4 text itself, those it would read otherwise as the js reader does: the same report', async () => {
  // Text of a number's look is odd (value-classes.ts): its records are read again by the js reader.
  const others = ['"2001:db8::1"', '"1e5"', '"0123"', '"not an address"', '""'];
  const lines = Array.from({ length: 600 }, (_, i) => (i % 50 === 7 ? plain(i).replace(/"ip":"[^"]*"/, `"ip":${others[(i / 50 | 0) % others.length] as string}`) : plain(i)));
  writeFileSync(path.join(project, 'addresses.ndjson'), `${lines.join('\n')}\n`);
  const { js, duckdb } = await both(project, 'addresses.ndjson');
  expect(duckdb.stderr).toContain('addresses.ndjson: read by DuckDB');
  expect(withoutEngine(duckdb.stdout)).toEqual(withoutEngine(js.stdout));
  const report = JSON.parse(js.stdout) as { coverage: { unusable: { field: string }[] } };
  expect(report.coverage.unusable.map(({ field }) => field)).toContain('ip');
});

it('reads a log with a line that is no JSON with the js reader: the same report', async () => {
  const { js, duckdb } = await both(project, 'broken.ndjson');
  expect(duckdb.stderr).toContain('broken.ndjson: read by the js reader (DuckDB could not read it');
  expect(withoutEngine(duckdb.stdout)).toEqual(withoutEngine(js.stdout));
});

it.each(['cut.ndjson.gz', 'bomb.ndjson.gz', 'not.ndjson'])('refuses %s as the js engine does: the file named, no report', async (file) => {
  const { js, duckdb } = await both(project, file);
  expect(js.code).toBe(1);
  expect(duckdb.code).toBe(1);
  expect(duckdb.stdout).toBe('');
  const error = (stderr: string) => stderr.split('\n').filter((line) => line.includes(file) && !line.startsWith('debug') && !line.includes('read by'));
  expect(error(duckdb.stderr)).toEqual(error(js.stderr));
  expect(error(js.stderr).length).toBeGreaterThan(0);
});
