// `replay --emit-sql --dialect duckdb` executed in DuckDB over a table of requests gives the
// tally replay gives (src/replay/sql/): random live and declared rule sets (every condition
// type and operator, paused rules, leaves with fields the tool does not know) and random
// requests (absent fields, IPv4 and IPv6 addresses in every written form against IPv4 and IPv6
// ranges, texts beyond U+FFFF, `$re` inside and outside RE2's exact subset). Where the dialect
// cannot decide a leaf exactly, the query says `undecided` and names it at the top: the expected
// rows are the reference evaluator's with exactly those leaves undecided, and where there are
// none, they are the reference evaluator's own and their transitions are replay's.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { duckdbForFile } from '../../helpers/duckdb.js';
import fc from 'fast-check';
import { compilePattern } from '../../../src/evaluate/pattern.js';
import { decide, type Decision, combine } from '../../../src/evaluate/evaluate.js';
import { fieldOf, type TestRequest } from '../../../src/evaluate/request.js';
import { leafVerdict, type Verdict } from '../../../src/evaluate/leaf.js';
import type { Leaf, NormalRule } from '../../../src/semantics/model.js';
import { compileProgram } from '../../../src/semantics/program.js';
import { DIALECT } from '../../../src/replay/sql/dialects.js';
import { replayQuery } from '../../../src/replay/sql/emit.js';
import { outcomeKind, outcomeOf, ReplayTally } from '../../../src/replay/tally.js';
import { normal } from '../../helpers/rules.js';
import { requestsFrom, rulesFrom } from '../../helpers/rule-arbitraries.js';
import { requestRows, TABLE_COLUMNS } from './requests-table.js';

const TEXTS = ['', 'a', 'ab', '/a', '/ab', 'b', 'A', 'a\nb', '😀a', 'é', "it's", 'back\\slash', '-- x', '%_'];
const IPS = [
  '10.0.0.1', '10.1.2.3', '192.0.2.1', '255.255.255.255', '10.0.0.01', 'not an ip', '1.2.3', '',
  '2001:db8::1', '2001:DB8:0:0:0:0:0:0001', '2001:db9::1', '2001:db8::1:2:3:4:5', 'fe80::1', 'fe80::1%eth0', '::', '::1',
  '::ffff:10.0.0.1', '::FFFF:10.0.0.1', '::ffff:a00:1', '::10.0.0.1', '1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:8', '1::2:3:4:5:6:7',
  '1:2:3:4:5:6:1.2.3.4', '1::2::3', '2001:db8::g', '::ffff:1.2.3.256', '1:2:3:4:5:6:7:8::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
];
const RANGES = [
  '10.0.0.0/8', '10.0.0.0/16', '10.0.0.1', '192.0.2.0/24', '0.0.0.0/0', '255.255.255.255/32', '2001:db8::/32', '2001:db8::1',
  '::/0', '::ffff:0:0/96', '::ffff:10.0.0.0/104', '::/96', 'fe80::/10', 'fe80::1%eth0', '8000::/1', 'ffff:ffff:ffff:ffff::/64',
  '10.0.0.0/33', '2001:db8::/129', '10.0.0.0/08', 'bogus',
];
const PATTERNS = ['^/a', 'b$', '[a-c]+', '\\d', 'a|b', '^$', '.', '\\s', '(?=a)a', '(a)\\1', '(?<!x)b', '(', "'", '\\\\'];
const NAMES = ['x-a', 'X-A', 'q', '__proto__', "it's"];

const POOLS = { texts: TEXTS, ips: IPS, ranges: RANGES, patterns: PATTERNS, names: NAMES };
const request = requestsFrom(POOLS);
const rule = rulesFrom(POOLS);

const SURROGATE = /[\ud800-\udfff]/;

/** The reference evaluator's verdict, with the `$re` patterns DuckDB cannot decide exactly undecided. */
function duckdbVerdict(one: Leaf, on: TestRequest): Verdict {
  const value = fieldOf(on, one);
  if (one.operator !== '$re' || value === undefined) return leafVerdict(one, on);
  const sources = Array.isArray(one.value) ? one.value : [String(one.value)];
  const beyond = (source: string) => compilePattern(source, false).engine === 'v8' || (compilePattern(source, false).engine === 're2' && SURROGATE.test(value));
  return combine('$or', sources, (source) => (beyond(source) ? 'undecided' : compilePattern(source, false).test(value)));
}

/** decide() of evaluate.ts with DuckDB's leaf verdicts. */
function duckdbDecide(rules: readonly NormalRule[], on: TestRequest): Decision<NormalRule> {
  for (let index = 0; index < rules.length; index++) {
    const one = rules[index] as NormalRule;
    if (one.status !== 'active') continue;
    const verdict = combine(one.conditions.operator, one.conditions.children, (g) => combine(g.operator, g.children, (l) => duckdbVerdict(l, on)));
    if (verdict === true) return { rule: one, index, actions: [...one.actions] };
    if (verdict === 'undecided') return { rule: undefined, index: -1, actions: [], undecided: { rule: one, index } };
  }
  return { rule: undefined, index: -1, actions: [] };
}

function rowOf(live: Decision<NormalRule>, declared: Decision<NormalRule>): string {
  const side = (d: Decision<NormalRule>) => [d.undecided?.rule.name ?? d.rule?.name ?? null, d.undecided === undefined ? outcomeKind(d.actions) : 'undecided'];
  return JSON.stringify([...side(live), ...side(declared)]);
}

function tally(rows: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row, (counts.get(row) ?? 0) + 1);
  return counts;
}

let dir: string;
const connection = duckdbForFile();
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'botrules-emit-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function loadRequests(requests: readonly TestRequest[], file: string): Promise<void> {
  writeFileSync(path.join(dir, file), requestRows(requests));
  await connection().run(`CREATE OR REPLACE TABLE requests AS SELECT * FROM read_json('${path.join(dir, file)}', format = 'newline_delimited', columns = ${TABLE_COLUMNS})`);
}

test('the DuckDB query gives the tally the reference evaluator gives, undecided exactly where its top says', async () => {
  let run = 0;
  await fc.assert(fc.asyncProperty(fc.array(rule, { maxLength: 7 }), fc.array(rule, { maxLength: 7 }), fc.array(request, { minLength: 1, maxLength: 15 }), async (liveRules, declaredRules, requests) => {
    const live = liveRules.map((r, i) => normal({ ...r, name: `live ${i}` }));
    // The declared set repeats live rules, so leaves and trees are shared across the sets.
    const declared = [...declaredRules.map((r, i) => normal({ ...r, name: `declared ${i}` })), ...live.slice(0, 2)];
    await loadRequests(requests, `requests-${run++}.ndjson`);
    const query = replayQuery(compileProgram([live, declared]), DIALECT.duckdb, 'requests');
    const result = await connection().runAndReadAll(query.sql);
    const got = new Map(result.getRows().map((row) => [JSON.stringify(row.slice(0, 4)), Number(row[4])]));

    const decisions = requests.map((one) => [duckdbDecide(live, one), duckdbDecide(declared, one)] as const);
    expect(got).toEqual(tally(decisions.map(([l, d]) => rowOf(l, d))));
    const undecidedHere = decisions.some(([l, d]) => l.undecided !== undefined || d.undecided !== undefined);
    if (undecidedHere) expect(query.notes.length).toBeGreaterThan(0);
    if (query.notes.length > 0) return;

    // Nothing the dialect cannot decide: the reference evaluator's rows, and replay's transitions.
    const reference = requests.map((one) => [decide(live, one), decide(declared, one)] as const);
    expect(got).toEqual(tally(reference.map(([l, d]) => rowOf(l, d))));
    const replay = new ReplayTally();
    reference.forEach(([l, d], line) => replay.add({ file: 'log', line, request: requests[line] as TestRequest }, l, d));
    expect(transitionsOf(got)).toEqual(replay.report({ app: 'a', against: 'b', files: [], notApplied: [] }).transitions.map(({ from, to, count, rules }) => ({
      from, to, count, rules: rules.map((pair) => [pair.before ?? null, pair.after ?? null, pair.count]).sort(),
    })).sort(byOutcomes));
    expect(reference.every(([l, d]) => outcomeOf(l) !== 'undecided' && outcomeOf(d) !== 'undecided')).toBe(true);
  }), { numRuns: 250 });
});

type Row = [string | null, string, string | null, string];

/** The query's rows summed by outcome pair, as replay's transitions (outcome changed). */
function transitionsOf(rows: ReadonlyMap<string, number>) {
  const grouped = new Map<string, { from: string; to: string; count: number; rules: [string | null, string | null, number][] }>();
  for (const [key, count] of rows) {
    const [before, from, after, to] = JSON.parse(key) as Row;
    if (from === to) continue;
    const known = grouped.get(`${from}>${to}`) ?? { from, to, count: 0, rules: [] };
    known.count += count;
    known.rules.push([before, after, count]);
    grouped.set(`${from}>${to}`, known);
  }
  return [...grouped.values()].map((t) => ({ ...t, rules: t.rules.sort() })).sort(byOutcomes);
}

function byOutcomes(a: { from: string; to: string }, b: { from: string; to: string }): number {
  return `${a.from}>${a.to}` < `${b.from}>${b.to}` ? -1 : 1;
}
