// Normalises a validated API rule into the tool's LiveRule, the same canonical shape the
// rule loader gives declared rules, so the planner compares like with like.
import { RemoteError } from '../errors.js';
import {
  isListOperator, isPresenceOperator,
  type Conditions, type Group, type GroupOperator, type Leaf, type LeafOperator, type LiveRule,
} from '../rules/model.js';
import type { ApiConditions, ApiGroup, ApiLeaf, ApiRule } from './rule-response.js';

/**
 * api.md makes `operator` optional at both tree levels and gives no default. A group
 * without one is read as "$and" (all children must match), the reading that matches the
 * fewest requests; botrules always sends an explicit operator, so a rule it wrote never
 * depends on this choice.
 */
export const DEFAULT_GROUP_OPERATOR: GroupOperator = '$and';

/** Where a rule sits in the answer, for messages: "content[3]". */
export type RulePath = string;

/**
 * The first ruleId a list of rules holds twice, and where it appears the second time. Two live
 * rules with one id cannot be told apart (a plan would match one and lose the other), so every
 * reader of a list refuses it: plan, apply, import, live, and a snapshot read by plan --live.
 */
export function firstDuplicateRuleId(rules: readonly { ruleId?: unknown }[]): { ruleId: string; index: number } | undefined {
  const seen = new Set<unknown>();
  for (const [index, rule] of rules.entries()) {
    if (seen.has(rule.ruleId)) return { ruleId: String(rule.ruleId), index };
    seen.add(rule.ruleId);
  }
  return undefined;
}

/** The one sentence for a ruleId listed twice, whichever command found it. */
export function duplicateRuleIdMessage(ruleId: string, app: string): string {
  return `ruleId ${JSON.stringify(ruleId)} appears twice in app ${JSON.stringify(app)}: two live rules with one id cannot be told apart; botrules sends no update while the list holds them`;
}

/** A rule whose shape the schema accepted but botrules cannot represent. */
export class UnusableRule extends Error {
  constructor(readonly path: string, readonly problem: string) {
    super(`${path} ${problem}`);
  }
}

/**
 * `fallbackPriority` stands in for a missing `priority`: the index in a list answer.
 * Throws UnusableRule for a leaf without operator or conditionType (nothing to compare).
 */
export function toLiveRule(rule: ApiRule, path: RulePath, ruleId: string, fallbackPriority: number): LiveRule {
  return {
    name: rule.name,
    ruleId,
    description: rule.description ?? '',
    status: rule.status,
    actions: [...rule.actions],
    conditions: toConditions(rule.conditions, `${path}.conditions`),
    priority: rule.priority ?? fallbackPriority,
  };
}

function toConditions(root: ApiConditions, path: string): Conditions {
  return {
    operator: root.operator ?? DEFAULT_GROUP_OPERATOR,
    children: (root.children ?? []).map((group, i) => toGroup(group, `${path}.children[${i}]`)),
  };
}

function toGroup(group: ApiGroup, path: string): Group {
  return {
    operator: group.operator ?? DEFAULT_GROUP_OPERATOR,
    children: (group.children ?? []).map((leaf, i) => toLeaf(leaf, `${path}.children[${i}]`)),
  };
}

function toLeaf(leaf: ApiLeaf, path: string): Leaf {
  if (leaf.operator === undefined) throw new UnusableRule(path, 'has no operator');
  if (leaf.conditionType === undefined) throw new UnusableRule(path, 'has no conditionType');
  const normalised: Leaf = { conditionType: leaf.conditionType, operator: leaf.operator };
  if (leaf.fieldOption !== undefined) normalised.fieldOption = leaf.fieldOption;
  const value = normaliseValue(leaf.operator, leaf.value);
  if (value !== undefined) normalised.value = value;
  return normalised;
}

/**
 * Values in the shape declared rules have: a list for list operators, a string for the
 * other value operators, nothing for presence operators (a value the service keeps there
 * tests nothing, and keeping it would show a change no update can remove).
 * A list of several values under a scalar operator is kept as it is, so the plan shows it.
 */
function normaliseValue(operator: LeafOperator, value: ApiLeaf['value']): string | string[] | undefined {
  if (value === undefined || isPresenceOperator(operator)) return undefined;
  if (isListOperator(operator)) return typeof value === 'string' ? [value] : [...value];
  if (Array.isArray(value) && value.length === 1) return value[0];
  return Array.isArray(value) ? [...value] : value;
}

/** Turns UnusableRule into the same "does not understand" RemoteError as a schema failure. */
export function unusableAnswer(what: string, error: UnusableRule, ruleName: string, operation: string): RemoteError {
  return new RemoteError(
    `the service returned ${what} botrules does not understand: ${error.path} (rule "${ruleName.slice(0, 80)}") ${error.problem}`,
    { operation },
  );
}
