// The evaluator's confirmation of a region's witness (src/diff/confirm.ts) against decide() on
// each list: over random pairs of rule lists (one edited from the other, so they share most of
// their conditions, given in turn and back, each list asked from where it stops sharing the one
// before) and every request of their brute-force domain, the deciding rule of each list,
// or the first rule whose match is undecided, is the one decide() gives, though each distinct
// condition tree is evaluated once per request and the trees whose guard the request fails are not
// asked (the index is made after the first few requests of a pair). Confirmations are counted, so the
// property cannot pass without them.
import fc from 'fast-check';
import { decide } from '../../src/evaluate/evaluate.js';
import type { NormalRule } from '../../src/semantics/model.js';
import { AtomTable } from '../../src/diff/atoms.js';
import { WitnessCheck } from '../../src/diff/confirm.js';
import { activeEntries } from '../../src/diff/entries.js';
import { RequestVerdicts } from '../../src/diff/request-verdicts.js';
import { differ, domain, editedList, ruleList } from './brute-force.js';

/** decide()'s answer as the confirmation gives it: the deciding rules, or the first undecided one. */
function byDecide(sets: readonly (readonly NormalRule[])[], request: Parameters<typeof decide>[1], options: Parameters<typeof decide>[2]): { deciding: (string | undefined)[]; undecided?: string } {
  const deciding: (string | undefined)[] = [];
  for (const rules of sets) {
    const decision = decide(rules, request, options);
    if (decision.undecided !== undefined) return { deciding, undecided: decision.undecided.rule.name };
    deciding.push(decision.rule?.name);
  }
  return { deciding };
}

describe('the confirmation of a witness', () => {
  it('names the rule decide() names in every list, or the same undecided rule', () => {
    let confirmed = 0;
    let decided = 0;
    fc.assert(
      fc.property(
        ruleList(true, ['a', 'b', 'c', 'd', 'e', 'f']).chain((before) => fc.tuple(fc.constant(before), editedList(true)(before))),
        fc.boolean(),
        ([before, after], ignoreCase) => {
          // The lists in turn and back, one of them twice over: each starts as the one before does (entries.ts sharedHead).
          const sets = [before, after, after, before];
          const requests = domain(sets);
          fc.pre(requests.length <= 3000);
          const options = { caseInsensitiveValues: ignoreCase };
          const table = new AtomTable();
          const entries = activeEntries(sets, table, differ);
          const check = new WitnessCheck(entries, new RequestVerdicts(table, options));
          for (const request of requests) {
            const got = check.confirm(request);
            const answer = { deciding: got.deciding.map((entry) => entry?.rule.name), ...(got.undecided === undefined ? {} : { undecided: got.undecided.rule.name }) };
            expect({ request, answer }).toEqual({ request, answer: byDecide(sets, request, options) });
            confirmed += 1;
            if (answer.deciding.some((name) => name !== undefined)) decided += 1;
          }
        },
      ),
      { numRuns: 200 },
    );
    expect(confirmed).toBeGreaterThan(5_000);
    expect(decided).toBeGreaterThan(confirmed / 10);
  });
});
