// The Review of a plan, assembled in one place for plan and apply (docs/design.md, "The Plan and
// its Review"): what the plan loosens and the limits apply enforces, worked out from the live
// rules just listed and the steps, beside what each command measured (test outcomes, the
// behaviour diff, the replay, the policies, lifetimes, notes).
import type { Plan, SafetyLimits } from '../plan/plan-value.js';
import { planRisks } from '../plan/risks.js';
import { limitExcesses } from '../plan/safety.js';
import { disagreementWarning } from '../replay/agreement.js';
import type { ReplayReport } from '../replay/tally.js';
import type { ModelWarning } from '../render/plan/reasons.js';
import { reviewOf, type Review } from '../render/plan/review.js';
import type { LiveRule } from '../semantics/model.js';
import { definedFields } from '../defined.js';

/** What a command measured beside the plan. */
type ReviewParts = Partial<Omit<Review, 'risks' | 'limitExcesses' | 'trafficExcesses' | 'modelWarnings'>> & { maxDisagreement?: number };

/** The Review of `plan`, whose apps were planned against `live` (app name → the rules listed). */
export function assembleReview(plan: Plan, live: ReadonlyMap<string, readonly LiveRule[]>, limits: SafetyLimits, parts: ReviewParts = {}): Review {
  const { maxDisagreement, ...given } = parts;
  return reviewOf({
    ...given,
    risks: plan.apps.flatMap((app) => planRisks(app.app, live.get(app.app) ?? [], app.steps)),
    limitExcesses: limitExcesses(plan.apps, limits.maxChanges, limits.maxDeletes),
    trafficExcesses: plan.trafficExcesses(limits.maxNewlyBlocked),
    modelWarnings: given.replay === undefined ? [] : replayWarnings(given.replay, maxDisagreement),
  });
}

/**
 * What the replayed traffic cannot vouch for: requests undecided for lack of fields (the traffic
 * limit counts only decided requests), and live rules that disagree with production's decisions.
 */
function replayWarnings(replay: ReplayReport, maxDisagreement: number | undefined): ModelWarning[] {
  const warnings: ModelWarning[] = [];
  const undecided = replay.coverage?.undecided ?? 0;
  if (undecided > 0) warnings.push({ kind: 'undecided-requests', undecided, evaluated: replay.evaluated });
  // The replay says whether the disagreement exceeds the limit, and how (src/render/plan/reasons.ts).
  const production = replay.production;
  if (production !== undefined && disagreementWarning(production, maxDisagreement) !== undefined) {
    warnings.push({ kind: 'disagreement', production, ...definedFields({ limit: maxDisagreement }) });
  }
  return warnings;
}
