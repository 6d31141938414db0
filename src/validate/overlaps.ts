// For each blocking rule, the first earlier allow rule that lets through some request it would
// block, with the example request (the allow-before-block check). The answer is exactly that of
// trying every earlier allow rule in order with `candidatesForBoth` (witness.ts); what makes it
// fast is trying fewer of them, and building each rule's candidate requests once.
//
// Which allow rules can be skipped: an example is one of the candidate requests, made of the
// values of the allow rule's candidates, then the blocking rule's, then BASE. When a leaf the
// blocking rule needs (`needs`) fails for every value its own candidates give its field, and
// for what the example holds there when neither rule's candidate carries the field (BASE's path
// or method, else nothing), only a value from the allow rule can satisfy it: allow rules that
// offer no such value in that field cannot give an example. The same holds the other way round:
// an allow rule that needs a value only the blocking rule can give is not tried with a blocking
// rule whose candidates give none. (Reading "absent" for path and method, which every example
// carries, left the rules that need another method or path trying every allow rule: 9,000 of
// the 9,200 pairs tried on the benchmark's `duplicates` shape.)
import { requestWith, type TestRequest } from '../evaluate/request.js';
import type { Action, Conditions, DeclaredRule, Group, Leaf } from '../semantics/model.js';
import { fieldKey, firstValue, isMapField, leafValues, REQUEST_FIELDS, requestField, requestFieldKey, type RequestField } from '../semantics/fields.js';
import { isAddressLeaf } from '../evaluate/leaf.js';
import { rememberedBy, rememberedPairs, type InternedRules } from './interned.js';
import type { Verdicts } from './verdicts.js';
import { lowerBound } from './requirement-index.js';
import { candidates, firstCommonExample, groupCandidates, merged, mergedField, type CandidateParts } from './witness.js';

interface Overlap {
  /** Index of the earlier allow rule. */
  earlier: number;
  example: TestRequest;
}

const BLOCKING: readonly Action[] = ['hardBlock', 'blockWithChallenge'];
const NOTHING: TestRequest = {};

/**
 * Blocking rules that `check` accepts → their first earlier active allow rule with an example.
 * `classes`: equal numbers for rules whose conditions are written identically, `conditions`:
 * each class's, interned.
 */
export function firstAllowOverlaps(rules: readonly DeclaredRule[], check: (index: number) => boolean, { classes, conditions, verdicts }: InternedRules): Map<number, Overlap> {
  const conditionsOf = (index: number) => conditions[classes[index] as number] as Conditions;
  const ofClass: (readonly TestRequest[] | undefined)[] = [];
  const parts: CandidateParts = { ofGroup: rememberedBy(groupCandidates), merged: rememberedPairs(merged) };
  const candidatesOf = (index: number) => (ofClass[classes[index] as number] ??= candidates(conditionsOf(index), parts));
  const allows = firstAllowOfEachClass(rules, classes);
  const offers = offersOf(allows, candidatesOf);
  const overlaps = new Map<number, Overlap>();
  const lastOfClass = new Map<number, number>();
  const triedOfClass = new Map<number, readonly number[]>();
  // The allow rules worth trying for a blocking rule: all, or those supplying a value it needs.
  const pinnedBy = pinnedSuppliers(allows, candidatesOf, offers, verdicts);
  const ofGroup = rememberedBy((leaves: readonly Leaf[]): readonly number[] => (leaves.length === 1 ? pinnedBy(leaves[0] as Leaf) : [...new Set(leaves.flatMap(pinnedBy))].sort((a, b) => a - b)));
  const tried = (index: number, mine: readonly TestRequest[]): readonly number[] => {
    const number = classes[index] as number;
    let list = triedOfClass.get(number);
    if (list === undefined) {
      const needed = needs(conditionsOf(index), mine, verdicts);
      // Each list holds every allow rule that can give an example: the shortest one will do.
      const lists = [needed === undefined ? allows : suppliers(needed, offers, verdicts), ...pinnedGroups(conditionsOf(index)).map(ofGroup)];
      triedOfClass.set(number, (list = lists.reduce((shortest, other) => (other.length < shortest.length ? other : shortest))));
    }
    return list;
  };

  // The same the other way round: an allow rule that needs a value only the blocking rule's
  // candidates can give (its own and BASE fail there) is skipped when they give none.
  const needsOfClass = new Map<number, Leaf[] | undefined>();
  const supplied = new Map<Leaf, Map<readonly TestRequest[], boolean>>();
  const suppliedBy = (leaf: Leaf, theirs: readonly TestRequest[]): boolean => {
    let byList = supplied.get(leaf);
    if (byList === undefined) supplied.set(leaf, (byList = new Map()));
    let answer = byList.get(theirs);
    if (answer === undefined) byList.set(theirs, (answer = theirs.some((request) => verdicts.value(leaf, mergedField(leaf, request, NOTHING)))));
    return answer;
  };
  const suppliesWhatItNeeds = (allow: number, theirs: readonly TestRequest[]): boolean => {
    const number = classes[allow] as number;
    let needed = needsOfClass.get(number);
    if (needed === undefined && !needsOfClass.has(number)) needsOfClass.set(number, (needed = needs(conditionsOf(allow), candidatesOf(allow), verdicts)));
    return needed === undefined || needed.some((leaf) => suppliedBy(leaf, theirs));
  };

  const overlapOf = (index: number): Overlap | undefined => {
    // An identically written earlier blocking rule was answered already: the same answer, or one from its position on.
    const same = lastOfClass.get(classes[index] as number) ?? -1;
    const known = overlaps.get(same);
    if (known !== undefined) return known;
    const mine = candidatesOf(index);
    const list = tried(index, mine);
    for (let at = lowerBound(list, same); at < list.length; at++) {
      const allow = list[at] as number;
      if (allow >= index) return undefined;
      if (!suppliesWhatItNeeds(allow, mine)) continue;
      const example = firstCommonExample(conditionsOf(allow), candidatesOf(allow), conditionsOf(index), mine, verdicts);
      if (example !== undefined) return { earlier: allow, example };
    }
    return undefined;
  };

  rules.forEach((rule, index) => {
    if (!check(index) || !rule.actions.some((action) => BLOCKING.includes(action))) return;
    const overlap = overlapOf(index);
    if (overlap !== undefined) overlaps.set(index, overlap);
    lastOfClass.set(classes[index] as number, index);
  });
  return overlaps;
}

/**
 * The first active allow rule of each class, ascending. A later one written alike gives an
 * example exactly when the first does, and comes after it; when the first lies before a
 * search's start, every rule there has failed already (a rule written alike answered it).
 */
function firstAllowOfEachClass(rules: readonly DeclaredRule[], classes: readonly number[]): number[] {
  const seen = new Set<number>();
  return rules.flatMap((rule, index) => {
    const number = classes[index] as number;
    if (rule.status !== 'active' || !rule.actions.includes('allow') || seen.has(number)) return [];
    seen.add(number);
    return [index];
  });
}

type Offers = Map<string, Map<string, number[]>>;

/** field → value → the allow rules (ascending) whose candidate requests carry that value there. */
function offersOf(allows: readonly number[], candidatesOf: (index: number) => readonly TestRequest[]): Offers {
  const offers: Offers = new Map();
  for (const allow of allows) {
    for (const request of candidatesOf(allow)) {
      for (const [field, value] of offered(request)) {
        let byValue = offers.get(field);
        if (byValue === undefined) offers.set(field, (byValue = new Map()));
        const list = byValue.get(value);
        if (list === undefined) byValue.set(value, [allow]);
        else if (list[list.length - 1] !== allow) list.push(allow);
      }
    }
  }
  return offers;
}

/** The values a request carries, each under the fieldKey of the leaves that read it. */
function offered(request: TestRequest): [string, string][] {
  const out: [string, string][] = [];
  for (const field of REQUEST_FIELDS) {
    const value = request[field];
    if (typeof value === 'string') out.push([requestFieldKey(field), value]);
    else if (value !== undefined) for (const [name, text] of Object.entries(value)) out.push([requestFieldKey(field, name), text]);
  }
  return out;
}

/** The allow rules, ascending, that offer a value satisfying one of `leaves` in its field. */
function suppliers(leaves: readonly Leaf[], offers: Offers, verdicts: Verdicts): number[] {
  const found = new Set<number>();
  for (const leaf of leaves) {
    for (const [value, allows] of offers.get(fieldKey(leaf)) ?? []) {
      if (verdicts.leaf(leaf, requestWith(leaf, value))) for (const allow of allows) found.add(allow);
    }
  }
  return [...found].sort((a, b) => a - b);
}

/**
 * Sets of leaves on scalar fields one of which every request the conditions match satisfies:
 * each leaf of a group that needs all its leaves, and the leaves of a group that needs one of
 * them when all are on scalar fields, under a root that needs all its groups (or has one). A
 * merged example carries the allow rule's value in a scalar field whenever the allow rule's
 * candidate carries one (`mergedField`), so an allow rule whose every candidate carries values
 * failing every leaf of such a set gives no example. (On the benchmark's `tenants` shape a rule
 * scoped to one host tried the earlier allow rules of every other host: 2.6 times the work; on
 * `gateways` a rule blocking paths that end in one of a few suffixes tried every allow rule,
 * whose paths end otherwise: 355,000 tries that found nothing.)
 */
function pinnedGroups(conditions: Conditions): (readonly Leaf[])[] {
  if (conditions.operator !== '$and' && conditions.children.length !== 1) return [];
  const scalar = (leaf: Leaf) => !isMapField(requestField(leaf));
  return conditions.children.flatMap((group): (readonly Leaf[])[] => {
    if (group.operator === '$and' || group.children.length === 1) return group.children.filter(scalar).map((leaf) => [leaf]);
    return group.children.every(scalar) ? [group.children] : [];
  });
}

/**
 * For a pinned leaf, the allow rules (ascending) that can give an example: those with a
 * candidate that does not carry its field, and those offering a value there that satisfies it.
 * `$eq` and `$in` (text) match exactly their values, which are looked up; other leaves are asked
 * about every value offered in their field.
 */
function pinnedSuppliers(allows: readonly number[], candidatesOf: (index: number) => readonly TestRequest[], offers: Offers, verdicts: Verdicts): (leaf: Leaf) => readonly number[] {
  const lackingOf = new Map<RequestField, number[]>();
  const lacking = (key: RequestField): number[] => {
    let list = lackingOf.get(key);
    if (list === undefined) lackingOf.set(key, (list = allows.filter((allow) => candidatesOf(allow).some((request) => typeof request[key] !== 'string'))));
    return list;
  };
  return rememberedBy((leaf: Leaf): readonly number[] => {
    const found = new Set(lacking(requestField(leaf)));
    const byValue = offers.get(fieldKey(leaf)) ?? new Map<string, number[]>();
    const exact = !isAddressLeaf(leaf) && (leaf.operator === '$eq' || leaf.operator === '$in');
    const satisfying = exact ? (leaf.operator === '$eq' ? [firstValue(leaf)] : leafValues(leaf)).map((value) => byValue.get(value) ?? []) : [...byValue].flatMap(([value, list]) => (verdicts.value(leaf, value) ? [list] : []));
    for (const list of satisfying) for (const allow of list) found.add(allow);
    return [...found].sort((a, b) => a - b);
  });
}

/**
 * Leaves one of which every matching candidate request must satisfy with a value that only the
 * other rule can supply; undefined when that cannot be said. `own`: this rule's candidates (BASE added when read).
 */
function needs(conditions: Conditions, own: readonly TestRequest[], verdicts: Verdicts): Leaf[] | undefined {
  // Where neither request carries the field, the example has BASE's path and method, or none.
  const needy = (leaf: Leaf) => !verdicts.value(leaf, mergedField(leaf, NOTHING, NOTHING)) && !own.some((request) => verdicts.value(leaf, mergedField(leaf, request, NOTHING)));
  const ofGroup = (group: Group): Leaf[] | undefined => {
    if (group.operator === '$or') return group.children.every(needy) ? group.children : undefined;
    const leaf = group.children.find(needy);
    return leaf === undefined ? undefined : [leaf];
  };
  const groups = conditions.children.map(ofGroup);
  if (conditions.operator === '$and') return groups.find((leaves) => leaves !== undefined);
  return groups.every((leaves) => leaves !== undefined) ? groups.flat() as Leaf[] : undefined;
}
