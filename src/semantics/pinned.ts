// Live rules as rule files would declare them, every rule pinned by its ruleId. Planning
// them against any live list of the same rules gives exactly the steps back to them: apply
// uses it to verify against the state a plan set out to reach (and correct what differs),
// undo plans restore the rules as they were with it, and a saved undo plan is checked by it.
import type { DeclaredRule, LiveRule } from './model.js';
import { inPriorityOrder } from './list-move.js';

/**
 * Rules as declared rules pinned by `ruleId`, in the order given, so the planner computes
 * the steps that turn any live list of the same rules into exactly these (nothing is
 * unmanaged or blocked). `origin` names them in the planner's messages.
 */
export function pinnedDeclared(rules: readonly LiveRule[], origin: string): DeclaredRule[] {
  return inPriorityOrder(rules).map((rule, index) => {
    const { priority: _priority, ...fields } = structuredClone(rule);
    return { ...fields, source: { file: origin, line: index + 1, col: 1 } };
  });
}
