// What a reviewer reads beside a plan's steps (docs/design.md, "The Plan and its Review"): what
// the plan loosens, the limits apply will enforce, the rule tests and request classes it
// decides differently, the replayed traffic, the policies, the rule lifetimes and notes. The
// engine assembles it once (src/engine/review.ts); the plan renderers read it beside the
// Plan. A saved plan carries the parts a fresh plan shows (the plan file's format is the
// Plan's `document`), and reading one back gives the Review a renderer of the file shows.
import { Plan } from '../../plan/plan-value.js';
import { parsePlan, parsePlanText, type SerialisedPlan } from '../../plan/file-format.js';
import type { PlanLifetimes } from '../../plan/lifetimes.js';
import type { Risk } from '../../plan/risks.js';
import type { LimitExcess } from '../../plan/safety.js';
import type { TrafficExcess } from '../../plan/traffic-limit.js';
import type { AppBehaviourDiff, BehaviourReport } from '../../plan/types.js';
import type { ReplayReport } from '../../requests/traffic/tally.js';
import type { PolicyFinding } from '../policies/model.js';

export interface Review {
  /** What the plan loosens (src/plan/risks.ts); apply works it out again from the live rules. */
  risks: readonly Risk[];
  /** Per app, how its plan exceeds a limit apply enforces without --force. */
  limitExcesses: readonly LimitExcess[];
  /** Per app, the replayed traffic newly blocked beyond its maxNewlyBlocked (plan --replay). */
  trafficExcesses: readonly TrafficExcess[];
  /** Said once with the plan, e.g. why rules removed from the files could not be recognised. */
  notes: readonly string[];
  /** Rules whose lifetime changes their state within seven days or explains a status change; absent without such events. */
  lifetimes?: PlanLifetimes;
  /** How the plan changes the outcome of the project's test requests (not saved). */
  behaviour?: BehaviourReport;
  /** Tests the behaviour diff leaves out because their outcome is undecided, one sentence each. */
  undecided: readonly string[];
  /** Every class of requests the plan decides differently, per app (docs/behaviour.md, "Exhaustive behaviour diff"). */
  behaviourDiff?: readonly AppBehaviourDiff[];
  /** With plan --replay: the replay report (docs/replay.md, "The report"). */
  replay?: ReplayReport;
  /** With plan --replay of a log of production's decisions: where the live rules disagree with it. */
  modelWarnings: readonly string[];
  /** The policy checks of the planned rules (docs/behaviour.md, "Policies"). */
  policies?: readonly PolicyFinding[];
}

/** A Plan with what its reviewer reads: the model of every plan renderer. */
export interface ReviewedPlan {
  plan: Plan;
  review: Review;
}

/** A Review with nothing in it but what is given (an undo plan, a plan in a test). */
export function reviewOf(parts: Partial<Review> = {}): Review {
  const { lifetimes, ...rest } = parts;
  return {
    risks: [], limitExcesses: [], trafficExcesses: [], notes: [], undecided: [], modelWarnings: [], ...rest,
    // A plan without lifetime events says nothing about lifetimes.
    ...(lifetimes === undefined || lifetimes.events.length === 0 ? {} : { lifetimes }),
  };
}

/** The plan file (`plan --out`, `plan --format json`): the Plan's document with the saved parts of its Review. */
export function planDocument({ plan, review }: ReviewedPlan): SerialisedPlan {
  return plan.document({
    risks: review.risks,
    notes: review.notes,
    ...(review.lifetimes === undefined ? {} : { lifetimes: review.lifetimes }),
    ...(review.behaviourDiff === undefined ? {} : { behaviourDiff: review.behaviourDiff }),
    ...(review.replay === undefined ? {} : { replay: review.replay }),
    ...(review.policies === undefined ? {} : { policies: review.policies }),
  });
}

/** A saved plan's text → the Plan and the Review a renderer of the file shows (risks, notes, lifetimes). */
export function readReviewedPlan(text: string, source = 'the plan file'): ReviewedPlan {
  const parsed = parsePlan(parsePlanText(text, source), source);
  return {
    plan: new Plan(parsed.apps, parsed.snapshot === undefined ? {} : { snapshot: parsed.snapshot }),
    review: reviewOf({ risks: parsed.risks, notes: parsed.notes, ...(parsed.lifetimes === undefined ? {} : { lifetimes: parsed.lifetimes }) }),
  };
}
