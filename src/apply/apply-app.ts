// Applies one app's plan and verifies it: run the steps, LIST once more, and compare the
// live rules with the state the plan set out to reach. A server whose move semantics differ
// from list-move leaves the order wrong; the difference is planned and applied again, at
// most `maxCorrections` more times, before giving up with what still differs.
import type { RulesApi } from '../api/types.js';
import { planApp } from '../plan/planner.js';
import { simulateSteps } from '../plan/simulate.js';
import { fieldChanges, type PlanStep } from '../plan/types.js';
import type { LiveRule } from '../rules/model.js';
import { pinnedDeclared } from './pinned.js';
import { executeSteps, type StepOutcome } from './execute.js';

export interface ApplyAppOptions {
  concurrency: number;
  /** Correction passes after the first one (docs/behaviour.md, "Plan semantics": at most two). */
  maxCorrections: number;
  onOutcome?: (outcome: StepOutcome) => void;
}

export interface AppApplyResult {
  app: string;
  /** Outcomes of each pass: [0] is the plan itself, the rest are correction passes. */
  passes: StepOutcome[][];
  /** True when the last LIST showed exactly the expected rules. */
  verified: boolean;
  /** What still differs after the last pass ("Name": fields), when not verified and nothing failed. */
  differences: string[];
  /** The live rules at the end (the last LIST), when that LIST succeeded. */
  after?: LiveRule[];
  /** The error of the last LIST, when it failed. */
  listError?: Error;
}

export async function applyAppPlan(
  app: string,
  steps: readonly PlanStep[],
  before: readonly LiveRule[],
  api: RulesApi,
  options: ApplyAppOptions,
): Promise<AppApplyResult> {
  const expected = simulateSteps(before, steps);
  const result: AppApplyResult = { app, passes: [], verified: false, differences: [] };
  let pending: readonly PlanStep[] = steps;
  for (let pass = 0; pass <= options.maxCorrections; pass += 1) {
    const outcomes = await executeSteps(pending, api, options);
    result.passes.push(outcomes);
    try {
      result.after = await api.listRules();
    } catch (err) {
      result.after = undefined;
      result.listError = err instanceof Error ? err : new Error(String(err));
      return result;
    }
    if (outcomes.some((o) => o.state === 'failed')) return result;
    const remaining = remainingDifferences(app, expected, result.after);
    if (remaining.differences.length === 0 && remaining.steps.length === 0) {
      result.verified = true;
      return result;
    }
    result.differences = remaining.differences;
    // A rule deleted or renamed away under us cannot be corrected by more PATCHes.
    if (remaining.steps.length === 0) return result;
    pending = remaining.steps;
  }
  return result;
}

function remainingDifferences(
  app: string,
  expected: readonly LiveRule[],
  live: readonly LiveRule[],
): { steps: PlanStep[]; differences: string[] } {
  const declared = pinnedDeclared(expected, `expected rules of app ${app}`);
  const { plan, problems } = planApp({ app, declared, live: [...live], unmanaged: 'keep' });
  const missing = plan.blocked.map((b) => `"${b.name}" is no longer in the live rules`);
  const extra = plan.unmanaged.map((u) => `"${u.name}" (${u.ruleId}) appeared in the live rules`);
  const unfixable = [...problems.map((p) => p.message), ...missing, ...extra];
  const positions = new Map(live.map((rule, index) => [rule.ruleId, index]));
  const wanted = new Map(expected.map((rule, index) => [rule.ruleId, index]));
  // Name every rule out of place (not only those the correction would move), then fields.
  const misplaced = expected
    .filter((rule) => positions.get(rule.ruleId) !== wanted.get(rule.ruleId))
    .map((rule) => `"${rule.name}" is at position ${(positions.get(rule.ruleId) ?? -1) + 1}, expected ${(wanted.get(rule.ruleId) ?? -1) + 1}`);
  const fields = plan.steps
    .map((step) => ({ step, fields: fieldChanges(step).map((change) => change.field) }))
    .filter(({ fields }) => fields.length > 0)
    .map(({ step, fields }) => `"${step.name}" differs in ${fields.join(', ')}`);
  const differences = [...misplaced, ...fields, ...unfixable];
  return { steps: unfixable.length > 0 ? [] : plan.steps, differences };
}
