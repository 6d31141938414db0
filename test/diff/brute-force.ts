// The oracle of the behaviour diff's property tests (issue: "every class is real, no differing
// request of the domain is missed"): the finite request domain of a few rule sets is every
// combination, per field they test, of the values the rules mention, one value none mentions
// and (for fields a request may lack) no value; each request of it is decided under every set.
import fc from 'fast-check';
import { decide } from '../../src/evaluate/evaluate.js';
import { leafVerdict } from '../../src/evaluate/leaf.js';
import { requestWith, type TestRequest } from '../../src/evaluate/request.js';
import { fieldKey } from '../../src/semantics/fields.js';
import type { Action, Leaf, NormalRule } from '../../src/semantics/model.js';
import type { DecidedOutcome, RegionOutcome } from '../../src/diff/entries.js';
import type { RegionSearch } from '../../src/diff/regions.js';
import { leaf as anyLeaf } from '../validate/arbitraries.js';
import { normal } from '../helpers/rules.js';

const ALWAYS_CARRIED = new Set(['path', 'httpMethod']);

function leavesOf(sets: readonly (readonly NormalRule[])[]): Leaf[] {
  return sets.flatMap((rules) => rules.flatMap((rule) => rule.conditions.children.flatMap((group) => group.children)));
}

/** Every request of the domain (a product over the fields the rules test). */
export function domain(sets: readonly (readonly NormalRule[])[]): TestRequest[] {
  const byField = new Map<string, { leaf: Leaf; values: Set<string | undefined> }>();
  for (const leaf of leavesOf(sets)) {
    const key = fieldKey(leaf);
    const entry = byField.get(key) ?? { leaf, values: new Set<string | undefined>(ALWAYS_CARRIED.has(leaf.conditionType) ? [] : [undefined]) };
    const values = leaf.operator === '$re' ? [] : Array.isArray(leaf.value) ? leaf.value : leaf.value === undefined ? [] : [leaf.value];
    for (const value of values) {
      entry.values.add(value);
      if (leaf.conditionType === 'socketIps') entry.values.add(value.split('/')[0]);
    }
    entry.values.add(leaf.conditionType === 'path' ? '/unmentioned' : leaf.conditionType === 'socketIps' ? '198.51.100.1' : 'unmentioned');
    byField.set(key, entry);
  }
  let requests: TestRequest[] = [{ path: '/', method: 'GET' }];
  for (const { leaf, values } of byField.values()) {
    const usable = [...values].filter((value) => leaf.conditionType !== 'path' || value === undefined || value.startsWith('/'));
    requests = requests.flatMap((request) => usable.map((value) => (value === undefined ? request : merge(request, requestWith(leaf, value)))));
  }
  return requests;
}

function merge(a: TestRequest, b: TestRequest): TestRequest {
  return { ...a, ...b, ...(b.headers ? { headers: { ...a.headers, ...b.headers } } : {}) };
}

export function outcomeUnder(rules: readonly NormalRule[], request: TestRequest): RegionOutcome {
  const decision = decide(rules, request);
  if (decision.undecided) return { undecided: decision.undecided.rule.name };
  return { rule: decision.rule?.name, actions: decision.actions };
}

export function outcomeText(outcome: RegionOutcome): string {
  return 'undecided' in outcome ? `undecided ${outcome.undecided}` : `${outcome.rule ?? '(none)'} ${[...outcome.actions].sort().join('+')}`;
}

/**
 * The two claims, as lists of what is wrong: every region's witness is decided as the region
 * says (and `interesting`), and every interesting request of the domain meets the constraints
 * of a region with its outcomes — unless the search said which part it left unchecked.
 */
export function oracleProblems(sets: readonly (readonly NormalRule[])[], search: RegionSearch, interesting: (outcomes: readonly RegionOutcome[]) => boolean): string[] {
  const problems: string[] = [];
  for (const region of search.regions) {
    const actual = sets.map((rules) => outcomeUnder(rules, region.witness));
    if (actual.map(outcomeText).join(' | ') !== region.outcomes.map(outcomeText).join(' | ')) problems.push(`witness ${JSON.stringify(region.witness)} is decided ${actual.map(outcomeText).join(' | ')}, not as its region says`);
    if (!interesting(actual)) problems.push(`witness ${JSON.stringify(region.witness)} is not interesting`);
    for (const { leaf, holds } of region.constraints) if (leafVerdict(leaf, region.witness) !== holds) problems.push(`witness ${JSON.stringify(region.witness)} does not meet its region's constraints`);
  }
  if (search.unchecked.length > 0) return problems;
  for (const request of domain(sets)) {
    const outcomes = sets.map((rules) => outcomeUnder(rules, request));
    if (!interesting(outcomes)) continue;
    const text = outcomes.map(outcomeText).join(' | ');
    const covered = search.regions.some((region) => region.outcomes.map(outcomeText).join(' | ') === text && region.constraints.every(({ leaf, holds }) => leafVerdict(leaf, request) === holds));
    if (!covered) problems.push(`request ${JSON.stringify(request)} (${text}) is in no region`);
  }
  return problems;
}

const ACTION_SETS: Action[][] = [['allow'], ['hardBlock'], ['blockWithChallenge'], ['hardBlock', 'blockWithChallenge']];

/** Small rule sets: one to four rules of one or two groups of one or two leaves, $re excluded unless asked. */
export function ruleList(withPatterns: boolean, names = ['a', 'b', 'c', 'd']): fc.Arbitrary<NormalRule[]> {
  const leaf = withPatterns ? anyLeaf : anyLeaf.filter((l) => l.operator !== '$re');
  const group = fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(leaf, { minLength: 1, maxLength: 2 }) });
  const rule = fc.record({
    conditions: fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(group, { minLength: 1, maxLength: 2 }) }),
    actions: fc.constantFrom(...ACTION_SETS),
    paused: fc.boolean(),
  });
  return fc.array(rule, { minLength: 1, maxLength: names.length }).map((rules) =>
    rules.map((r, i) => normal({ name: names[i] as string, description: '', status: r.paused && i % 2 === 1 ? 'paused' : 'active', actions: [...r.actions], conditions: r.conditions })),
  );
}

/** A second set from a first: the same rules edited (actions, a leaf, order, status) or a fresh list. */
export function editedList(withPatterns: boolean): (rules: NormalRule[]) => fc.Arbitrary<NormalRule[]> {
  return (rules) => fc.oneof(
    ruleList(withPatterns),
    fc.tuple(fc.nat(rules.length - 1), fc.nat(rules.length - 1), fc.constantFrom(...ACTION_SETS), fc.boolean()).map(([from, to, actions, pause]) => {
      const copy = rules.map((rule) => structuredClone(rule));
      const [moved] = copy.splice(from, 1);
      copy.splice(to, 0, moved as NormalRule);
      const edited = copy[to] as NormalRule;
      if (pause) edited.status = edited.status === 'active' ? 'paused' : 'active';
      else edited.actions = [...actions];
      return copy;
    }),
  );
}

export const differ = ([a, b]: readonly RegionOutcome[]): boolean => outcomeText(a as RegionOutcome) !== outcomeText(b as RegionOutcome);

export type { DecidedOutcome };
