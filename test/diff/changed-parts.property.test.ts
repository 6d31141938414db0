// The search in proportion to the change (src/diff/changed-parts.ts) against brute force:
// rule sets scoped to a few hosts (`$eq` / `$in` on the domain, as tenants' rules are), some
// unscoped, edited and moved; every region real and no interesting request of the domain missed,
// while the reduction did cut the lists (counted: about a fifth of the pairs and a tenth of the
// triples, most of the rest being fresh lists with nothing in common, so the property cannot pass without reaching it).
import fc from 'fast-check';
import { changedParts } from '../../src/diff/changed-parts.js';
import { regionsWhere } from '../../src/diff/regions.js';
import type { Group, Leaf, NormalRule } from '../../src/semantics/model.js';
import { differ, domain, editedList, oracleProblems, ruleList } from './brute-force.js';

const HOSTS = ['a.example', 'b.example', 'c.example'];
const NAMES = ['a', 'b', 'c', 'd', 'e', 'f'];

const hostLeaf: fc.Arbitrary<Leaf | undefined> = fc.oneof(
  fc.constantFrom(...HOSTS).map((host): Leaf => ({ conditionType: 'domain', operator: '$eq', value: host })),
  fc.subarray(HOSTS, { minLength: 1, maxLength: 2 }).map((hosts): Leaf => ({ conditionType: 'domain', operator: '$in', value: hosts })),
  fc.constant(undefined),
);

/** Rules of ruleList, most scoped to one or two hosts by an `$and` group of their own. */
const scopedList: fc.Arbitrary<NormalRule[]> = ruleList(false, NAMES).chain((rules) =>
  fc.tuple(...rules.map(() => hostLeaf)).map((hosts) => rules.map((rule, i) => {
    const host = hosts[i];
    if (host === undefined) return rule;
    const scope: Group = { operator: '$and', children: [host] };
    return { ...rule, conditions: { operator: '$and' as const, children: [scope, ...rule.conditions.children] } };
  })),
);

/** Cut: some rule left out of the search, or the rules split into parts. */
function cut(sets: readonly (readonly NormalRule[])[], interesting: Parameters<typeof changedParts>[1]): boolean {
  const parts = changedParts(sets, interesting);
  return Array.isArray(parts);
}

describe('the search in proportion to the change, against brute force', () => {
  it('two sets: every region real, no differing request missed, and the lists were cut', () => {
    let reached = 0;
    let runs = 0;
    fc.assert(
      fc.property(scopedList.chain((before) => fc.tuple(fc.constant(before), editedList(false)(before))), ([before, after]) => {
        fc.pre(domain([before, after]).length <= 20000);
        runs += 1;
        if (cut([before, after], differ)) reached += 1;
        const search = regionsWhere([before, after], differ);
        expect(search.unchecked).toEqual([]);
        expect(oracleProblems([before, after], search, differ)).toEqual([]);
      }),
      { numRuns: 400 },
    );
    expect(reached).toBeGreaterThan(runs / 10);
  });

  it('three sets (a state between two): every window real and none missed', () => {
    const blocks = (outcome: unknown) => typeof outcome === 'object' && outcome !== null && 'actions' in outcome && (outcome as { actions: string[] }).actions.some((action) => action !== 'allow');
    const window = ([first, middle, last]: readonly unknown[]) => blocks(first) && blocks(last) && !blocks(middle);
    let reached = 0;
    let runs = 0;
    fc.assert(
      fc.property(scopedList.chain((start) => fc.tuple(fc.constant(start), editedList(false)(start), editedList(false)(start))), ([start, middle, end]) => {
        fc.pre(domain([start, middle, end]).length <= 20000);
        runs += 1;
        if (cut([start, middle, end], window)) reached += 1;
        expect(oracleProblems([start, middle, end], regionsWhere([start, middle, end], window), window)).toEqual([]);
      }),
      { numRuns: 300 },
    );
    expect(reached).toBeGreaterThan(runs / 30);
  });
});
