// The canonical form of a rule: what "the same rule" means when comparing the rule files
// with the live rules (contract §1). Leaves within a group, groups within the root and
// actions are sets, so they are de-duplicated and sorted by a stable key (their canonical
// JSON); a leaf's value takes the shape its operator implies; a missing description is "".
// Two rules are equal exactly when their canonical JSON is the same, which is also what
// makes a perpetual diff impossible: after a PATCH the live form is the declared form.
//
// `canonicalJson` builds that JSON straight from the rule, without building the canonical
// objects, because planning thousands of rules is dominated by this work; the objects
// (`canonicalRule`) are only built for rules that differ, to diff and display them.
import jsonPatch from 'fast-json-patch';
import { CONDITION_TYPES, GROUP_OPERATORS, LEAF_OPERATORS, STATUSES, isListOperator, isPresenceOperator } from '../rules/model.js';
import type { Action, Conditions, Group, Leaf, Rule } from '../rules/model.js';

/** The top-level fields a PATCH can change, in the order reasons and bodies list them. */
export const RULE_FIELDS = ['name', 'description', 'status', 'actions', 'conditions'] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

export type CanonicalRule = Pick<Rule, RuleField>;

const quote = JSON.stringify;

/** Vocabulary words are quoted once, not once per leaf. */
const QUOTED = new Map<string, string>(
  [...CONDITION_TYPES, ...LEAF_OPERATORS, ...GROUP_OPERATORS, ...STATUSES].map((word) => [word, quote(word)]),
);

function quoteWord(word: string): string {
  return QUOTED.get(word) ?? quote(word);
}

/** A leaf's value in the shape its operator implies (undefined for presence operators). */
function canonicalValue(leaf: Leaf): string | string[] | undefined {
  if (isPresenceOperator(leaf.operator) || leaf.value === undefined) return undefined;
  if (isListOperator(leaf.operator)) return Array.isArray(leaf.value) ? [...leaf.value] : [leaf.value];
  // A one-element list for a string operator means the same string.
  return Array.isArray(leaf.value) && leaf.value.length === 1 ? leaf.value[0] : leaf.value;
}

export function canonicalLeaf(leaf: Leaf): Leaf {
  const out: Leaf = { conditionType: leaf.conditionType, operator: leaf.operator };
  if (leaf.fieldOption !== undefined) out.fieldOption = leaf.fieldOption;
  const value = canonicalValue(leaf);
  if (value !== undefined) out.value = value;
  return out;
}

/** JSON.stringify(canonicalLeaf(leaf)), built directly. */
function leafJson(leaf: Leaf): string {
  let json = `{"conditionType":${quoteWord(leaf.conditionType)},"operator":${quoteWord(leaf.operator)}`;
  if (leaf.fieldOption !== undefined) json += `,"fieldOption":${quote(leaf.fieldOption)}`;
  const value = canonicalValue(leaf);
  if (value !== undefined) json += `,"value":${quote(value)}`;
  return `${json}}`;
}

function groupJson(group: Group): string {
  const children = sortedUniqueStrings((group.children ?? []).map(leafJson));
  return `{"operator":${quoteWord(group.operator)},"children":[${children.join(',')}]}`;
}

function conditionsJson(conditions: Conditions): string {
  const children = sortedUniqueStrings((conditions.children ?? []).map(groupJson));
  return `{"operator":${quoteWord(conditions.operator)},"children":[${children.join(',')}]}`;
}

function canonicalActions(actions: readonly Action[] | undefined): Action[] {
  return sortedUniqueStrings(actions ?? []);
}

/** JSON.stringify(canonicalRule(rule)), built directly: keys in RULE_FIELDS order. */
export function canonicalJson(rule: Rule): string {
  return (
    `{"name":${quote(rule.name)},"description":${quote(rule.description ?? '')},` +
    `"status":${quoteWord(rule.status ?? 'active')},"actions":${quote(canonicalActions(rule.actions))},` +
    `"conditions":${conditionsJson(rule.conditions)}}`
  );
}

export function canonicalConditions(conditions: Conditions): Conditions {
  const groups = sortedByKey(
    (conditions.children ?? []).map((group) => ({
      key: groupJson(group),
      value: {
        operator: group.operator,
        children: sortedByKey((group.children ?? []).map((leaf) => ({ key: leafJson(leaf), value: canonicalLeaf(leaf) }))),
      },
    })),
  );
  return { operator: conditions.operator, children: groups };
}

export function canonicalRule(rule: Rule): CanonicalRule {
  return {
    name: rule.name,
    description: rule.description ?? '',
    status: rule.status ?? 'active',
    actions: canonicalActions(rule.actions),
    conditions: canonicalConditions(rule.conditions),
  };
}

/**
 * The top-level fields whose canonical forms differ, in RULE_FIELDS order. The difference
 * is computed as a JSON Patch between the canonical forms; each operation's path names the
 * top-level field it touches.
 */
export function changedFields(live: Rule, declared: Rule): RuleField[] {
  const touched = new Set<string>();
  for (const operation of jsonPatch.compare(canonicalRule(live), canonicalRule(declared))) {
    touched.add(topLevelField(operation.path));
  }
  return RULE_FIELDS.filter((field) => touched.has(field));
}

function topLevelField(pointer: string): string {
  const segment = pointer.split('/')[1] ?? '';
  return jsonPatch.unescapePathComponent(segment);
}

/** Sorted, without repeats: a set with a stable order. */
function sortedUniqueStrings<T extends string>(items: readonly T[]): T[] {
  if (items.length < 2) return [...items];
  const sorted = [...items].sort();
  return sorted.filter((item, index) => index === 0 || item !== sorted[index - 1]);
}

/** Values sorted by their canonical JSON key, repeats dropped. */
function sortedByKey<T>(items: readonly { key: string; value: T }[]): T[] {
  const sorted = [...items].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return sorted.filter((item, index) => index === 0 || item.key !== sorted[index - 1]?.key).map((item) => item.value);
}
