// The duckdb engine's reading of a long NDJSON log (src/replay/duckdb/class-read.ts): counted on
// every thread, then only its first records numbered, the whole log numbered again only when
// a record the report shows (a rule pair's first three, an unusable value's first) or an odd
// record lies beyond them (docs/replay.md, "Engines"). Each log is longer than that first
// reading; the report is the js engine's whole, whether what it shows lies early or late.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { botrules, replayProject } from '../fixtures.js';

/** More records than the first numbered reading takes (65,536 at least). */
const RECORDS = 70_000;
/** Beyond the first reading. */
const LATE = RECORDS - 10;

/** No rule matches it: one rule pair, met from the first line on. */
const quiet = (i: number) => JSON.stringify({ path: '/about', method: 'GET', userAgent: 'Mozilla/5.0', ip: `198.51.100.${i % 250}`, country: 'DE' });
/** Challenged, then blocked. */
const login = (i: number) => JSON.stringify({ path: '/login', method: 'POST', userAgent: 'Mozilla/5.0', ip: `203.0.113.${i % 250}`, country: 'US' });
/** No rule, then challenged. */
const checkout = (i: number) => JSON.stringify({ path: '/checkout/pay', method: 'GET', userAgent: 'Mozilla/5.0', ip: `203.0.113.${i % 250}` });
/** An address no rule can match. */
const unusable = () => JSON.stringify({ path: '/about', method: 'GET', ip: 'not an address', country: 'DE' });
/** A number DuckDB would write otherwise: read by the js reader. */
const odd = () => '{"path":"/login","asn":1.50,"country":"FR","ip":"198.51.100.1","headers":{}}';

/** A log of quiet lines with these lines at these record numbers (1-based). */
function log(at: Record<number, string>): string {
  const lines: string[] = [];
  for (let i = 1; i <= RECORDS; i += 1) lines.push(at[i] ?? quiet(i));
  return `${lines.join('\n')}\n`;
}

const EARLY = { 3: login(3), 5: checkout(5), 7: login(7), 9: checkout(9), 11: login(11), 13: checkout(13), 15: unusable(), 17: odd() };

const LOGS: Record<string, Record<number, string>> = {
  'early.ndjson': EARLY,
  'late-pair.ndjson': { 3: login(3), 7: login(7), 15: unusable(), 17: odd(), [LATE]: checkout(LATE), [LATE + 2]: checkout(LATE + 2) },
  'late-third.ndjson': { ...EARLY, 13: quiet(13), [LATE]: checkout(LATE), [LATE + 1]: checkout(LATE + 1) },
  'late-unusable.ndjson': { ...EARLY, 15: quiet(15), [LATE]: unusable() },
  'late-odd.ndjson': { ...EARLY, [LATE]: odd() },
};

let project: string;
beforeAll(() => {
  project = replayProject();
  for (const [file, at] of Object.entries(LOGS)) writeFileSync(path.join(project, file), log(at));
});

function withoutEngine(stdout: string): unknown {
  const { engine: _engine, ...report } = JSON.parse(stdout) as Record<string, unknown>;
  return report;
}

it.each(Object.keys(LOGS))('reads %s itself and gives the js engine\'s report whole', async (file) => {
  const run = (engine: string) => botrules(project, 'replay', '--live', 'live.json', '--format', 'json', '--verbose', '--engine', engine, file);
  const [js, duckdb] = [await run('js'), await run('duckdb')];
  expect(duckdb.stderr).toContain(`${file}: read by DuckDB`);
  expect(withoutEngine(duckdb.stdout)).toEqual(withoutEngine(js.stdout));
  expect(duckdb.code).toBe(js.code);
  // The late logs but late-odd show a record beyond the first reading (late-odd's is counted, in the totals compared).
  expect(js.stdout.includes(`"line": ${LATE}`) || js.stdout.includes(`"line":${LATE}`)).toBe(file !== 'early.ndjson' && file !== 'late-odd.ndjson');
});
