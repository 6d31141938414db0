// Runs the steps of one app's plan against the service. Moves (a body with `priority`)
// change every later rule's position, so each runs alone and in plan order; field-only
// updates touch one rule each and run concurrently up to the limit (in an order the transition
// check chose, only those that change a name or a description). After the first
// failure, or once the signal is aborted (an interrupt), no new step starts: the ones in
// flight finish, the rest are "not attempted".
import pLimit from 'p-limit';
import type { RulesApi } from '../api/types.js';
import type { LiveRule } from '../semantics/model.js';
import { behaviourNeutral, isLifecycle, isMove, type PlanStep } from '../plan/types.js';

/**
 * `result`: the rule as the service answered (a created rule with its new ruleId); for a
 * delete, the rule as it was listed is not known here, and `result` is absent.
 */
export type StepOutcome =
  | { state: 'applied'; step: PlanStep; result?: LiveRule }
  | { state: 'failed'; step: PlanStep; error: Error }
  | { state: 'not-attempted'; step: PlanStep };

interface ExecuteOptions {
  /** Field-only updates in flight at once (at least 1). */
  concurrency: number;
  /** Called as each step finishes (applied or failed), for progress output. */
  onOutcome?: (outcome: StepOutcome) => void;
  /** Aborted: start no new step. */
  signal?: AbortSignal;
  /**
   * The transition check chose the order (docs/behaviour.md, "Safe transitions"): every step
   * that can change how a request is decided runs alone, in plan order, like a move; only
   * name and description updates still overlap.
   */
  ordered?: boolean;
}

/** Runs `steps` and resolves to one outcome per step, in plan order. Never rejects for a failed PATCH. */
export async function executeSteps(
  steps: readonly PlanStep[],
  api: RulesApi,
  options: ExecuteOptions,
): Promise<StepOutcome[]> {
  const outcomes: StepOutcome[] = steps.map((step) => ({ state: 'not-attempted', step }));
  const limit = pLimit(Math.max(1, Math.floor(options.concurrency)));
  let failed = false;
  const stopped = () => failed || options.signal?.aborted === true;

  const runStep = async (index: number): Promise<void> => {
    // A queued step starts only if nothing has failed (or been interrupted) meanwhile.
    if (stopped()) return;
    const step = steps[index] as PlanStep;
    let outcome: StepOutcome;
    try {
      outcome = await send(step, api);
    } catch (err) {
      failed = true;
      outcome = { state: 'failed', step, error: err instanceof Error ? err : new Error(String(err)) };
    }
    outcomes[index] = outcome;
    options.onOutcome?.(outcome);
  };

  let inFlight: Promise<void>[] = [];
  for (let index = 0; index < steps.length && !stopped(); index += 1) {
    const step = steps[index] as PlanStep;
    if (isMove(step) || isLifecycle(step) || (options.ordered === true && !behaviourNeutral(step))) {
      // A move, a create or a delete (or a step of a checked order) never overlaps anything:
      // each shifts the positions of others. Drain the batch, then run it alone.
      await Promise.all(inFlight);
      inFlight = [];
      if (stopped()) break;
      await runStep(index);
    } else {
      inFlight.push(limit(runStep, index));
    }
  }
  await Promise.all(inFlight);
  return outcomes;
}

/** One step's request: a PATCH, or the POST of a create step, or the DELETE of a delete step. */
async function send(step: PlanStep, api: RulesApi): Promise<StepOutcome> {
  if (step.kind === 'create') return { state: 'applied', step, result: await lifecycle(api.createRule, 'create')(step.body) };
  if (step.kind === 'delete') {
    await lifecycle(api.deleteRule, 'delete')(step.ruleId);
    return { state: 'applied', step };
  }
  return { state: 'applied', step, result: await api.patchRule(step.ruleId, step.body) };
}

function lifecycle<F>(operation: F | undefined, what: string): F {
  if (operation === undefined) throw new Error(`internal: the rules source cannot ${what} rules`);
  return operation;
}
