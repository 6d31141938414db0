// The guarded stack of "must not match" trees (src/diff/tree-stack.ts) against a plain scan:
// over random condition trees pushed and popped, and every request of their brute-force domain,
// the first tree it names is the first tree that does not fail to match — from any position,
// trees popped and pushed again among them, with or without a question between (the stack
// indexes its trees when first asked) — while its guards did skip trees (counted, so the
// property cannot pass without reaching them).
import fc from 'fast-check';
import { conditionsVerdict } from '../../src/evaluate/evaluate.js';
import type { TestRequest } from '../../src/evaluate/request.js';
import type { Conditions } from '../../src/semantics/model.js';
import { TreeStack } from '../../src/diff/tree-stack.js';
import { domain, ruleList } from './brute-force.js';

/** The first position from `from` on whose tree does not fail to match `request`, asking every tree. */
function scanned(trees: readonly Conditions[], request: TestRequest, from: number): number {
  for (let at = from; at < trees.length; at++) if (conditionsVerdict(trees[at] as Conditions, request) !== false) return at;
  return -1;
}

describe('the guarded stack of trees that must not match', () => {
  it('names the first tree that may match, as a scan of every tree does, after pushes and pops', () => {
    let asked = 0;
    let skipped = 0;
    let repushed = 0;
    fc.assert(
      fc.property(ruleList(true, ['a', 'b', 'c', 'd', 'e', 'f']), fc.nat(3), fc.nat(5), fc.nat(4), fc.boolean(), (rules, pops, from, repush, askBetween) => {
        const sets = [rules];
        fc.pre(domain(sets).length <= 5000);
        const stack = new TreeStack(() => undefined);
        // Asked of every tree pushed so far: the trees are indexed then, and popping must take them out.
        const ask = (): void => {
          if (!askBetween) return;
          const request = domain(sets)[0] as TestRequest;
          const all = stack.list.slice();
          expect(stack.firstMatching(request, 0, (at) => conditionsVerdict(all[at] as Conditions, request) !== false)).toBe(scanned(all, request, 0));
        };
        for (const rule of rules) stack.push(rule.conditions);
        ask();
        // Popped and pushed again (a tree's lists are found once, then reused), then popped.
        const again = Math.min(repush, stack.length);
        for (let i = 0; i < again; i++) stack.pop();
        for (const rule of rules.slice(rules.length - again)) stack.push(rule.conditions);
        ask();
        for (let i = 0; i < Math.min(pops, stack.length); i++) stack.pop();
        if (again > rules.length - stack.length) repushed += 1;
        const kept = rules.slice(0, stack.length).map((rule) => rule.conditions);
        expect(stack.list).toEqual(kept);
        for (const request of domain(sets)) {
          const start = Math.min(from, kept.length);
          let calls = 0;
          const first = stack.firstMatching(request, start, (at) => {
            calls += 1;
            return conditionsVerdict(kept[at] as Conditions, request) !== false;
          });
          expect(first).toBe(scanned(kept, request, start));
          const scannedCount = (first === -1 ? kept.length : first + 1) - start;
          asked += 1;
          if (calls < scannedCount) skipped += 1;
        }
      }),
      { numRuns: 300 },
    );
    // Guards skip trees for a share of the requests (about one in seven over these small sets).
    expect(skipped).toBeGreaterThan(asked / 20);
    expect(repushed).toBeGreaterThan(50);
  });
});

describe('trees guarded by a prefix or a suffix', () => {
  const startsWithK: Conditions = { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'userAgent', operator: '$startsWith', value: 'k' }] }] };
  const endsWithHost: Conditions = { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'domain', operator: '$endsWith', value: '.gw-1.example' }] }, { operator: '$and', children: [{ conditionType: 'domain', operator: '$eq', value: 'gw-2.example' }] }] };
  const firstUnder = (trees: readonly Conditions[], request: TestRequest, ignoreCase: boolean): number => {
    const stack = new TreeStack(() => undefined);
    for (const tree of trees) stack.push(tree);
    let asked = 0;
    const first = stack.firstMatching(request, 0, (at) => {
      asked += 1;
      return conditionsVerdict(trees[at] as Conditions, request, { caseInsensitiveValues: ignoreCase }) !== false;
    });
    return first === -1 ? -1 : first * 10 + asked;
  };

  it('finds them by the prefixes and suffixes of the value, and asks no other', () => {
    expect(firstUnder([startsWithK, endsWithHost], { path: '/', method: 'GET', domain: 'api.gw-1.example' }, false)).toBe(11);
    expect(firstUnder([startsWithK, endsWithHost], { path: '/', method: 'GET', domain: 'gw-2.example' }, false)).toBe(11);
    expect(firstUnder([startsWithK, endsWithHost], { path: '/', method: 'GET', domain: 'gw-3.example', userAgent: 'x' }, false)).toBe(-1);
  });

  it('finds them in other letter cases when values compare ignoring case, beyond ASCII too', () => {
    expect(firstUnder([endsWithHost, startsWithK], { path: '/', method: 'GET', userAgent: 'Kx' }, true)).toBe(11);
    // The Kelvin sign folds to "k" in lower case.
    expect(firstUnder([endsWithHost, startsWithK], { path: '/', method: 'GET', userAgent: '\u212Ax' }, true)).toBe(11);
    expect(firstUnder([endsWithHost], { path: '/', method: 'GET', domain: 'API.GW-1.EXAMPLE' }, true)).toBe(1);
  });
});
