// The planner's public surface: pure functions from declared and live rules to a plan.
export { planApp, type PlanInput, type PlanResult } from './planner.js';
export { Plan, countSteps, summarise, type PlanOptions, type PlanSummary, type SerialisedPlan } from './plan.js';
export { DEFAULT_MAX_SHARE, DEFAULT_MIN_CHANGES, type MaxChanges } from './safety.js';
export {
  fieldChanges,
  isMove,
  positionChange,
  RULE_FIELDS,
  STEP_KINDS,
  type AppPlan,
  type BlockedRule,
  type Change,
  type FieldChange,
  type PlanStep,
  type PositionChange,
  type RestoredRule,
  type RuleField,
  type StepKind,
  type UnmanagedPolicy,
  type UnmanagedRule,
} from './types.js';
export { fingerprintRules, ruleDigest, changedSince, inPriorityOrder, type LiveChanges } from './fingerprint.js';
export { canonicalJson, canonicalRule, changedFields, type CanonicalRule } from '../semantics/canonical.js';
export { desiredOrder } from './order.js';
export { simulateSteps } from '../semantics/list-move.js';
export { undoAppPlan, restoringPlan } from './undo.js';
export { PLAN_FORMAT_VERSION, type PlanSnapshot } from './plan-json.js';
