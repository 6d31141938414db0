// The plan JSON (docs/behaviour.md, "Plan format"): what `plan --out` saves, `plan --format json`
// prints and `apply --undo-out` writes, read back by src/plan/file-format.ts. The file words the
// reasons the Plan and its Review keep as data (what loosens, what the transition check did not
// check, the notes), in the words the text and Markdown plans show (reasons.ts), so a saved plan
// renders as the fresh one did.
import type { Plan } from '../../plan/plan-value.js';
import { unmanagedFate } from '../../plan/plan-value.js';
import { PLAN_FORMAT_VERSION, type SerialisedApp, type SerialisedPlan } from '../../plan/file-format.js';
import type { Risk } from '../../plan/risks.js';
import { mapReasons, type AppPlan } from '../../plan/types.js';
import { BLOCKED_REASON, looseningWords, noteWords, uncheckedWords, windowOutcomeWords } from './reasons.js';
import type { Review } from './review.js';
import { findingDocument } from '../policies/words.js';
import { definedFields } from '../../defined.js';

/** The parts of a Review a saved plan carries; apply works risks, notes and lifetimes out again and ignores the rest. */
type SavedReview = Partial<Pick<Review, 'risks' | 'notes' | 'lifetimes' | 'behaviourDiff' | 'replay' | 'policies'>>;

/** The plan JSON with the saved parts of its review, in the file's order (formatVersion in file-format.ts). */
export function planDocument(plan: Plan, review: SavedReview = {}): SerialisedPlan {
  const { risks = [], notes = [], lifetimes, behaviourDiff, replay, policies } = review;
  // The file's summary: the counts in their order, creates and deletes only when there are some.
  const { unmanagedKept: _kept, creates, deletes, positionChanges, removed, removedActive, ...counts } = plan.summary;
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    ...definedFields({ snapshot: plan.snapshot && { ...plan.snapshot } }),
    ...(notes.length === 0 ? {} : { notes: notes.map(noteWords) }),
    ...definedFields({ lifetimes: lifetimes && { evaluatedAt: lifetimes.evaluatedAt, events: [...lifetimes.events] } }),
    apps: plan.apps.map((app) => serialiseApp(app, risks.filter((risk) => risk.app === app.app))),
    summary: { ...counts, ...definedFields({ creates, deletes }), positionChanges, removed, removedActive },
    ...definedFields({ behaviourDiff: behaviourDiff && [...behaviourDiff], replay, policies: policies?.map(findingDocument) }),
  };
}

function serialiseApp(app: AppPlan, risks: readonly Risk[]): SerialisedApp {
  return {
    app: app.app,
    fingerprint: app.fingerprint,
    liveRules: app.liveRules,
    steps: app.steps.map((step) => ({
      ruleId: step.ruleId, name: step.name, kind: step.kind,
      // A DELETE sends no body; a POST's body is the whole rule and its priority.
      ...(step.kind === 'delete' ? {} : { body: step.body }),
      ...(step.kind === 'create' || step.kind === 'delete' ? { position: step.position } : {}),
      ...definedFields({ dropsUnknown: step.dropsUnknown }),
      changes: step.changes,
    })),
    blocked: app.blocked.map(({ name, ...rule }) => ({ name, reason: BLOCKED_REASON, ...rule })),
    unmanaged: app.unmanaged.map((rule) => ({ ...rule, fate: unmanagedFate(app, rule) })),
    ...definedFields({ liveDigests: app.liveDigests, restore: app.restore }),
    ...(risks.length === 0 ? {} : { risks: risks.map((risk) => ({ ruleId: risk.ruleId, name: risk.name, what: looseningWords(risk.loosens) })) }),
    ...definedFields({ replay: app.replay, transitions: app.transitions && mapReasons(app.transitions, windowOutcomeWords, uncheckedWords) }),
  };
}
