// The guards of a compiled rule set's index (rule-index.ts; docs/replay.md, "Throughput"): the
// leaves every request a rule matches must satisfy and that a lookup can test, and, where a
// group offers several, the one that selects the rule for the fewest requests.
import { compilePattern } from '../evaluate/pattern.js';
import { isAddressLeaf } from '../evaluate/leaf.js';
import { patternLiteral } from '../evaluate/pattern-literal.js';
import type { BudgetedLeaf } from '../evaluate/program-verdicts.js';
import type { Group, Leaf, NormalRule } from '../semantics/model.js';
import { fieldKey, firstValue, leafValues, requestFieldKey } from '../semantics/fields.js';
import { AddressBlocks } from './address-blocks.js';

/** A guard: the field a leaf reads and what the request's value must be for the rule to match. */
export type Guard =
  | { kind: 'value'; field: string; values: readonly string[] }
  | { kind: 'present'; field: string }
  | { kind: 'prefix'; field: string; prefix: string }
  | { kind: 'suffix'; field: string; suffix: string }
  /** The address lies in one of the ranges (socketIps `$eq`/`$in`; address-blocks.ts). */
  | { kind: 'range'; field: string; ranges: readonly string[] }
  /** The leaf's patterns, which V8 runs under the time budget, did not all answer "no" (evaluate/program-verdicts.ts). */
  | { kind: 'budgeted'; field: string; patterns: BudgetedLeaf }
  /** The value holds one of the texts; `pattern`: only while the value has no surrogate (see leafGuard). */
  | { kind: 'contains'; field: string; texts: readonly string[]; pattern: boolean };

/** Characters of a contained text keyed: a request's value costs one lookup per position and distinct length. */
export const CONTAINS_KEY = 4;

/** A `$re` leaf's patterns on the shared budgeted answers, when V8 runs them all under the budget (evaluate/program-verdicts.ts). */
export type BudgetedOf = (leaf: Leaf) => BudgetedLeaf | undefined;

/** A group's leaves, each with its guard (undefined: the leaf has none), worked out once. */
interface GroupCandidates {
  all: boolean;
  leaves: (readonly [Leaf, Guard | undefined])[];
}

/**
 * The guards of the rules at `positions`, each list (any one of which a matching request
 * satisfies) or undefined for a rule tried for every request; an empty list: the rule never
 * matches. Where a rule offers a choice, the keys fewest rules of the set share are taken: a
 * theme's `deviceType $eq mobile` or a country list selects hundreds of rules for half the
 * requests, an address block or a rule's own text a few.
 */
export function guardsOf(rules: readonly NormalRule[], positions: readonly number[], budgetedOf: BudgetedOf): Map<number, [Leaf, Guard][] | undefined> {
  const candidates = new Map<number, GroupCandidates[]>();
  const shared = new Map<string, number>();
  for (const position of positions) {
    const groups = (rules[position] as NormalRule).conditions.children.map((group: Group): GroupCandidates => ({
      all: group.operator === '$and', leaves: group.children.map((leaf) => [leaf, leafGuard(leaf, budgetedOf)] as const),
    }));
    candidates.set(position, groups);
    const keys = new Set(groups.flatMap(({ leaves }) => leaves.flatMap(([, guard]) => (guard === undefined ? [] : guardKeys(guard)))));
    for (const key of keys) shared.set(key, (shared.get(key) ?? 0) + 1);
  }
  const cost = (guard: Guard): number => WEIGHT[guard.kind] * (FEW_VALUES[guard.field] ?? 1) * guardKeys(guard).reduce((sum, key) => sum + (shared.get(key) ?? 0), 0);
  const guards = new Map<number, [Leaf, Guard][] | undefined>();
  for (const position of positions) {
    guards.set(position, ruleGuards((rules[position] as NormalRule).conditions.operator, candidates.get(position) as GroupCandidates[], cost));
  }
  return guards;
}

/**
 * How often a request's value may hit a key of the kind, relative to an exact value: a text of
 * four characters or fewer is keyed by itself and a pattern's by its literal, so more values hold
 * them. Presence counts as an exact value: it is a guard only for a named header or parameter,
 * which few requests carry (a rule's own `x-client-7`).
 */
const WEIGHT = { value: 1, range: 1, prefix: 1, suffix: 1, present: 1, contains: 2, budgeted: 2 } as const;
/**
 * How much more often a request holds one value of a field that takes few values than one value of
 * a path, user agent, parameter or address: a device type or a method is one of a handful, and most
 * traffic comes from a few countries. Counting only the rules that share a key, a `deviceType $eq
 * desktop` that 70 rules hold looked cheaper than a `format $in [rss, atom]` that 130 hold, though
 * it selects its rules for half the requests and the other for few.
 */
const FEW_VALUES: Readonly<Record<string, number>> = { [requestFieldKey('deviceType')]: 16, [requestFieldKey('method')]: 16, [requestFieldKey('country')]: 4 };
/** Between guards of one cost: exact values, then prefixes, then presence (as before costs were counted). */
const RANK = { value: 0, range: 0, prefix: 1, suffix: 1, contains: 2, budgeted: 2, present: 3 } as const;

/** The lookup keys a request's value may hit to select the rule. */
function guardKeys(guard: Guard): string[] {
  const at = `${guard.field}\u0000${guard.kind}\u0000`;
  switch (guard.kind) {
    case 'value': return guard.values.map((value) => at + value);
    case 'range': return guard.ranges.map((range) => at + range);
    case 'prefix': return [at + guard.prefix];
    case 'suffix': return [at + guard.suffix];
    case 'contains': return guard.texts.map((text) => at + text.slice(-CONTAINS_KEY));
    default: return [at];
  }
}

function ruleGuards(operator: '$and' | '$or', groups: readonly GroupCandidates[], cost: (guard: Guard) => number): [Leaf, Guard][] | undefined {
  const perGroup = groups.map((group) => groupGuards(group, cost));
  if (operator === '$or') return perGroup.some((guards) => guards === undefined) ? undefined : perGroup.flatMap((guards) => guards ?? []);
  // Under $and every group must match: the group whose guards cost least stands for the rule.
  let best: [Leaf, Guard][] | undefined;
  let bestCost = Infinity;
  for (const guards of perGroup) {
    if (guards === undefined) continue;
    const total = guards.reduce((sum, [, guard]) => sum + cost(guard), 0);
    if (best === undefined || total < bestCost || (total === bestCost && guards.length < best.length)) [best, bestCost] = [guards, total];
  }
  return best;
}

function groupGuards({ all, leaves }: GroupCandidates, cost: (guard: Guard) => number): [Leaf, Guard][] | undefined {
  if (!all) {
    if (leaves.some(([, guard]) => guard === undefined)) return undefined;
    return leaves.map(([leaf, guard]) => [leaf, guard as Guard]);
  }
  // Under $and any leaf must hold: the one whose keys fewest rules share, then exact values, prefixes, presence.
  let best: [Leaf, Guard] | undefined;
  let bestCost = Infinity;
  for (const [leaf, guard] of leaves) {
    if (guard === undefined) continue;
    const own = cost(guard);
    if (best === undefined || own < bestCost || (own === bestCost && RANK[guard.kind] < RANK[best[1].kind])) [best, bestCost] = [[leaf, guard], own];
  }
  return best === undefined ? undefined : [best];
}

/**
 * A `$re` leaf matches only values holding a text one of its patterns requires. Only patterns run
 * by RE2, whole or as a leading lookahead's parts (never out of time, as JavaScript's answer), qualify; such a pattern runs on V8 under the
 * time budget for a value with a surrogate, so those values select every pattern rule.
 */
function patternGuard(leaf: Leaf, field: string): Guard | undefined {
  const texts: string[] = [];
  for (const source of leafValues(leaf)) {
    const text = patternLiteral(source);
    const { engine } = compilePattern(source, false);
    if (text === undefined || (engine !== 're2' && engine !== 're2-parts')) return undefined;
    texts.push(text);
  }
  return texts.length === 0 ? undefined : { kind: 'contains', field, texts, pattern: true };
}

function budgetedGuard(leaf: Leaf, field: string, budgetedOf: BudgetedOf): Guard | undefined {
  const patterns = budgetedOf(leaf);
  return patterns === undefined ? undefined : { kind: 'budgeted', field, patterns };
}

/** socketIps `$eq` (its first value) and `$in`: the ranges the address must lie in, when the index can file them all. */
function rangeGuard(leaf: Leaf, field: string): Guard | undefined {
  if (leaf.operator !== '$eq' && leaf.operator !== '$in') return undefined;
  const ranges = leaf.operator === '$eq' ? [firstValue(leaf)] : leafValues(leaf);
  return AddressBlocks.files(ranges) ? { kind: 'range', field, ranges } : undefined;
}

/**
 * A leaf's guard, when the leaf can only match requests whose value passes a lookup. Addresses
 * compare as addresses (`2001:db8::1` = `2001:0db8::1`), so `socketIps` is looked up by the
 * blocks its ranges cut (address-blocks.ts), not by its text.
 * Presence guards only for named headers and parameters: nearly every request carries a path,
 * a method and a user agent, so "present" would select nearly every rule about them.
 */
function leafGuard(leaf: Leaf, budgetedOf: BudgetedOf): Guard | undefined {
  const field = fieldKey(leaf);
  if (isAddressLeaf(leaf)) return rangeGuard(leaf, field);
  const present: Guard | undefined = leaf.fieldOption === undefined ? undefined : { kind: 'present', field };
  switch (leaf.operator) {
    case '$eq': return typeof leaf.value !== 'string' ? undefined : { kind: 'value', field, values: [leaf.value] };
    case '$in': return !Array.isArray(leaf.value) ? undefined : { kind: 'value', field, values: leaf.value };
    case '$startsWith': return typeof leaf.value === 'string' && leaf.value !== '' ? { kind: 'prefix', field, prefix: leaf.value } : present;
    case '$endsWith': return typeof leaf.value === 'string' && leaf.value !== '' ? { kind: 'suffix', field, suffix: leaf.value } : present;
    case '$contains': return typeof leaf.value === 'string' && leaf.value !== '' ? { kind: 'contains', field, texts: [leaf.value], pattern: false } : present;
    case '$re': return patternGuard(leaf, field) ?? budgetedGuard(leaf, field, budgetedOf) ?? present;
    case '$exists': return present;
    default: return undefined;
  }
}
