// What users type in a rule file, as the schema (schemas/rules.schema.json) admits it:
// optional fields may be missing and a list operator's value may be a single string.
// `normalise.ts` turns it into the internal `Rule` of model.ts.
import type { Action, ConditionType, Conditions, GroupOperator, Leaf, LeafOperator, LiveRule, Status } from './model.js';
import { withUnknownFields } from './unknown.js';

export interface WrittenLeaf {
  conditionType: ConditionType;
  operator: LeafOperator;
  /** A list or a single string for $in/$notIn/$re, a string for other value operators, absent for $exists/$notExists. */
  value?: string | string[];
  fieldOption?: string;
}

interface WrittenGroup {
  operator: GroupOperator;
  children: WrittenLeaf[];
}

export interface WrittenConditions {
  operator: GroupOperator;
  children: WrittenGroup[];
}

export interface WrittenRule {
  name: string;
  ruleId?: string;
  description?: string;
  status?: Status;
  /** shadow: applied paused, replayed as if active (docs/replay.md, "Shadow rules"). */
  mode?: 'active' | 'shadow';
  /** YYYY-MM-DD: when the rule went into shadow. */
  shadowSince?: string;
  /** ISO 8601 date-times with an offset: outside [activeFrom, expires) the rule is declared paused (lifetime.ts). */
  activeFrom?: string;
  expires?: string;
  actions: Action[];
  conditions: WrittenConditions;
}

/** The order the functions below write keys in, at every level (import --update inserts a missing key by it). */
export const WRITTEN_KEY_ORDER: readonly string[] = ['name', 'ruleId', 'description', 'status', 'actions', 'conditions', 'conditionType', 'fieldOption', 'operator', 'value', 'children'];

/**
 * A live rule as a rule file writes it (docs/behaviour.md, "Rule files"): identity first, then
 * what the rule does; `description` and `status` always written (the file is the whole
 * truth); a leaf's field option before its operator. Fields botrules does not know follow
 * the known ones at each level, as they were (docs/behaviour.md, "Unknown fields").
 */
export function writtenRule(rule: LiveRule): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: rule.name,
    ruleId: rule.ruleId,
    description: rule.description,
    status: rule.status,
    actions: [...rule.actions],
    conditions: writtenConditions(rule.conditions),
  };
  return withUnknownFields(out, rule, 'rule');
}

export function writtenConditions(conditions: Conditions): Record<string, unknown> {
  const out = {
    operator: conditions.operator,
    children: conditions.children.map((group) => withUnknownFields({ operator: group.operator, children: group.children.map(writtenLeaf) }, group, 'tree')),
  };
  return withUnknownFields(out, conditions, 'tree');
}

export function writtenLeaf(leaf: Leaf): Record<string, unknown> {
  const out: Record<string, unknown> = { conditionType: leaf.conditionType };
  if (leaf.fieldOption !== undefined) out.fieldOption = leaf.fieldOption;
  out.operator = leaf.operator;
  if (leaf.value !== undefined) out.value = Array.isArray(leaf.value) ? [...leaf.value] : leaf.value;
  return withUnknownFields(out, leaf, 'leaf');
}
