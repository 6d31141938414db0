// What a condition tree needs of a request to match at all (tree-stack.ts indexes the trees by
// it): a value of a field it requires (required-values.ts), else an address in one of the ranges
// it requires, else a prefix or a suffix of a field, else a field it cannot match without. A
// tree of `$or` whose ways need nothing in common needs what one of its ways needs: a guard per
// way (docs/behaviour.md, "Exhaustive behaviour diff").
import { isAddressLeaf, MATCH_WHEN_ABSENT } from '../evaluate/leaf.js';
import { fieldKey, firstValue, leafValues } from '../semantics/fields.js';
import type { Conditions, Group, Leaf } from '../semantics/model.js';
import { requiredValues } from './required-values.js';

/**
 * What a tree needs of a request: its field `leaf` reads carried, with one of `values` (folded
 * to lower case) when given; with `affix`, a value that starts (or ends) with one of them; with
 * `ranges`, an address that one of these ranges (as written) holds.
 */
export interface TreeGuard {
  leaf: Leaf;
  values?: ReadonlySet<string>;
  affix?: Affix;
  ranges?: ReadonlySet<string>;
}

export type Affix = 'prefix' | 'suffix';

/** Worked out once per conditions object (the rule objects are shared by every list searched). */
const GUARDS = new WeakMap<Conditions, readonly TreeGuard[] | null>();

/** A built request carries a path and a method whatever its literals: no guard on them. */
const ALWAYS_CARRIED = new Set(['path', 'httpMethod']);

export const ASCII = /^[ -~\t\n\r]*$/;

/** Lower case for ASCII letters only, character by character: an affix of a text stays one once both are folded. */
export function asciiFold(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

// Remembered: the witness search asks once per step about the few values its requests are made of.
const FOLDED = new Map<string, string | null>();
const MAX_FOLDED = 10_000;

/** asciiFold(value), or undefined for a value beyond ASCII. */
export function foldedAscii(value: string): string | undefined {
  let folded = FOLDED.get(value);
  if (folded === undefined) {
    if (FOLDED.size >= MAX_FOLDED) FOLDED.clear();
    FOLDED.set(value, (folded = ASCII.test(value) ? asciiFold(value) : null));
  }
  return folded ?? undefined;
}

/** Guards one of which a request meets whenever the tree may match it; undefined when the tree needs nothing they can say. */
export function guardsOfTree(conditions: Conditions): readonly TreeGuard[] | undefined {
  let guards = GUARDS.get(conditions);
  if (guards === undefined) GUARDS.set(conditions, (guards = findGuards(conditions) ?? null));
  return guards ?? undefined;
}

/**
 * The tree's own guard when it names values, an affix or ranges; else, for a tree of `$or`, one
 * guard per way when every way has one (on the plan benchmark's `networks` shape a rule matches
 * from one of two or three networks, an ASN list, an address range or a country, and such a tree,
 * with nothing required in common, was asked of every request); else the field it cannot match
 * without, if any.
 */
function findGuards(conditions: Conditions): readonly TreeGuard[] | undefined {
  const whole = findGuard(conditions);
  if (whole !== undefined && !presenceOnly(whole)) return [whole];
  if (conditions.operator === '$or' && conditions.children.length > 1) {
    const byWay = conditions.children.map((group) => findGuard({ operator: '$and', children: [group] }));
    if (byWay.every((guard) => guard !== undefined) && !byWay.every(presenceOnly)) return byWay as TreeGuard[];
  }
  return whole === undefined ? undefined : [whole];
}

function presenceOnly(guard: TreeGuard): boolean {
  return guard.values === undefined && guard.ranges === undefined;
}

/**
 * A required field with its values (the method, whose values are few, last); else required
 * address ranges; else a required prefix, else a suffix; else a field every way of matching tests
 * with a leaf false when it is absent.
 */
function findGuard(conditions: Conditions): TreeGuard | undefined {
  const leaves = conditions.children.flatMap((group) => group.children);
  const leafOf = (field: string): Leaf | undefined => leaves.find((leaf) => fieldKey(leaf) === field);
  const valued: TreeGuard[] = [];
  for (const [field, values] of requiredValues(conditions)) {
    const leaf = leafOf(field);
    if (leaf !== undefined && values.size > 0) valued.push({ leaf, values });
  }
  const byValue = valued.find((guard) => guard.leaf.conditionType !== 'httpMethod');
  if (byValue !== undefined) return byValue;
  // Before affixes, which a method's values also are: on the plan benchmark's `networks` shape the
  // witness search asked 18 % fewer trees with ranges first (none more on the other shapes).
  const ranges = requiredRanges(conditions);
  if (ranges !== undefined) return ranges;
  // Prefixes before suffixes: a path prefix names one endpoint where a host suffix names a whole
  // tenant (every host of a wildcard). On the plan benchmark's `apis` shape, whose rules pair a
  // wildcard host with a path prefix, the witness search asked 54 % fewer trees so (`scrapers`
  // 33 %, `networks` 20 %, `gateways` 52 %; none more on the other shapes).
  for (const affix of ['prefix', 'suffix'] as const) {
    for (const [field, values] of requiredAffixes(conditions, affix)) {
      const leaf = leafOf(field);
      if (leaf !== undefined && [...values].every((value) => ASCII.test(value))) return { leaf, values: new Set([...values].map(asciiFold)), affix };
    }
  }
  if (valued[0] !== undefined) return valued[0];
  for (const field of presentFields(conditions)) {
    const leaf = leafOf(field);
    if (leaf !== undefined && !ALWAYS_CARRIED.has(leaf.conditionType)) return { leaf };
  }
  return undefined;
}

/**
 * Address ranges one of which every way of matching requires the request's address to be in, as
 * an address leaf of `$in` or `$eq` requires (leaf.ts AddressRanges): of an `$and`, one child's;
 * of an `$or`, those of all its children when each requires some.
 */
function requiredRanges(conditions: Conditions): TreeGuard | undefined {
  const ofLeaf = (leaf: Leaf): TreeGuard | undefined => {
    if (!isAddressLeaf(leaf) || (leaf.operator !== '$in' && leaf.operator !== '$eq')) return undefined;
    const ranges = new Set(leaf.operator === '$eq' ? [firstValue(leaf)] : leafValues(leaf));
    return ranges.size === 0 ? undefined : { leaf, ranges };
  };
  const combine = (operator: '$and' | '$or', children: readonly (TreeGuard | undefined)[]): TreeGuard | undefined => {
    if (operator === '$and') return children.find((child) => child !== undefined);
    const [first] = children;
    if (first === undefined || !children.every((child) => child !== undefined)) return undefined;
    return { leaf: first.leaf, ranges: new Set(children.flatMap((child) => [...(child?.ranges ?? [])])) };
  };
  return combine(conditions.operator, conditions.children.map((group) => combine(group.operator, group.children.map(ofLeaf))));
}

/** Fields no way of matching leaves untested by a leaf that fails when the field is absent. */
function presentFields(conditions: Conditions): Set<string> {
  const ofLeaf = (leaf: Leaf): Set<string> => new Set(MATCH_WHEN_ABSENT.has(leaf.operator) ? [] : [fieldKey(leaf)]);
  const combined = (operator: '$and' | '$or', sets: Set<string>[]): Set<string> => {
    if (operator === '$and') return new Set(sets.flatMap((set) => [...set]));
    const [first, ...rest] = sets;
    return new Set([...(first ?? [])].filter((field) => rest.every((set) => set.has(field))));
  };
  return combined(conditions.operator, conditions.children.map((group) => combined(group.operator, group.children.map(ofLeaf))));
}

/**
 * Per field: texts one of which every way of matching requires the value to start (end) with,
 * as a `$startsWith` (`$endsWith`) leaf, or an `$eq`/`$in` leaf (a value starts and ends with
 * itself) requires. Of an `$and`, a field any child requires (one child's texts are enough);
 * of an `$or`, a field every child requires, with all their texts.
 */
function requiredAffixes(conditions: Conditions, affix: Affix): Map<string, Set<string>> {
  const ofLeaf = (leaf: Leaf): Map<string, Set<string>> => {
    const operator = affix === 'prefix' ? '$startsWith' : '$endsWith';
    if (isAddressLeaf(leaf)) return new Map();
    if (leaf.operator === operator || leaf.operator === '$eq') return new Map([[fieldKey(leaf), new Set([firstValue(leaf)])]]);
    if (leaf.operator === '$in') return new Map([[fieldKey(leaf), new Set(leafValues(leaf))]]);
    return new Map();
  };
  const ofGroup = (group: Group): Map<string, Set<string>> => combinedAffixes(group.operator, group.children.map(ofLeaf));
  return combinedAffixes(conditions.operator, conditions.children.map(ofGroup));
}

function combinedAffixes(operator: '$and' | '$or', children: readonly Map<string, Set<string>>[]): Map<string, Set<string>> {
  const fields = new Map<string, Set<string>>();
  if (operator === '$and') {
    for (const child of children) for (const [field, texts] of child) if (!fields.has(field)) fields.set(field, texts);
    return fields;
  }
  const [first, ...rest] = children;
  for (const [field, texts] of first ?? []) {
    if (rest.every((child) => child.has(field))) fields.set(field, new Set([texts, ...rest.map((child) => child.get(field) as Set<string>)].flatMap((set) => [...set])));
  }
  return fields;
}
