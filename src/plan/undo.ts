// The undo plan of an apply: the steps that put back every field and position a plan
// changes. It is planned like any other plan, from the rules as they will be after the
// apply (simulated under list-move semantics) back to the rules as they were, every rule
// pinned by ruleId; so it restores exactly the before values of the changed fields, moves
// as few rules as possible, and carries the fingerprint of the after-state, which makes
// `apply --plan undo.json` refuse to run over anything else.
import type { DeclaredRule, LiveRule } from '../rules/model.js';
import { inPriorityOrder } from './fingerprint.js';
import { planApp } from './planner.js';
import { simulateSteps } from './simulate.js';
import type { AppPlan } from './types.js';

/** `liveBefore` must be the live rules `plan` was computed from (same fingerprint). */
export function undoAppPlan(plan: AppPlan, liveBefore: readonly LiveRule[]): AppPlan {
  const liveAfter = simulateSteps(liveBefore, plan.steps);
  const restored = inPriorityOrder(liveBefore).map((rule, index) => asPinnedDeclared(rule, plan.app, index));
  const undo = planApp({ app: plan.app, declared: restored, live: liveAfter, unmanaged: 'keep' });
  if (undo.problems.length > 0) {
    // Every restored rule is pinned to a rule id present in liveAfter; a problem is a bug.
    throw new Error(`undo plan of app ${plan.app}: ${undo.problems.map((p) => p.message).join('; ')}`);
  }
  return undo.plan;
}

function asPinnedDeclared(rule: LiveRule, app: string, index: number): DeclaredRule {
  const { priority: _priority, ...fields } = rule;
  return { ...structuredClone(fields), source: { file: `live rules of app ${app} before apply`, line: index + 1, col: 1 } };
}
