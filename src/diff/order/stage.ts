// The transition check as plan and apply run it (docs/behaviour.md, "Safe transitions"): one
// time budget for every app of the command, the order chosen per app (or, for a saved plan,
// its own order checked again), and progress for a terminal.
import { checkOrder, chooseOrder } from './search.js';
import { unitsOf } from './units.js';
import type { AppPlan, PlanStep, TransitionCheck, UncheckedPart } from '../../plan/types.js';
import { OUT_OF_TIME } from '../regions.js';
import type { LiveRule } from '../../semantics/model.js';
import type { RefutationStore } from '../refutations.js';

/** Seconds the transition check of one command may take when --transition-budget is not given. */
export const DEFAULT_TRANSITION_BUDGET = 10;

export interface TransitionRequest {
  /** --transition-budget: seconds for the whole check; 0 turns it off. */
  transitionBudget?: number;
  /** --safe-order: use an order free of windows that costs one more PATCH, when only such a one is. */
  safeOrder?: boolean;
  /** States checked for an app, out of the states of its planner's order (a progress line). */
  onTransitionProgress?: (app: string, done: number, total: number) => void;
  /** What the command's region searches prove, kept for the next (refutations.ts): the caller makes one per command. */
  refutations?: RefutationStore;
}

/** The check's settings for one command, its deadline counted from now; undefined when it is off. */
export interface TransitionRun {
  deadline: number;
  /** The seconds the deadline was set from, for the sentence that says how to give more. */
  budgetSeconds: number;
  safeOrder: boolean;
  onProgress?: (app: string, done: number, total: number) => void;
  refutations?: RefutationStore;
}

export function transitionRun(request: TransitionRequest): TransitionRun | undefined {
  const budget = request.transitionBudget ?? DEFAULT_TRANSITION_BUDGET;
  if (budget <= 0) return undefined;
  return {
    deadline: Date.now() + budget * 1000,
    budgetSeconds: budget,
    safeOrder: request.safeOrder === true,
    ...(request.onTransitionProgress === undefined ? {} : { onProgress: request.onTransitionProgress }),
    ...(request.refutations === undefined ? {} : { refutations: request.refutations }),
  };
}

/**
 * The ordering stage: the app's steps in the order the check chooses, with what it found in
 * it. With `saved` (apply --plan), the saved plan's order of the re-planned steps is checked
 * again instead, or the planner's steps are kept when the file's order is no order of them
 * (the comparison then names the difference). A plan of fewer than two PATCHes has no state
 * in between.
 */
export function orderSteps(plan: AppPlan, live: readonly LiveRule[], run: TransitionRun | undefined, saved?: readonly PlanStep[]): AppPlan {
  if (run === undefined || plan.steps.length < 2) return plan;
  const options = optionsFor(plan.app, run);
  const found = saved === undefined ? chooseOrder(live, plan.steps, { ...options, safeOrder: run.safeOrder }) : checkOrder(live, plan.steps, unitsOf(saved), options);
  return found === undefined ? plan : { ...plan, steps: found.steps, transitions: withBudgetHint(found.check, run) };
}

/** When the budget left something unchecked, one more part says how long the check had (and how to give it more). */
function withBudgetHint(check: TransitionCheck, run: TransitionRun): TransitionCheck {
  if (!check.unchecked.some(outOfTime)) return check;
  return { ...check, unchecked: [...check.unchecked, { kind: 'budget', seconds: run.budgetSeconds }] };
}

function outOfTime(part: UncheckedPart): boolean {
  return part.kind === 'states-out-of-time' || part.kind === 'orders-out-of-time' || (part.kind === 'search' && part.reason === OUT_OF_TIME);
}

function optionsFor(app: string, run: TransitionRun): { deadline: number; onProgress?: (done: number, total: number) => void; refutations?: RefutationStore } {
  const progress = run.onProgress;
  return {
    deadline: run.deadline,
    ...(progress === undefined ? {} : { onProgress: (done: number, total: number) => progress(app, done, total) }),
    ...(run.refutations === undefined ? {} : { refutations: run.refutations }),
  };
}
