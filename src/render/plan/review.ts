// What a reviewer reads beside a plan's steps (docs/design.md, "The Plan and its Review"): what
// the plan loosens, the limits apply will enforce, the rule tests and request classes it
// decides differently, the replayed traffic, the policies, the rule lifetimes and notes. The
// engine assembles it once (src/engine/review.ts); the plan renderers read it beside the
// Plan. A saved plan carries the parts a fresh plan shows (plan-file.ts writes the plan file).
// Reasons are data (reasons.ts words them); those read back from a file are the file's words.
import type { Plan } from '../../plan/plan-value.js';
import type { PlanLifetimes } from '../../plan/lifetimes.js';
import type { Risk } from '../../plan/risks.js';
import type { LimitExcess } from '../../plan/safety.js';
import type { TrafficExcess } from '../../plan/traffic-limit.js';
import type { AppBehaviourDiff, BehaviourReport } from '../../diff/outcomes.js';
import type { ReplayReport } from '../../replay/tally.js';
import type { UndecidedTest } from '../../tests/behaviour.js';
import type { PolicyFinding } from '../policies/model.js';
import type { ModelWarning, PlanNote } from './reasons.js';

/** What a reviewer reads beside the steps; apply works risks and notes out again rather than trust a file's. */
export interface Review {
  /** What the plan loosens (src/plan/risks.ts). */
  risks: readonly Risk[];
  /** Limits apply enforces without --force: changes and deletes per app, and traffic newly blocked (plan --replay). */
  limitExcesses: readonly LimitExcess[];
  trafficExcesses: readonly TrafficExcess[];
  /** Said once with the plan, e.g. why rules removed from the files could not be recognised. */
  notes: readonly PlanNote[];
  /** Rules whose lifetime changes their state within seven days or explains a status change; absent without such events. */
  lifetimes?: PlanLifetimes;
  /** The rule tests whose outcome the plan changes (not saved), and those it could not decide. */
  behaviour?: BehaviourReport;
  undecided: readonly UndecidedTest[];
  /** Every class of requests the plan decides differently, per app (docs/behaviour.md, "Exhaustive behaviour diff"). */
  behaviourDiff?: readonly AppBehaviourDiff[];
  /** plan --replay's report (docs/replay.md, "The report"), and where the live rules disagree with production's decisions. */
  replay?: ReplayReport;
  modelWarnings: readonly ModelWarning[];
  /** The policy checks of the planned rules (docs/behaviour.md, "Policies"). */
  policies?: readonly PolicyFinding[];
}

/** A Plan with what its reviewer reads: the model of every plan renderer. */
export interface ReviewedPlan {
  plan: Plan;
  review: Review;
}

/** A Review with nothing in it but what is given (an undo plan, a plan in a test); lifetimes only with events. */
export function reviewOf({ lifetimes, ...given }: Partial<Review> = {}): Review {
  return { risks: [], limitExcesses: [], trafficExcesses: [], notes: [], undecided: [], modelWarnings: [], ...given, ...(lifetimes?.events.length ? { lifetimes } : {}) };
}
