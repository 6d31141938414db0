// The done-when property of the exhaustive behaviour diff (issue #26): over random small rule
// sets and edits of them, every region is real (its witness is decided as the region says, and
// differently) and no differing request of the brute-force domain — every combination of the
// values the rules mention, one value none mentions, and no value — falls outside every region.
// With `$re` leaves the search may leave parts unchecked; then it must say so.
import fc from 'fast-check';
import { behaviourDiff } from '../../src/diff/diff.js';
import { regionsWhere } from '../../src/diff/regions.js';
import type { NormalRule } from '../../src/semantics/model.js';
import { differ, domain, editedList, oracleProblems, outcomeUnder, outcomeText, ruleList } from './brute-force.js';

const pairs = (withPatterns: boolean) => ruleList(withPatterns).chain((before) => fc.tuple(fc.constant(before), editedList(withPatterns)(before)));

describe('regionsWhere against brute force', () => {
  it('without patterns: every region real, no differing request missed', () => {
    fc.assert(
      fc.property(pairs(false), ([before, after]) => {
        fc.pre(domain([before, after]).length <= 20000);
        const search = regionsWhere([before, after], differ);
        expect(search.unchecked).toEqual([]);
        expect(oracleProblems([before, after], search, differ)).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('with patterns: every region real, and a missed request only where a part is said to be unchecked', () => {
    fc.assert(
      fc.property(pairs(true), ([before, after]) => {
        fc.pre(domain([before, after]).length <= 20000);
        expect(oracleProblems([before, after], regionsWhere([before, after], differ), differ)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('three rule sets at once, with a predicate other than "differ"', () => {
    // "The middle set allows what both ends block or challenge" (what safe transitions ask).
    const blocks = (outcome: Parameters<typeof outcomeText>[0]) => 'actions' in outcome && outcome.actions.some((action) => action !== 'allow');
    const window = ([first, middle, last]: readonly Parameters<typeof outcomeText>[0][]) =>
      blocks(first as never) && blocks(last as never) && 'actions' in (middle as object) && (middle as { actions: string[] }).actions.includes('allow');
    fc.assert(
      fc.property(ruleList(false), ruleList(false), ruleList(false), (x, y, z) => {
        fc.pre(domain([x, y, z]).length <= 20000);
        expect(oracleProblems([x, y, z], regionsWhere([x, y, z], window), window)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('groups the diff risk first: every change of outcome in the order of its risk', () => {
    const order = ['allows', 'weakens', 'other-rule', 'strengthens'];
    fc.assert(
      fc.property(pairs(false), ([before, after]: [NormalRule[], NormalRule[]]) => {
        const risks = behaviourDiff(before, after).changes.map((change) => order.indexOf(change.risk));
        expect(risks).toEqual([...risks].sort((p, q) => p - q));
        for (const change of behaviourDiff(before, after).changes) {
          for (const region of change.regions) expect(outcomeText(outcomeUnder(after, region.witness))).toBe(outcomeText(change.after));
        }
      }),
      { numRuns: 200 },
    );
  });
});
