// The refutations the region search keeps per way (src/diff/refutations.ts): a witness search
// that finds no request for a way of a rule is not run again where the literals and the trees
// its answer follows from hold again. Over random rule lists whose rules above cover a country
// list value by value, under header rules that make the search reach the same way in several
// states, the search must still find every differing request of the brute-force domain and no
// false one. And over random states of random rule lists (trees on the stack or not, literals
// required or not), a refutation said to hold must leave the witness search no request. The
// refutations used are counted, so neither property can pass without them.
import fc from 'fast-check';
import { regionsWhere } from '../../src/diff/regions.js';
import { RefutationStore, Refutations, SharedRefutations } from '../../src/diff/refutations.js';
import type { AtomTree } from '../../src/diff/atoms.js';
import { Models } from '../../src/diff/model.js';
import { RequestVerdicts } from '../../src/diff/request-verdicts.js';
import type { Action, Conditions, Leaf, NormalRule } from '../../src/semantics/model.js';
import { differ, domain, oracleProblems } from './brute-force.js';
import { StackWalk, stackWalks } from './stack-walk.js';
import { normal } from '../helpers/rules.js';

const COUNTRIES = ['FR', 'DE', 'IT'];
const ACTIONS: Action[][] = [['allow'], ['hardBlock'], ['blockWithChallenge']];

const header = fc.tuple(fc.constantFrom('x-one', 'x-two'), fc.constantFrom<'$exists' | '$notExists'>('$exists', '$notExists')).map(([fieldOption, operator]): Leaf => ({ conditionType: 'header', fieldOption, operator }));
const path = fc.constantFrom('/a', '/b').map((value): Leaf => ({ conditionType: 'path', operator: '$startsWith', value }));
const all = (...children: Leaf[]): Conditions => ({ operator: '$and', children: [{ operator: '$and', children }] });
const countries = (value: string[]): Leaf => ({ conditionType: 'country', operator: '$in', value });

/**
 * Before: a rule on headers, rules that each take some countries of a list (on a path, maybe),
 * and last a rule `last` (on that list), which the rules above may cover country by country.
 * After: the first rule moved to the end and the last rule's actions changed, so that the search
 * reaches the last rule where the moved one matches and again where it does not.
 */
const coverLists = (lastRule: fc.Arbitrary<Conditions>, coverPath = fc.option(path, { nil: undefined })): fc.Arbitrary<readonly [NormalRule[], NormalRule[]]> => fc
  .record({
    first: fc.array(header, { minLength: 1, maxLength: 2 }),
    // Per country of the list, the cover rule that takes it (some take none: the list is then not covered).
    takers: fc.array(fc.nat(3), { minLength: COUNTRIES.length, maxLength: COUNTRIES.length }),
    coverPaths: fc.array(coverPath, { minLength: 3, maxLength: 3 }),
    last: lastRule,
    actions: fc.array(fc.nat(ACTIONS.length - 1), { minLength: 5, maxLength: 5 }),
  })
  .map(({ first, takers, coverPaths, last, actions }) => {
    const covers = coverPaths.flatMap((prefix, cover) => {
      const taken = COUNTRIES.filter((_, i) => takers[i] === cover);
      if (taken.length === 0) return [];
      return [prefix === undefined ? all(countries(taken)) : all(countries(taken), prefix)];
    });
    const conditions = [all(...first), ...covers, last];
    const before = conditions.map((ruleConditions, i) => normal({ name: `r${i}`, description: '', status: 'active', actions: [...(ACTIONS[actions[i] as number] as Action[])], conditions: ruleConditions }));
    const after = before.map((rule) => structuredClone(rule));
    const changed = after[after.length - 1] as NormalRule;
    changed.actions = [...(ACTIONS[((actions[conditions.length - 1] as number) + 1) % ACTIONS.length] as Action[])];
    after.push(after.shift() as NormalRule);
    return [before, after] as const;
  });

/** The last rule on the list and a path. */
const lists = coverLists(path.map((prefix) => all(countries(COUNTRIES), prefix)));

/** The last rule on the list and a path, or on the list and a header: two ways that the rules above, on no path, cover by the same countries. */
const twoWayLists = coverLists(
  fc.tuple(path, header).map(([prefix, head]): Conditions => ({ operator: '$or', children: [{ operator: '$and', children: [countries(COUNTRIES), prefix] }, { operator: '$and', children: [countries(COUNTRIES), head] }] })),
  fc.constant(undefined),
);

/** Every request on which the two lists differ lies in a region of their search, as the brute-force oracle finds them. */
function coverEveryDifference(pairs: fc.Arbitrary<readonly [NormalRule[], NormalRule[]]>, numRuns: number): void {
  fc.assert(
    fc.property(pairs, ([before, after]) => {
      fc.pre(domain([before, after]).length <= 5000);
      const search = regionsWhere([before, after], differ);
      expect(search.unchecked).toEqual([]);
      expect(oracleProblems([before, after], search, differ)).toEqual([]);
    }),
    { numRuns },
  );
}

/** How often `method` of the region search's Refutations answered true while `run` ran. */
function answeredTrue(method: 'refutes' | 'refutedByOther', run: () => void): number {
  const prototype = Refutations.prototype as unknown as Record<typeof method, (...args: unknown[]) => boolean>;
  const original = prototype[method];
  let count = 0;
  prototype[method] = function (this: Refutations, ...args: unknown[]) {
    const answer = original.apply(this, args);
    if (answer) count += 1;
    return answer;
  };
  try {
    run();
  } finally {
    prototype[method] = original;
  }
  return count;
}

describe('the refutations the region search keeps per way', () => {
  it('leave every differing request in a region, and are used', () => {
    expect(answeredTrue('refutes', () => coverEveryDifference(lists, 600))).toBeGreaterThan(20);
  });

  it('kept in a store by one search are read by another in its own numbers, which answers as it would alone', () => {
    // The first search walks the lists in the other order, so its atoms and trees are numbered
    // otherwise than the second's: a refutation read without its numbers translated names other
    // leaves and trees. The second search must find what it finds without the store, exactly.
    // Those read from the store, and of them those that follow from trees that must not match (rules above).
    let fromStore = 0;
    let withTrees = 0;
    const taken = SharedRefutations.prototype.taken;
    const read = new WeakSet<object>();
    SharedRefutations.prototype.taken = function (this: SharedRefutations, key) {
      const refutations = taken.call(this, key);
      for (const refutation of refutations) read.add(refutation);
      return refutations;
    };
    const prototype = Refutations.prototype as unknown as { holds: (refutation: { trees: Int32Array }) => boolean };
    const holds = prototype.holds;
    prototype.holds = function (this: Refutations, refutation) {
      const answer = holds.call(this, refutation);
      if (answer && read.has(refutation)) {
        fromStore += 1;
        if (refutation.trees.length > 0) withTrees += 1;
      }
      return answer;
    };
    try {
      fc.assert(
        fc.property(lists, ([before, after]) => {
          fc.pre(domain([before, after]).length <= 5000);
          const refutations = new RefutationStore();
          regionsWhere([after, before], differ, { refutations });
          const shared = regionsWhere([before, after], differ, { refutations });
          expect(shared).toEqual(regionsWhere([before, after], differ));
          expect(oracleProblems([before, after], shared, differ)).toEqual([]);
        }),
        { numRuns: 400 },
      );
    } finally {
      SharedRefutations.prototype.taken = taken;
      prototype.holds = holds;
    }
    expect(fromStore).toBeGreaterThan(40);
    expect(withTrees).toBeGreaterThan(40);
  });

  it('are kept apart per evaluation setting: ignoring case, a leaf matches other values', () => {
    const store = new RefutationStore();
    expect(store.ways({})).toBe(store.ways({ caseInsensitiveValues: false }));
    expect(store.ways({ caseInsensitiveValues: true })).not.toBe(store.ways({}));
  });

  it('learned for one way of a rule answer another way that requires the leaf they follow from', () => {
    // Where the rules above cover the list country by country, the way on a path and the way on
    // a header are left no request by the same literals (the list, and those rules not matching).
    expect(answeredTrue('refutedByOther', () => coverEveryDifference(twoWayLists, 400))).toBeGreaterThan(40);
  });

  it('hold only where the witness search finds no request, whatever the stack and the literals', () => {
    let used = 0;
    fc.assert(
      fc.property(stackWalks, ([rules, walk]) => {
        fc.pre(rules.length >= 2);
        const fixture = new StackWalk(rules);
        const { table, trees, assignment, stack, conditionsIds, onStack, ways, last } = fixture;
        const models = new Models(table, assignment, {}, new RequestVerdicts(table, {}), (at) => trees[conditionsIds[at] as number] as AtomTree);
        const refutations = new Refutations(assignment, table.atoms, (id) => (onStack.get(id) ?? 0) > 0);
        for (const { stacked, extra, wayPick } of walk) {
          fixture.push(stacked);
          fixture.require(extra);
          const all = ways.of(last.conditions) ?? [];
          const way = all[wayPick % Math.max(1, all.length)];
          if (way !== undefined && way.every((atom) => atom !== undefined && assignment.truthOf(atom) !== false)) {
            for (const atom of way) if (atom !== undefined && assignment.truthOf(atom) === 'undecided') assignment.push(atom, true);
            const refuted = refutations.refutes(way);
            const found = models.find(stack);
            if (refuted) used += 1;
            expect({ refuted, request: 'request' in found }).not.toEqual({ refuted: true, request: true });
            if ('blamed' in found) refutations.learn(way, found.blamed, Array.from(found.trees, (at) => conditionsIds[at] as number));
          }
          fixture.clear();
        }
      }),
      { numRuns: 1500 },
    );
    expect(used).toBeGreaterThan(50);
  });

  it('are kept only where every answer of the witness search is exact', () => {
    // The search of the first property, on a list that each rule above covers in part: a
    // refutation is learned where the moved rule matches and used where it does not. With a
    // `$re` leaf among the rules none is kept: elsewhere the witness search may answer "unknown",
    // and the rules it could not check are listed as before.
    const rule = (name: string, conditions: Conditions, actions: Action[]): NormalRule => normal({ name, description: '', status: 'active', actions, conditions });
    const moved = rule('moved', all({ conditionType: 'header', fieldOption: 'x-one', operator: '$exists' }), ['allow']);
    const covers = [rule('fr', all(countries(['FR']), { conditionType: 'path', operator: '$startsWith', value: '/a' }), ['hardBlock']), rule('de it', all(countries(['DE', 'IT'])), ['hardBlock'])];
    const last = rule('last', all(countries(['FR', 'DE']), { conditionType: 'path', operator: '$startsWith', value: '/a' }), ['hardBlock']);
    const pattern = rule('pattern', all({ conditionType: 'userAgent', operator: '$re', value: '^curl/' }), ['hardBlock']);
    const learned = (tail: NormalRule[]): number => {
      let count = 0;
      const learn = Refutations.prototype.learn;
      Refutations.prototype.learn = function (this: Refutations, ...args) {
        count += 1;
        learn.apply(this, args);
      };
      try {
        regionsWhere([[moved, ...covers, last, ...tail], [...covers, { ...last, actions: ['blockWithChallenge'] }, moved, ...tail]], differ);
      } finally {
        Refutations.prototype.learn = learn;
      }
      return count;
    };
    expect(learned([])).toBeGreaterThan(0);
    expect(learned([pattern])).toBe(0);
  });
});
