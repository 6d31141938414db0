// The undo plan of an apply: the steps that put back every field and position a plan
// changes. It is planned like any other plan, from the rules as they will be after the
// apply (simulated under list-move semantics) back to the rules as they were, every rule
// pinned by ruleId; so it restores exactly the before values of the changed fields, moves
// as few rules as possible, and carries the fingerprint of the after-state, which makes
// `apply --plan undo.json` refuse to run over anything else. It also records the rules as
// they were (`restore`), so apply can check its steps lead back to exactly them. With
// service.create and service.delete, a rule the apply created is deleted (paused when the
// service does not delete), and a rule it deleted is created again from `restore`: its ruleId
// will differ, since the service gives every new rule its own.
import { UserError } from '../errors.js';
import { NO_CAPABILITIES, type LiveRule, type ServiceCapabilities, type UnmanagedPolicy } from '../semantics/model.js';
import { inPriorityOrder, simulateSteps } from '../semantics/list-move.js';
import { pinnedDeclared } from '../semantics/pinned.js';
import type { DeclaredRule } from '../semantics/model.js';
import { planApp } from './planner.js';
import type { AppPlan } from './types.js';

/** `liveBefore` must be the live rules `plan` was computed from (same fingerprint). */
export function undoAppPlan(plan: AppPlan, liveBefore: readonly LiveRule[], service: ServiceCapabilities = NO_CAPABILITIES): AppPlan {
  return restoringPlan(plan.app, liveBefore, simulateSteps(liveBefore, plan.steps), service);
}

/**
 * What an undo plan does with a live rule that is not among the rules to restore (one the apply
 * created): delete it when the service deletes, else pause it; without either capability there
 * is none, and the policy is the one undo plans always had.
 */
export function undoPolicy(service: ServiceCapabilities): UnmanagedPolicy {
  return service.delete ? 'delete' : service.create ? 'pause' : 'keep';
}

/**
 * The restored rules as the planner takes them: pinned by ruleId while live; a rule that is no
 * longer live (the apply deleted it) is declared to be created again (with service.create),
 * never matched by its name, which another live rule may carry now; it gets a new ruleId from
 * the service.
 */
export function restoredDeclared(restore: readonly LiveRule[], liveNow: readonly LiveRule[], origin: string): DeclaredRule[] {
  const liveIds = new Set(liveNow.map((rule) => rule.ruleId));
  return pinnedDeclared(restore, origin).map((rule) => {
    if (rule.ruleId === undefined || liveIds.has(rule.ruleId)) return rule;
    const { ruleId: _gone, ...unpinned } = rule;
    return { ...unpinned, recreate: true } as DeclaredRule;
  });
}

/**
 * The plan that takes `liveNow` back to exactly `restore` (rules matched by ruleId, rules no
 * longer live created again; live rules not in `restore` are left alone), recording `restore`
 * in the plan. Callers pass rules listed from the same app, so planning them has no problem to
 * report; should one appear all the same, the user is told how to roll back without the undo plan.
 */
export function restoringPlan(app: string, restore: readonly LiveRule[], liveNow: readonly LiveRule[], service: ServiceCapabilities = NO_CAPABILITIES): AppPlan {
  const ordered = inPriorityOrder(restore);
  const declared = restoredDeclared(ordered, liveNow, `live rules of app ${app} before apply`);
  const planned = planApp({ app, declared, live: liveNow, unmanaged: undoPolicy(service), service });
  if (planned.problems.length > 0) {
    throw new UserError(`cannot plan the undo of app ${app}: ${planned.problems.map((p) => p.message).join('; ')}`, [
      'To roll back without an undo plan, check out the rule files as they were and run botrules plan, then botrules apply.',
    ]);
  }
  return { ...planned.plan, restore: ordered.map((rule) => structuredClone(rule)) };
}
