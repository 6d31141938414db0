// The server-response boundary: a validated API rule becomes a LiveRule in the normal form
// of src/semantics/normalise.ts, the same form the rule loader gives declared rules, so the
// planner compares like with like (docs/design.md, "One rule semantics").
import { RemoteError } from '../errors.js';
import type { UnusableRule } from '../semantics/normalise.js';

/**
 * `toLiveRule(rule, path, ruleId, fallbackPriority)`: `fallbackPriority` stands in for a
 * missing `priority` (the index in a list answer); throws UnusableRule for a leaf without
 * operator or conditionType (nothing to compare).
 */
export { DEFAULT_GROUP_OPERATOR, normaliseLiveRule as toLiveRule, UnusableRule } from '../semantics/normalise.js';

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

/** Turns UnusableRule into the same "does not understand" RemoteError as a schema failure. */
export function unusableAnswer(what: string, error: UnusableRule, ruleName: string, operation: string): RemoteError {
  return new RemoteError(
    `the service returned ${what} botrules does not understand: ${error.path} (rule "${ruleName.slice(0, 80)}") ${error.problem}`,
    { operation },
  );
}
