// `replay merge` (src/replay/merge.ts): for any log of decided requests and any split
// of it into consecutive shards, the merge of the shards' reports is the report of the whole log
// (counts, shares, rule pairs and their order, examples, skipped reasons), files aside.
import fc from 'fast-check';
import type { Decision } from '../../src/evaluate/evaluate.js';
import type { NormalRule } from '../../src/semantics/model.js';
import { mergeReports } from '../../src/replay/merge.js';
import { ReplayTally, type ReplayReport } from '../../src/replay/tally.js';
import type { RequestField } from '../../src/replay/coverage.js';
import { normal } from '../helpers/rules.js';

const RULES: NormalRule[] = (['allow', 'hardBlock', 'blockWithChallenge', 'hardBlock'] as const).map((action, i) => normal({
  name: `rule ${i}`, description: '', status: 'active', actions: [action],
  conditions: { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$eq', value: `/${i}` }] }] },
}));

/** A decision: a rule's position, -1 for none, or -2 - position for an undecided match. */
function decision(code: number): Decision<NormalRule> {
  if (code === -1) return { rule: undefined, index: -1, actions: [] };
  if (code < -1) return { rule: undefined, index: -1, actions: [], undecided: { rule: RULES[-2 - code] as NormalRule, index: -2 - code } };
  return { rule: RULES[code], index: code, actions: [...(RULES[code] as NormalRule).actions] };
}

type Line = { skip: string } | { before: number; after: number };
const code = fc.integer({ min: -3, max: RULES.length - 1 });
const line: fc.Arbitrary<Line> = fc.oneof(
  { arbitrary: fc.record({ before: code, after: code }), weight: 9 },
  { arbitrary: fc.record({ skip: fc.constantFrom('not JSON', 'not a JSON object') }), weight: 1 },
);

function replay(lines: readonly Line[], file: string, firstLine: number): ReplayReport {
  const tally = new ReplayTally();
  lines.forEach((one, i) => {
    if ('skip' in one) tally.skip(one.skip, file, firstLine + i);
    else tally.add({ file, line: firstLine + i, request: { path: `/${firstLine + i}` } }, decision(one.before), decision(one.after));
  });
  return tally.report({ app: 'shop', against: 'the live rules', files: [file], notApplied: [] });
}

test('the merge of the reports of any split of a log is the report of the whole log', () => {
  fc.assert(fc.property(fc.array(line, { maxLength: 60 }), fc.array(fc.nat(60), { minLength: 1, maxLength: 5 }), (lines, cutsAt) => {
    const cuts = [...new Set(cutsAt.map((at) => at % (lines.length + 1)))].sort((a, b) => a - b);
    const bounds = [0, ...cuts.filter((at) => at > 0 && at < lines.length), lines.length];
    // One file for the whole log, its line numbers continuing across the shards.
    const shards = bounds.slice(0, -1).map((start, i) => ({ source: `shard ${i}`, report: replay(lines.slice(start, bounds[i + 1]), 'log.ndjson', start + 1) }));
    const merged = mergeReports(shards);
    const whole = replay(lines, 'log.ndjson', 1);
    expect({ ...merged, files: ['log.ndjson'] }).toEqual(whole);
  }), { numRuns: 2000 });
});

test('pairs as frequent in the whole log keep its order, whichever shard saw more of them', () => {
  // rule 1 → none and rule 3 → none: both block → none, two each; the first shard sees rule 3's twice.
  const lines: Line[] = [{ before: 1, after: -1 }, { before: 3, after: -1 }, { before: 3, after: -1 }, { before: 1, after: -1 }];
  const merged = mergeReports([{ source: 'a', report: replay(lines.slice(0, 3), 'log.ndjson', 1) }, { source: 'b', report: replay(lines.slice(3), 'log.ndjson', 4) }]);
  expect({ ...merged, files: ['log.ndjson'] }).toEqual(replay(lines, 'log.ndjson', 1));
});

test('fields lacking as often keep the whole log\'s order, whichever shard met them first', () => {
  const lacking = (fields: RequestField[][], file: string, firstLine: number): ReplayReport => {
    const tally = new ReplayTally();
    fields.forEach((lacked, i) => tally.undecidedByMissing({ file, line: firstLine + i, request: { path: '/' } }, lacked));
    const report = tally.report({ app: 'shop', against: 'the live rules', files: [file], notApplied: [] });
    report.coverage = tally.coverage(new Map([['country', ['rule 0']], ['asn', ['rule 1']]]));
    return report;
  };
  // The first shard lacks the country, the second the ASN: one each, so by name.
  const lines: RequestField[][] = [['country'], ['asn']];
  const merged = mergeReports([{ source: 'a', report: lacking(lines.slice(0, 1), 'log', 1) }, { source: 'b', report: lacking(lines.slice(1), 'log', 2) }]);
  const whole = lacking(lines, 'log', 1);
  expect(merged.coverage?.missing.map((one) => one.field)).toEqual(['asn', 'country']);
  expect({ ...merged, files: ['log'] }).toEqual(whole);
});
