// The exhaustive behaviour diff of each planned app (docs/behaviour.md, "Exhaustive behaviour
// diff"): the live rules against the live rules with every step applied — what apply then
// verifies — under one time budget for all apps, so a large plan says what it left unchecked
// instead of taking unbounded time.
import { appBehaviourDiff, behaviourDiff } from '../diff/diff.js';
import { OUT_OF_TIME } from '../diff/regions.js';
import type { PlanStep } from '../plan/types.js';
import type { AppBehaviourDiff } from '../diff/outcomes.js';
import type { LiveRule, NormalRule } from '../semantics/model.js';
import { inPriorityOrder } from '../semantics/list-move.js';
import { finalState } from '../diff/order/states.js';
import { definedFields } from '../defined.js';
import type { RefutationStore } from '../diff/refutations.js';

/** Seconds the diff may take by default, over all apps of a plan or both sides of `botrules diff`. */
export const DEFAULT_DIFF_BUDGET_SECONDS = 20;

export interface DiffRun {
  /** Seconds the search may take in all. */
  budgetSeconds: number;
  /** Rules searched so far and in all, for a progress line. */
  onProgress?: (done: number, total: number) => void;
  /** The command's refutations, shared with its transition check (diff/refutations.ts). */
  refutations?: RefutationStore;
}

export function plannedBehaviourDiffs(planned: readonly { app: string; live: readonly LiveRule[]; steps: readonly PlanStep[] }[], run: DiffRun): AppBehaviourDiff[] {
  const deadline = Date.now() + run.budgetSeconds * 1000;
  return planned
    .filter((app) => app.steps.length > 0)
    // The final state shares the rule objects no PATCH changed with the live list: the search numbers each once.
    .map((app) => ruleSetsDiff(app.app, inPriorityOrder(app.live), finalState(app.live, app.steps), { ...run, deadline }));
}

/** Two rule sets, each in priority order. */
export function ruleSetsDiff(app: string, before: readonly NormalRule[], after: readonly NormalRule[], run: DiffRun & { deadline?: number }): AppBehaviourDiff {
  const deadline = run.deadline ?? Date.now() + run.budgetSeconds * 1000;
  const diff = appBehaviourDiff(app, behaviourDiff(before, after, { deadline, ...definedFields({ onProgress: run.onProgress, refutations: run.refutations }) }));
  // What ran out of time says how to give it more: the reader of a PR comment may not know the option.
  const outOfTime = `${OUT_OF_TIME} (the diff had ${run.budgetSeconds} s; --diff-budget SECONDS gives it more)`;
  return { ...diff, unchecked: diff.unchecked.map((part) => (part.reason === OUT_OF_TIME ? { ...part, reason: outOfTime } : part)) };
}
