// What the apply renderers read: the parts of apply's report they show. Declared here, in the
// render layer, as the shapes they need, so that src/apply/ and src/engine/ (above this layer)
// hand in their own values: a StepOutcome, an AppApplyResult and the ApplyReport all fit.
import type { Plan } from '../../plan/plan-value.js';
import type { PlanStep } from '../../plan/types.js';

/** One step as it ended: sent and taken, refused or failed in transit, or never sent. */
export type StepOutcomeView =
  /** `result`: a created rule as the service answered, with the ruleId it gave it. */
  | { state: 'applied'; step: PlanStep; result?: { ruleId: string } }
  | { state: 'failed'; step: PlanStep; error: { message: string } }
  | { state: 'not-attempted'; step: PlanStep };

export interface AppApplyView {
  app: string;
  /** Outcomes of each pass: [0] is the plan itself, the rest are correction passes. */
  passes: readonly (readonly StepOutcomeView[])[];
  /** The last LIST showed exactly the expected rules. */
  verified: boolean;
}

export interface ApplyReportView {
  /** What the live rules are brought to: 'the rule files' or 'the plan'. */
  target: string;
  outcome: 'no-changes' | 'cancelled' | 'applied';
  results: readonly AppApplyView[];
  totals: { sent: number; failed: number; notAttempted: number };
  interrupted: boolean;
  undo?: { file: string; chosen: 'asked' | 'default'; undo: Plan; unlisted: readonly string[] };
  /** Set when the apply did not fully succeed; its sentence is the error handler's to print. */
  failure?: unknown;
  undoError?: unknown;
}

/** The report and the signal that interrupted the apply, if one did (SIGHUP, SIGINT, SIGTERM). */
export interface ApplyOutput {
  report: ApplyReportView;
  signal?: string;
  /** stdout could not be written (a full disk): stderr repeats where the undo plan went. */
  stdoutLost?: boolean;
}
