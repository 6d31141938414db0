// The undo plan of an apply: the steps that put back every field and position a plan
// changes. It is planned like any other plan, from the rules as they will be after the
// apply (simulated under list-move semantics) back to the rules as they were, every rule
// pinned by ruleId; so it restores exactly the before values of the changed fields, moves
// as few rules as possible, and carries the fingerprint of the after-state, which makes
// `apply --plan undo.json` refuse to run over anything else. It also records the rules as
// they were (`restore`), so apply can check its steps lead back to exactly them.
import type { LiveRule } from '../semantics/model.js';
import { inPriorityOrder, simulateSteps } from '../semantics/list-move.js';
import { pinnedDeclared } from '../semantics/pinned.js';
import { planApp } from './planner.js';
import type { AppPlan } from './types.js';

/** `liveBefore` must be the live rules `plan` was computed from (same fingerprint). */
export function undoAppPlan(plan: AppPlan, liveBefore: readonly LiveRule[]): AppPlan {
  return restoringPlan(plan.app, liveBefore, simulateSteps(liveBefore, plan.steps));
}

/**
 * The plan that takes `liveNow` back to exactly `restore` (rules matched by ruleId; live
 * rules not in `restore` are left alone), recording `restore` in the plan. Every restored
 * rule must be live: callers pass rules listed from the same app, so a problem is a bug.
 */
export function restoringPlan(app: string, restore: readonly LiveRule[], liveNow: readonly LiveRule[]): AppPlan {
  const ordered = inPriorityOrder(restore);
  const declared = pinnedDeclared(ordered, `live rules of app ${app} before apply`);
  const planned = planApp({ app, declared, live: liveNow, unmanaged: 'keep' });
  if (planned.problems.length > 0) {
    throw new Error(`restoring app ${app}: ${planned.problems.map((p) => p.message).join('; ')}`);
  }
  return { ...planned.plan, restore: ordered.map((rule) => structuredClone(rule)) };
}
