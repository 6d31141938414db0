// The server-response boundary: a validated API rule becomes a LiveRule in the normal form
// of src/semantics/normalise.ts, the same form the rule loader gives declared rules, so the
// planner compares like with like (docs/design.md, "One rule semantics").
import { RemoteError } from '../errors.js';
import { normaliseLiveRule, UnusableRule } from '../semantics/normalise.js';
import type { LiveRule } from '../semantics/model.js';
import type { ApiRule } from './rule-response.js';

export { DEFAULT_GROUP_OPERATOR, UnusableRule } from '../semantics/normalise.js';

/** Where a rule sits in the answer, for messages: "content[3]". */
export type RulePath = string;

/**
 * `fallbackPriority` stands in for a missing `priority`: the index in a list answer.
 * Throws UnusableRule for a leaf without operator or conditionType (nothing to compare).
 */
export function toLiveRule(rule: ApiRule, path: RulePath, ruleId: string, fallbackPriority: number): LiveRule {
  return normaliseLiveRule(rule, path, ruleId, fallbackPriority);
}

/** Turns UnusableRule into the same "does not understand" RemoteError as a schema failure. */
export function unusableAnswer(what: string, error: UnusableRule, ruleName: string, operation: string): RemoteError {
  return new RemoteError(
    `the service returned ${what} botrules does not understand: ${error.path} (rule "${ruleName.slice(0, 80)}") ${error.problem}`,
    { operation },
  );
}
