// Apply verifies against the state the plan set out to reach (the live rules with its steps
// simulated under list-move semantics), not against the rule files, so a saved plan or an
// undo plan is verified against what it meant to do. To find what still differs, that
// state is planned like rule files whose every rule is pinned by ruleId.
import type { DeclaredRule, LiveRule } from '../rules/model.js';

/**
 * Rules as declared rules pinned by `ruleId`, in the order given, so the planner computes
 * the steps that turn any live list of the same rules into exactly these (nothing is
 * unmanaged or blocked). `origin` names them in the planner's messages.
 */
export function asDeclared(rules: readonly LiveRule[], origin: string): DeclaredRule[] {
  return [...rules]
    .sort((a, b) => a.priority - b.priority)
    .map((rule, index) => {
      const { priority: _priority, ...fields } = rule;
      return { ...fields, source: { file: origin, line: index + 1, col: 1 } };
    });
}
