// Written rule → internal Rule: omitted description is "", omitted status is active, a
// single string for a list operator becomes a one-element list, presence operators carry
// no value. Input has passed the schema and the semantic checks.
import { isListOperator, isPresenceOperator, type Leaf, type Rule } from './model.js';
import type { WrittenLeaf, WrittenRule } from './written.js';

export function normaliseRule(written: WrittenRule): Rule {
  return {
    name: written.name,
    ...(written.ruleId === undefined ? {} : { ruleId: written.ruleId }),
    description: written.description ?? '',
    status: written.status ?? 'active',
    actions: [...written.actions],
    conditions: {
      operator: written.conditions.operator,
      children: written.conditions.children.map((group) => ({
        operator: group.operator,
        children: group.children.map(normaliseLeaf),
      })),
    },
  };
}

export function normaliseLeaf(written: WrittenLeaf): Leaf {
  const leaf: Leaf = { conditionType: written.conditionType, operator: written.operator };
  if (!isPresenceOperator(written.operator) && written.value !== undefined) {
    leaf.value = isListOperator(written.operator) ? toList(written.value) : written.value;
  }
  if (written.fieldOption !== undefined) leaf.fieldOption = written.fieldOption;
  return leaf;
}

function toList(value: string | string[]): string[] {
  return typeof value === 'string' ? [value] : [...value];
}
