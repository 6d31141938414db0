// The trees' guards (src/diff/tree-guards.ts) as the stack's index asks them of one request
// (src/diff/tree-stack.ts candidates), which the witness search relies on to pass over the trees
// it does not list: over random condition trees and every request of their brute-force domain, a
// tree the index does not list for a request is one the evaluator finds does not match it
// (whether values compare in their case or not). The refusals are counted, those by address
// ranges and by a guard per way of a tree of `$or` too, so the property cannot pass without
// reaching them.
import fc from 'fast-check';
import { conditionsVerdict } from '../../src/evaluate/evaluate.js';
import type { TestRequest } from '../../src/evaluate/request.js';
import type { Conditions } from '../../src/semantics/model.js';
import { TreeStack } from '../../src/diff/tree-stack.js';
import { guardsOfTree } from '../../src/diff/tree-guards.js';
import { domain, ruleList } from './brute-force.js';

/** Whether the stack's index lists the tree at `at` among the candidates for `request`. */
function listedByIndex(stack: TreeStack, request: TestRequest, at: number): boolean {
  return stack.candidates(request).some((list) => list.includes(at));
}

describe('a tree guard asked of one request', () => {
  it('refuses only requests the tree does not match', () => {
    let asked = 0;
    let refused = 0;
    let refusedByRanges = 0;
    let refusedByWays = 0;
    fc.assert(
      fc.property(ruleList(true, ['a', 'b', 'c', 'd', 'e']), fc.boolean(), (rules, ignoreCase) => {
        const sets = [rules];
        fc.pre(domain(sets).length <= 5000);
        const trees = rules.map((rule) => rule.conditions);
        const stack = new TreeStack(() => undefined);
        for (const tree of trees) stack.push(tree);
        for (const request of domain(sets)) {
          trees.forEach((tree: Conditions, at) => {
            asked += 1;
            if (listedByIndex(stack, request, at)) return;
            refused += 1;
            const guards = guardsOfTree(tree) ?? [];
            if (guards.some((guard) => guard.ranges !== undefined)) refusedByRanges += 1;
            if (guards.length > 1) refusedByWays += 1;
            expect(conditionsVerdict(tree, request, { caseInsensitiveValues: ignoreCase })).toBe(false);
          });
        }
      }),
      { numRuns: 300 },
    );
    // Most trees of these small sets carry a guard; a good share of the domain fails it.
    expect(refused).toBeGreaterThan(asked / 10);
    expect(refusedByRanges).toBeGreaterThan(100);
    expect(refusedByWays).toBeGreaterThan(100);
  });

  it("meets a guard by an address range, IPv4 or IPv6, and one of a tree's ways", () => {
    const ranges = (...value: string[]): Conditions['children'][number] => ({ operator: '$and', children: [{ conditionType: 'socketIps', operator: '$in', value }] });
    const country = (value: string): Conditions['children'][number] => ({ operator: '$and', children: [{ conditionType: 'country', operator: '$eq', value }] });
    const networks: Conditions = { operator: '$or', children: [ranges('203.0.113.0/24', '2001:db8::/32'), country('RU')] };
    const request = (fields: Partial<TestRequest>): TestRequest => ({ path: '/', method: 'GET', ...fields });
    const stack = new TreeStack(() => undefined);
    stack.push(networks);
    expect(guardsOfTree(networks)?.length).toBe(2);
    const met = [request({ ip: '203.0.113.9' }), request({ ip: '2001:db8:1::5' }), request({ country: 'RU' }), request({ ip: '::ffff:203.0.113.9' })];
    expect(met.map((r) => [listedByIndex(stack, r, 0), conditionsVerdict(networks, r)])).toEqual([[true, true], [true, true], [true, true], [true, true]]);
    const failed = [request({ ip: '203.0.114.9' }), request({ ip: '2001:db9::1' }), request({ ip: 'not an address' }), request({ country: 'CN' }), request({})];
    expect(failed.map((r) => listedByIndex(stack, r, 0))).toEqual([false, false, false, false, false]);
  });

  it('meets a guard by a prefix or a suffix in another letter case, and beyond ASCII', () => {
    const endsWithHost: Conditions = { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'domain', operator: '$endsWith', value: '.gw-1.example' }] }, { operator: '$and', children: [{ conditionType: 'domain', operator: '$eq', value: 'gw-2.example' }] }] };
    const request = (domain: string): TestRequest => ({ path: '/', method: 'GET', domain });
    const stack = new TreeStack(() => undefined);
    stack.push(endsWithHost);
    expect([request('api.gw-1.example'), request('API.GW-1.EXAMPLE'), request('gw-2.example'), request('api.gw-1.exampl\u212A')].map((r) => listedByIndex(stack, r, 0))).toEqual([true, true, true, true]);
    expect([request('gw-3.example'), request('gw-1.example.org'), { path: '/', method: 'GET' }].map((r) => listedByIndex(stack, r, 0))).toEqual([false, false, false]);
  });

  it('guards a way with both a prefix and a suffix by its prefix', () => {
    // A wildcard host beside a path prefix (the plan benchmark's `apis` rules): every host of the
    // tenant ends so, the path prefix names one endpoint, and only requests on it ask the tree.
    const endpoint: Conditions = { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'domain', operator: '$endsWith', value: '.partner.example' }, { conditionType: 'path', operator: '$startsWith', value: '/v2/orders' }] }] };
    expect(guardsOfTree(endpoint)?.map((guard) => [guard.leaf.conditionType, guard.affix, [...(guard.values ?? [])]])).toEqual([['path', 'prefix', ['/v2/orders']]]);
    const stack = new TreeStack(() => undefined);
    stack.push(endpoint);
    const request = (path: string): TestRequest => ({ path, method: 'GET', domain: 'api-1.partner.example' });
    expect([request('/v2/orders/7'), request('/v2/prices')].map((r) => listedByIndex(stack, r, 0))).toEqual([true, false]);
  });
});
