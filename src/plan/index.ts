// The planner's public surface: pure functions from declared and live rules to a plan.
export { planApp, type PlanInput, type PlanResult } from './planner.js';
export { Plan, countSteps, summarise, type MaxChanges, type PlanSummary, type SerialisedPlan } from './plan.js';
export {
  isMove,
  isUnmanagedPause,
  type AppPlan,
  type BlockedRule,
  type PlanStep,
  type StepDisplay,
  type UnmanagedPolicy,
  type UnmanagedRule,
} from './types.js';
export { fingerprintRules, ruleDigest, changedSince, inPriorityOrder, type LiveChanges } from './fingerprint.js';
export { canonicalJson, canonicalRule, changedFields, RULE_FIELDS, type CanonicalRule, type RuleField } from './canonical.js';
export { desiredOrder } from './order.js';
export { simulateSteps } from './simulate.js';
export { undoAppPlan } from './undo.js';
export { PLAN_FORMAT_VERSION } from './plan-json.js';
