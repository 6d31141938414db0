// The shapes a plan is made of. A plan is data: it can be printed, saved as JSON
// (contract §4) and loaded back, and `apply` sends exactly the bodies it holds.
import type { PatchBody, Rule, SourceLocation } from '../rules/model.js';

/** What to do with live rules that no rule file declares (contract §4); set per app in the config. */
export type { UnmanagedPolicy } from '../rules/config.js';

/** One PATCH request, in execution order. */
export interface PlanStep {
  ruleId: string;
  /** The rule's name once the step has run (the declared name; the live name for unmanaged rules). */
  name: string;
  /** Changed top-level fields in a fixed order, then `priority` for a move, or `unmanaged` for a pause. */
  reasons: string[];
  /** Exactly what is sent; never holds `ruleId`. */
  body: PatchBody;
  /** Only for rendering a freshly computed plan; never serialised (a loaded plan has none). */
  display?: StepDisplay;
}

export interface StepDisplay {
  /** 0-based index in the live list before the plan runs. */
  from?: number;
  /** 0-based index in the live list once the whole plan has run. */
  to?: number;
  /** The rule as it is live. */
  before?: Rule;
  /** The rule as it will be once the step has run. */
  after?: Rule;
}

/** A declared rule with no live counterpart: the API cannot create rules. */
export interface BlockedRule {
  name: string;
  /** The sentence to show, including what to do about it. */
  reason: string;
  /** Where the rule is declared. */
  source?: SourceLocation;
}

/** A live rule that no rule file declares. */
export interface UnmanagedRule {
  ruleId: string;
  name: string;
}

export interface AppPlan {
  app: string;
  /** `sha256:<hex>` of the live rules the plan was computed from (see fingerprint.ts). */
  fingerprint: string;
  steps: PlanStep[];
  blocked: BlockedRule[];
  unmanaged: UnmanagedRule[];
  /** Digest of every live rule (ruleId → `sha256:<hex>`), so a stale plan can name what changed. */
  liveDigests?: Record<string, string>;
}

/** A move is a step whose body carries `priority`: it runs alone, in plan order. */
export function isMove(step: Pick<PlanStep, 'body'>): boolean {
  return step.body.priority !== undefined;
}

/** A pause of an unmanaged rule (policy `pause`). */
export function isUnmanagedPause(step: Pick<PlanStep, 'reasons'>): boolean {
  return step.reasons.includes(UNMANAGED_REASON);
}

export const UNMANAGED_REASON = 'unmanaged';
export const PRIORITY_REASON = 'priority';
