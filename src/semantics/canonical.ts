// The canonical form of a rule: what "the same rule" means when comparing the rule files
// with the live rules (docs/behaviour.md, "Plan semantics"). Leaves within a group, groups within the root and
// actions are sets, so they are sorted by a total order and de-duplicated; everything else,
// a leaf's value included, is as the normal form (normalise.ts) has it. Two rules are equal
// exactly when their canonical JSON is the same, which is also what makes a perpetual diff
// impossible: after a PATCH the live form is the declared form.
//
// Sets are ordered with comparators rather than by serialising each element, and the JSON
// is produced by one native JSON.stringify: planning thousands of rules is dominated by
// this function.
//
// Fields botrules does not know (unknown.ts) are not part of the canonical form: they never
// make two rules differ.
import type { Action, Conditions, Group, Leaf, NormalRule } from './model.js';
import { unknownFields, type Level } from './unknown.js';

/** The top-level rule fields a PATCH can change, in the order changes and bodies list them. */
export const RULE_FIELDS = ['name', 'description', 'status', 'actions', 'conditions'] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

type CanonicalRule = Pick<NormalRule, RuleField>;

/**
 * The leaf with its keys in a fixed order, so its JSON is stable; a value list is a fresh
 * copy. The leaf is part of a NormalRule, so its value already has the shape its operator
 * implies (normalise.ts): nothing here shapes it again.
 */
function canonicalLeaf(leaf: Leaf): Leaf {
  const out: Leaf = { conditionType: leaf.conditionType, operator: leaf.operator };
  if (leaf.fieldOption !== undefined) out.fieldOption = leaf.fieldOption;
  if (leaf.value !== undefined) out.value = typeof leaf.value === 'string' ? leaf.value : [...leaf.value];
  return out;
}

/** The canonical key of a leaf: equal exactly for leaves that mean the same. */
export function leafKey(leaf: Leaf): string {
  return JSON.stringify(canonicalLeaf(leaf));
}

/** Actions are a set: sorted, each once (a fresh list). */
export function canonicalActions(actions: readonly Action[]): Action[] {
  return asSet<Action>([...actions], compareText);
}

export function canonicalConditions(conditions: Conditions): Conditions {
  return { operator: conditions.operator, children: asSet(conditions.children.map(canonicalGroup), compareGroups) };
}

/** A group's canonical form: its leaves a set. Two groups mean the same exactly when their canonical JSON is the same. */
export function canonicalGroup(group: Group): Group {
  return { operator: group.operator, children: asSet(group.children.map(canonicalLeaf), compareLeaves) };
}

/** The canonical form; its value lists are fresh copies, so it can be kept and changed freely. */
export function canonicalRule(rule: NormalRule): CanonicalRule {
  return {
    name: rule.name,
    description: rule.description,
    status: rule.status,
    actions: canonicalActions(rule.actions),
    conditions: canonicalConditions(rule.conditions),
  };
}

/** JSON of the canonical form, keys in RULE_FIELDS order: equal exactly for equal rules. */
export function canonicalJson(rule: NormalRule): string {
  return JSON.stringify(canonicalRule(rule));
}

/**
 * A quick sufficient test for canonical equality: the same fields, written the same way, in
 * the same order all the way down (the usual case for a rule that did not change). It
 * allocates nothing; when it says false the canonical forms decide.
 */
export function identicalInOrder(a: NormalRule, b: NormalRule): boolean {
  return (
    a.name === b.name &&
    a.description === b.description &&
    a.status === b.status &&
    sameList(a.actions, b.actions, (x, y) => x === y) &&
    a.conditions.operator === b.conditions.operator &&
    sameList(a.conditions.children, b.conditions.children, sameGroupAsWritten)
  );
}

function sameList<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (!same(a[i] as T, b[i] as T)) return false;
  return true;
}

function sameGroupAsWritten(a: Group, b: Group): boolean {
  return a.operator === b.operator && sameList(a.children, b.children, sameLeafAsWritten);
}

function sameLeafAsWritten(a: Leaf, b: Leaf): boolean {
  if (a.conditionType !== b.conditionType || a.operator !== b.operator || a.fieldOption !== b.fieldOption) return false;
  if (typeof a.value === 'string' || typeof b.value === 'string' || a.value === undefined || b.value === undefined) {
    return a.value === b.value;
  }
  return sameList(a.value, b.value, (x, y) => x === y);
}

/** The top-level fields whose canonical forms differ, in RULE_FIELDS order. */
export function changedFields(live: NormalRule, declared: NormalRule): RuleField[] {
  const before = canonicalRule(live);
  const after = canonicalRule(declared);
  return RULE_FIELDS.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}

/** Sorts `items` in place by `compare` and drops repeats: a set with a stable order. */
function asSet<T>(items: T[], compare: (a: T, b: T) => number): T[] {
  if (items.length < 2) return items;
  items.sort(compare);
  let kept = 1;
  for (let i = 1; i < items.length; i += 1) {
    if (compare(items[i] as T, items[kept - 1] as T) !== 0) items[kept++] = items[i] as T;
  }
  items.length = kept;
  return items;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Absent first, then strings, then lists (element by element, shorter first). */
function compareOptional(a: string | string[] | undefined, b: string | string[] | undefined): number {
  if (a === b) return 0;
  if (a === undefined || b === undefined) return a === undefined ? -1 : 1;
  if (typeof a === 'string' || typeof b === 'string') {
    return typeof a === 'string' && typeof b === 'string' ? compareText(a, b) : typeof a === 'string' ? -1 : 1;
  }
  return compareLists(a, b, compareText);
}

function compareLists<T>(a: readonly T[], b: readonly T[], compare: (x: T, y: T) => number): number {
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i += 1) {
    const order = compare(a[i] as T, b[i] as T);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

function compareLeaves(a: Leaf, b: Leaf): number {
  return (
    compareText(a.conditionType, b.conditionType) ||
    compareText(a.operator, b.operator) ||
    compareOptional(a.fieldOption, b.fieldOption) ||
    compareOptional(a.value, b.value)
  );
}

/** Groups compare by operator, then by their (already sorted) leaves. */
function compareGroups(a: Group, b: Group): number {
  return compareText(a.operator, b.operator) || compareLists(a.children, b.children, compareLeaves);
}

/**
 * A leaf's canonical key together with its unknown fields: equal exactly for leaves that mean
 * the same and carry the same unknown fields. For `import --update`, which writes what the
 * service stores, unknown fields included; the planner never compares them.
 */
export function exactLeafKey(leaf: Leaf): string {
  return `${leafKey(leaf)}${unknownJson(leaf, 'leaf')}`;
}

/** A group's operator, its leaves' exact keys as a set, and its own unknown fields. */
export function exactGroupKey(group: Group): string {
  const leaves = asSet(group.children.map(exactLeafKey), compareText);
  return JSON.stringify([group.operator, leaves]) + unknownJson(group, 'tree');
}

/** The unknown fields of a part as JSON, keys sorted, so equal fields give equal text. */
function unknownJson(part: object, level: Level): string {
  const fields = unknownFields(part, level);
  return JSON.stringify(Object.fromEntries(Object.keys(fields).sort().map((key) => [key, fields[key]])));
}
