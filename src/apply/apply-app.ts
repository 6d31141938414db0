// Applies one app's plan and verifies it: run the steps, LIST once more, and compare the live
// rules with the state the plan set out to reach (verify.ts). A server whose move semantics
// differ from list-move leaves the order wrong: the positions are sent again, at most
// `maxCorrections` more times and never more PATCHes than the change limit leaves. Every other
// difference is drift: reported, never overwritten. After an interrupt no new step starts and
// nothing more is listed: the live rules are what the applied steps made of the ones listed.
import type { RulesApi } from '../api/types.js';
import { simulateSteps } from '../semantics/list-move.js';
import { isMove, type PlanStep } from '../plan/types.js';
import type { LiveRule } from '../semantics/model.js';
import { executeSteps, type StepOutcome } from './execute.js';
import { moveWindow, verifyApplied } from './verify.js';
import { plural } from '../plural.js';
import { definedFields } from '../defined.js';

interface ApplyAppOptions {
  concurrency: number;
  /** The transition check chose the plan's order: steps that change behaviour run alone (execute.ts). */
  ordered?: boolean;
  /** Correction passes after the first one (docs/behaviour.md, "Verify, correct, and drift": at most two). */
  maxCorrections: number;
  /** PATCH requests all correction passes together may send: the change limit less the plan's own. */
  correctionBudget: number;
  /** Once aborted, no new step starts (an interrupt); the ones in flight finish. */
  signal?: AbortSignal;
  /** A pass begins (0: the plan; then each correction pass), with its steps. */
  onPass?: (pass: number, steps: readonly PlanStep[]) => void;
  onOutcome?: (outcome: StepOutcome, pass: number) => void;
}

export interface AppApplyResult {
  app: string;
  /** Outcomes of each pass: [0] is the plan itself, the rest are correction passes. */
  passes: StepOutcome[][];
  /** True when the last LIST showed exactly the expected rules. */
  verified: boolean;
  /** Rules still out of place when the correction passes or the change limit ran out. */
  differences: string[];
  /** Why the order was not corrected further, when `differences` is not empty. */
  gaveUp?: string;
  /** What differs from the plan's result and was not the plan's to fix: reported, never overwritten. */
  drift: string[];
  /** The live rules at the end (the last LIST; after an interrupt, the listed rules with the applied steps), when known. */
  after?: LiveRule[];
  /** The error of the last LIST, when it failed. */
  listError?: Error;
  /** True when an interrupt stopped the apply before every step had run. */
  interrupted: boolean;
}

export async function applyAppPlan(
  app: string,
  steps: readonly PlanStep[],
  before: readonly LiveRule[],
  api: RulesApi,
  options: ApplyAppOptions,
): Promise<AppApplyResult> {
  let expected = simulateSteps(before, steps);
  const window = moveWindow(before, steps);
  const result: AppApplyResult = { app, passes: [], verified: false, differences: [], drift: [], interrupted: false };
  let pending: readonly PlanStep[] = steps;
  let listed: readonly LiveRule[] = before;
  let budget = options.correctionBudget;
  for (let pass = 0; ; pass += 1) {
    options.onPass?.(pass, pending);
    const outcomes = await executeSteps(pending, api, {
      concurrency: options.concurrency,
      ordered: options.ordered === true && pass === 0,
      ...definedFields({ signal: options.signal }),
      onOutcome: (outcome) => options.onOutcome?.(outcome, pass),
    });
    result.passes.push(outcomes);
    // Created rules stand in the expected state under their plan placeholders until the service names them.
    if (pass === 0) expected = withCreatedIds(expected, outcomes);
    if (options.signal?.aborted === true) {
      // Sent nothing more, listed nothing more: the undo plan is planned from this.
      result.interrupted = true;
      result.after = simulateSteps(listed, applied(outcomes));
      return result;
    }
    try {
      result.after = await api.listRules();
    } catch (err) {
      result.after = undefined;
      result.listError = err instanceof Error ? err : new Error(String(err));
      return result;
    }
    listed = result.after;
    if (outcomes.some((o) => o.state === 'failed')) return result;
    const verification = verifyApplied(expected, result.after, window);
    result.drift = verification.drift;
    result.differences = verification.misplaced;
    if (verification.drift.length > 0) return result;
    if (verification.misplaced.length === 0) {
      result.verified = true;
      return result;
    }
    const corrections = verification.corrections;
    const gaveUp = correctionRefused(corrections.length, { pass, maxCorrections: options.maxCorrections, moves: steps.filter(isMove).length, budget });
    if (gaveUp !== undefined) {
      result.gaveUp = gaveUp;
      return result;
    }
    budget -= corrections.length;
    pending = corrections;
  }
}

/**
 * Why no further correction pass runs, or undefined when one may: a correction pass never
 * moves more rules than the plan moved, nor sends more than the change limit leaves.
 */
function correctionRefused(needed: number, at: { pass: number; maxCorrections: number; moves: number; budget: number }): string | undefined {
  const requests = plural(needed, 'more PATCH request');
  if (at.pass >= at.maxCorrections) return `after ${at.maxCorrections} correction passes`;
  if (needed > at.moves) return `correcting would take ${requests}, more than the plan's own ${plural(at.moves, 'move')}`;
  if (needed > at.budget) return `correcting would take ${requests}, more than the change limit leaves (${Math.max(0, at.budget)})`;
  return undefined;
}

/** The steps that were applied, in plan order; a create step under the ruleId the service gave its rule. */
function applied(outcomes: readonly StepOutcome[]): PlanStep[] {
  return outcomes.flatMap((o) => {
    if (o.state !== 'applied') return [];
    return o.step.kind === 'create' && o.result !== undefined ? [{ ...o.step, ruleId: o.result.ruleId }] : [o.step];
  });
}

/** The ids the service gave the rules the plan created, by their placeholders. */
function createdIds(outcomes: readonly StepOutcome[]): Map<string, string> {
  return new Map(outcomes.flatMap((o) => (o.state === 'applied' && o.step.kind === 'create' && o.result !== undefined ? [[o.step.ruleId, o.result.ruleId] as const] : [])));
}

/** `rules` with each created rule's placeholder id replaced by the id the service gave it. */
function withCreatedIds(rules: readonly LiveRule[], outcomes: readonly StepOutcome[]): LiveRule[] {
  const ids = createdIds(outcomes);
  if (ids.size === 0) return [...rules];
  return rules.map((rule) => ({ ...rule, ruleId: ids.get(rule.ruleId) ?? rule.ruleId }));
}
