// Every back end of the compiled program (semantics/program.ts) decides as the reference
// evaluator (src/evaluate/) does, on random rule sets and random requests: the JavaScript
// back end (replay/compiled.ts) and the SQL back end executed in DuckDB
// (replay/duckdb/decider.ts). Every condition type and operator; IPv4, IPv6 and IPv4-mapped
// addresses against IPv4 and IPv6 ranges, text that is no address, invalid ranges; absent
// fields; `$re` patterns inside RE2's exact subset, outside it (lookaround, backreferences) and
// invalid; texts beyond U+FFFF; leaves with fields the tool does not know.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { decide, type Decision } from '../../../src/evaluate/evaluate.js';
import type { NormalRule } from '../../../src/semantics/model.js';
import { compileProgram } from '../../../src/semantics/program.js';
import { compileRuleSets } from '../../../src/replay/compiled.js';
import { batchLine } from '../../../src/replay/duckdb/batches.js';
import { DuckDbDecider } from '../../../src/replay/duckdb/decider.js';
import { normal } from '../../helpers/rules.js';
import { requestsFrom, rulesFrom } from '../../helpers/rule-arbitraries.js';

const TEXTS = ['', 'a', 'ab', '/a', '/ab', 'b', 'A', 'a\nb', '😀a', 'é'];
const IPS = ['10.0.0.1', '10.1.2.3', '192.0.2.1', '2001:db8::1', '2001:db9::1', '::ffff:10.0.0.1', 'fe80::1', 'not an ip', '10.0.0.01', '255.255.255.255'];
const RANGES = ['10.0.0.0/8', '10.0.0.0/16', '10.0.0.1', '192.0.2.0/24', '0.0.0.0/0', '2001:db8::/32', '2001:db8::1', '::/0', '::ffff:0:0/96', '::ffff:10.0.0.0/104', '10.0.0.0/33', 'bogus'];
const PATTERNS = ['^/a', 'b$', '[a-c]+', '\\d', 'a|b', '^$', '(?=a)a', '(a)\\1', '(?<!x)b', '(', '.', '\\s'];
const NAMES = ['x-a', 'X-A', 'q', '__proto__'];

const POOLS = { texts: TEXTS, ips: IPS, ranges: RANGES, patterns: PATTERNS, names: NAMES };
const request = requestsFrom(POOLS);
const rule = rulesFrom(POOLS);

function codeOf(decision: Decision<NormalRule>): number {
  if (decision.undecided !== undefined) return -2 - decision.undecided.index;
  return decision.rule === undefined ? -1 : decision.index;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'botrules-backends-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the JavaScript and the DuckDB back ends decide every request as the reference evaluator does', async () => {
  let run = 0;
  await fc.assert(fc.asyncProperty(fc.array(rule, { maxLength: 8 }), fc.array(rule, { maxLength: 8 }), fc.array(request, { minLength: 1, maxLength: 12 }), async (liveRules, declaredRules, requests) => {
    const live = liveRules.map((r, i) => normal({ ...r, name: `live ${i}` }));
    // The declared set repeats live trees, so leaves and trees are shared across the sets.
    const declared = [...declaredRules.map((r, i) => normal({ ...r, name: `declared ${i}` })), ...live.slice(0, 2)];
    const expected = requests.map((one) => [codeOf(decide(live, one)), codeOf(decide(declared, one))]);
    const js = compileRuleSets([live, declared]);
    expect(requests.map((one) => js.decide(one).map(codeOf))).toEqual(expected);

    const file = path.join(dir, `batch-${run++}.ndjson`);
    const lines = requests.map((one, row) => batchLine(row, one));
    writeFileSync(file, lines.filter((line) => line !== undefined).join('\n'));
    const decider = await DuckDbDecider.open(compileProgram([live, declared]));
    try {
      const groups = await decider.decide(file);
      // Each group: the requests with those decisions, how many, and the first of them.
      const byCodes = new Map<string, number[]>();
      expected.forEach((codes, row) => {
        if (lines[row] === undefined) return;
        const key = codes.join(',');
        byCodes.set(key, [...(byCodes.get(key) ?? []), row]);
      });
      expect(new Map(groups.map((g) => [g.codes.join(','), { count: g.count, firsts: g.firsts }])))
        .toEqual(new Map([...byCodes].map(([key, rows]) => [key, { count: rows.length, firsts: rows.slice(0, 3) }])));
    } finally {
      decider.close();
    }
  }), { numRuns: 300 });
});
