// The witness search's memory of trees' verdicts (src/diff/verdict-memo.ts) against the
// evaluator: over random condition trees and every request of their brute-force domain, asked
// in two orders (so remembered failures meet requests that differ in other fields), with values
// compared as written or ignoring case, a tree may match exactly when the evaluator does not
// say it fails — and a share of the answers came from memory (counted, so the property cannot
// pass without reaching them).
import fc from 'fast-check';
import { conditionsVerdict } from '../../src/evaluate/evaluate.js';
import { leafVerdict } from '../../src/evaluate/leaf.js';
import type { TestRequest } from '../../src/evaluate/request.js';
import type { Conditions } from '../../src/semantics/model.js';
import { requiredLeaves, VerdictMemo } from '../../src/diff/verdict-memo.js';
import { domain, ruleList } from './brute-force.js';

describe('the memory of trees a request does not match', () => {
  it('answers as the evaluator does, from memory for a share of the requests', () => {
    let asked = 0;
    let remembered = 0;
    fc.assert(
      fc.property(ruleList(true, ['a', 'b', 'c', 'd', 'e', 'f']), fc.boolean(), (rules, ignoreCase) => {
        const requests = domain([rules]);
        fc.pre(requests.length <= 1500);
        const options = { caseInsensitiveValues: ignoreCase };
        const memo = new VerdictMemo(options);
        let wrong: { conditions: Conditions; request: TestRequest; expected: boolean } | undefined;
        for (const request of [...requests, ...[...requests].reverse()]) {
          for (const { conditions } of rules) {
            const before = memo.remembered;
            const expected = conditionsVerdict(conditions, request, options) !== false;
            // One expect per property run (not per request): the first disagreement, if any.
            if (memo.mayMatch(conditions, request) !== expected) wrong ??= { conditions, request, expected };
            asked += 1;
            remembered += memo.remembered - before;
          }
        }
        expect(wrong).toBeUndefined();
        expect(memo.evaluated + memo.remembered).toBe(requests.length * 2 * rules.length);
      }),
      { numRuns: 200 },
    );
    // About a third of the answers come from memory over these small sets.
    expect(remembered).toBeGreaterThan(asked / 5);
  });

  it('takes as required only the leaves every way of matching needs', () => {
    const leaf = (value: string) => ({ conditionType: 'userAgent' as const, operator: '$contains' as const, value });
    const [a, b, c, d] = [leaf('a'), leaf('b'), leaf('c'), leaf('d')];
    const tree = (operator: '$and' | '$or', groups: Conditions['children']): Conditions => ({ operator, children: groups });
    expect(requiredLeaves(tree('$and', [{ operator: '$and', children: [a, b] }, { operator: '$or', children: [c, d] }, { operator: '$or', children: [d] }]))).toEqual([a, b, d]);
    expect(requiredLeaves(tree('$or', [{ operator: '$and', children: [a, b] }]))).toEqual([a, b]);
    expect(requiredLeaves(tree('$or', [{ operator: '$and', children: [a] }, { operator: '$and', children: [b] }]))).toEqual([]);
    // Each required leaf false makes the tree fail, the memo's premise.
    const request = { path: '/', method: 'GET', userAgent: 'bd' };
    expect(leafVerdict(a, request)).toBe(false);
    expect(conditionsVerdict(tree('$and', [{ operator: '$and', children: [a, b] }, { operator: '$or', children: [c, d] }]), request)).toBe(false);
  });
});
