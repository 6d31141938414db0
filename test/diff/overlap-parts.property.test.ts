// The search in proportion to the change, split by ways and by texts (src/diff/overlap-groups.ts,
// required-texts.ts), against brute force: rules that are an `$or` of ways, each way scoped to
// a domain by `$eq`, `$in`, `$startsWith`, `$endsWith` or an anchored `$re`, some unscoped; edited
// and moved. Every region real and no interesting request of the domain missed. The runs where
// the lists were cut, split into parts, and where a rule was searched with only some of its
// ways, are counted, so the property cannot pass without reaching them.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { changedParts } from '../../src/diff/changed-parts.js';
import { regionsWhere } from '../../src/diff/regions.js';
import type { Group, Leaf, NormalRule } from '../../src/semantics/model.js';
import { differ, domain, editedList, oracleProblems, ruleList } from './brute-force.js';

const NAMES = ['a', 'b', 'c', 'd', 'e', 'f'];

/** Hosts and affixes that meet or not: `a.example` starts with `a.` and ends with `.example`, `b.test` neither. */
const scope: fc.Arbitrary<Leaf | undefined> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('a.example', 'b.example', 'b.test', 'ab.test', 'c.example').map((host): Leaf => ({ conditionType: 'domain', operator: '$eq', value: host })) },
  { weight: 2, arbitrary: fc.subarray(['a.example', 'b.test', 'c.example'], { minLength: 1, maxLength: 2 }).map((hosts): Leaf => ({ conditionType: 'domain', operator: '$in', value: hosts })) },
  { weight: 2, arbitrary: fc.constantFrom('a.', 'ab.', 'b.').map((start): Leaf => ({ conditionType: 'domain', operator: '$startsWith', value: start })) },
  { weight: 1, arbitrary: fc.constantFrom('.example', '.test', 'b.test').map((end): Leaf => ({ conditionType: 'domain', operator: '$endsWith', value: end })) },
  { weight: 1, arbitrary: fc.constantFrom('^a\\.', '^ab?\\.test$', '^b\\.(example|test)$', '^c|b').map((pattern): Leaf => ({ conditionType: 'domain', operator: '$re', value: [pattern] })) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/** Rules of ruleList, each way (a group of a root `$or`) scoped on its own, or the whole rule scoped. */
const scopedWays: fc.Arbitrary<NormalRule[]> = ruleList(false, NAMES).chain((rules) =>
  fc.tuple(...rules.map((rule) => fc.array(scope, { minLength: rule.conditions.children.length, maxLength: rule.conditions.children.length }))).map((scopes) =>
    rules.map((rule, i) => {
      // A scoped way requires its scope and one of its own leaves (an `$or` group becomes an `$and`).
      const scoped = (group: Group, leaf: Leaf | undefined): Group => (leaf === undefined ? group : { operator: '$and', children: [leaf, ...group.children.slice(0, 1)] });
      const ofRule = scopes[i] as (Leaf | undefined)[];
      if (rule.conditions.operator === '$or') return { ...rule, conditions: { operator: '$or' as const, children: rule.conditions.children.map((group, way) => scoped(group, ofRule[way])) } };
      const [first] = ofRule;
      return first === undefined ? rule : { ...rule, conditions: { operator: '$and' as const, children: [{ operator: '$and' as const, children: [first] }, ...rule.conditions.children] } };
    }),
  ),
);

/** The same rules, one moved (the change a pull request makes most). */
function movedList(rules: NormalRule[]): fc.Arbitrary<NormalRule[]> {
  return fc.tuple(fc.nat(rules.length - 1), fc.nat(rules.length - 1)).map(([from, to]) => {
    const moved = [...rules];
    moved.splice(to, 0, ...moved.splice(from, 1));
    return moved;
  });
}

function cutInto(sets: readonly (readonly NormalRule[])[]): { cut: boolean; split: boolean; narrowed: boolean } {
  const parts = changedParts(sets, differ);
  if (!Array.isArray(parts)) return { cut: false, split: false, narrowed: false };
  const given = new Set(sets.flat());
  const narrowed = parts.some((part) => part.lists.some((list) => list.some((rule) => !given.has(rule))));
  return { cut: true, split: parts.length > 1, narrowed };
}

describe('the search in proportion to the change, by ways and texts, against brute force', () => {
  it('every region real, no differing request missed; lists split and rules narrowed', () => {
    let [runs, cut, split, narrowed, whole] = [0, 0, 0, 0, 0];
    fc.assert(
      fc.property(scopedWays.chain((before) => fc.tuple(fc.constant(before), fc.oneof(editedList(false)(before), movedList(before)))), ([before, after]) => {
        fc.pre(domain([before, after]).length <= 20000);
        runs += 1;
        const parts = cutInto([before, after]);
        if (parts.cut) cut += 1;
        if (parts.split) split += 1;
        if (parts.narrowed) narrowed += 1;
        const search = regionsWhere([before, after], differ);
        // A pattern beside an affix may leave a part unchecked (named): then only the regions found are checked.
        if (search.unchecked.length === 0) whole += 1;
        expect(oracleProblems([before, after], search, differ)).toEqual([]);
      }),
      { numRuns: 500 },
    );
    // Seen: about three in five runs cut, one in ten with a rule narrowed, one in thirty split.
    expect(cut).toBeGreaterThan(runs / 3);
    expect(narrowed).toBeGreaterThan(runs / 20);
    expect(split).toBeGreaterThan(runs / 100);
    expect(whole).toBeGreaterThan(runs * 0.8);
  });
});
