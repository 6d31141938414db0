// The duckdb engine's reading of a long NDJSON log (src/engine/replay-duckdb-native.ts,
// src/replay/duckdb/first-records.ts): its groups counted without numbers, then only as much of
// its start numbered as holds the records the report needs (each transition's first three
// examples, each unusable value's first, every odd record): nothing when it needs none, a first
// prefix of 65,536 records, or the whole log when one lies beyond it (docs/replay.md, "Engines").
// Each log is longer than twice that prefix; the report is the js engine's whole wherever what it
// shows lies, and --verbose says how far the log was numbered.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Leaf, LiveRule, Rule } from '../../../src/semantics/model.js';
import { botrules, DECLARED, LIVE, replayProject } from '../fixtures.js';

/** More than twice the first prefix (65,536), so that a prefix is numbered and not the whole log. */
const RECORDS = 140_000;
/** Beyond the first prefix. */
const LATE = RECORDS - 10;

const admin = (name: string, actions: Rule['actions']): Rule => ({
  ruleId: 'r-5', name, description: '', status: 'active', actions,
  conditions: { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$startsWith', value: '/admin' } as Leaf] }] },
});
/** The fixture rules and an admin rule challenged live, blocked declared: a second rule pair of the transition challenge → block. */
const WITH_ADMIN_LIVE: LiveRule[] = [...LIVE, { ...admin('Challenge admin', ['blockWithChallenge']), priority: LIVE.length } as LiveRule];
const WITH_ADMIN: Rule[] = [...DECLARED, admin('Block admin', ['hardBlock'])];

/** No rule matches it, before or after the change. */
const quiet = (i: number) => JSON.stringify({ path: '/about', method: 'GET', userAgent: 'Mozilla/5.0', ip: `198.51.100.${i % 250}`, country: 'DE' });
/** Challenged, then blocked (the login rule pair). */
const login = (i: number) => JSON.stringify({ path: '/login', method: 'POST', userAgent: 'Mozilla/5.0', ip: `203.0.113.${i % 250}`, country: 'US' });
/** Challenged, then blocked (the admin rule pair, the same transition). */
const adminPage = (i: number) => JSON.stringify({ path: '/admin/users', method: 'GET', userAgent: 'Mozilla/5.0', ip: `203.0.113.${i % 250}`, country: 'US' });
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

/** Each log, and how many of its first records are numbered. */
const LOGS: Record<string, { at: Record<number, string>; numbered: number }> = {
  'quiet.ndjson': { at: {}, numbered: 0 },
  'early.ndjson': { at: EARLY, numbered: 65_536 },
  // The admin pair lies only beyond the prefix: its transition's first three do not.
  'late-pair.ndjson': { at: { ...EARLY, [LATE]: adminPage(LATE), [LATE + 2]: adminPage(LATE + 2) }, numbered: 65_536 },
  'late-third.ndjson': { at: { ...EARLY, 13: quiet(13), [LATE]: checkout(LATE), [LATE + 1]: checkout(LATE + 1) }, numbered: RECORDS },
  'late-unusable.ndjson': { at: { ...EARLY, 15: quiet(15), [LATE]: unusable() }, numbered: RECORDS },
  'late-odd.ndjson': { at: { ...EARLY, [LATE]: odd() }, numbered: RECORDS },
};

let project: string;
beforeAll(() => {
  project = replayProject(WITH_ADMIN, WITH_ADMIN_LIVE);
  for (const [file, { at }] of Object.entries(LOGS)) writeFileSync(path.join(project, file), log(at));
});

function withoutEngine(stdout: string): unknown {
  const { engine: _engine, ...report } = JSON.parse(stdout) as Record<string, unknown>;
  return report;
}

it.each(Object.keys(LOGS))('reads %s itself, numbering only as far as the report needs, and gives the js engine\'s report whole', async (file) => {
  const run = (engine: string) => botrules(project, 'replay', '--live', 'live.json', '--format', 'json', '--verbose', '--engine', engine, file);
  const [js, duckdb] = [await run('js'), await run('duckdb')];
  expect(duckdb.stderr).toContain(`${file}: read by DuckDB (its first ${LOGS[file]?.numbered} records numbered)`);
  expect(withoutEngine(duckdb.stdout)).toEqual(withoutEngine(js.stdout));
  expect(duckdb.code).toBe(js.code);
  // The late logs but late-odd and late-pair show a record beyond the first prefix (late-odd's is counted,
  // late-pair's pair too: in the totals compared).
  expect(/"line": ?139990/.test(js.stdout)).toBe(['late-third.ndjson', 'late-unusable.ndjson'].includes(file));
  if (file === 'late-pair.ndjson') expect(js.stdout).toContain('Block admin');
});
