// What `plan` says beside the plan, on stderr so stdout stays exactly the plan in the chosen
// format: the limits apply would refuse, the tests the behaviour diff could not decide, and
// where the plan was saved (docs/behaviour.md, "Output files").
import { excessSentence, trafficExcessDetails, trafficExcessSentence } from './refusals.js';
import type { Review } from './review.js';
import { modelWarningWords } from './reasons.js';
import { writeLines, type StreamRenderers } from '../contract.js';
import { safeText } from '../sanitise.js';
import { undecidedTestWords } from '../tests/reasons.js';

/** Limits apply would refuse (said at plan time, so a reviewer knows before apply refuses), undecided tests, replay warnings. */
function* warningLines({ limitExcesses, trafficExcesses, undecided, modelWarnings }: Review): Iterable<string> {
  for (const excess of limitExcesses) yield `warning: ${safeText(excessSentence(excess))}; apply will refuse it without --force`;
  for (const excess of trafficExcesses) {
    yield `warning: ${safeText(trafficExcessSentence(excess))}; apply will refuse it without --force`;
    for (const detail of trafficExcessDetails(excess)) yield `  ${safeText(detail)}`;
  }
  for (const test of undecided) yield `warning: ${safeText(undecidedTestWords(test))}`;
  for (const warning of modelWarnings) yield `warning: ${safeText(modelWarningWords(warning))}`;
}

export const PLAN_WARNINGS: StreamRenderers<Review> = {
  stderr: (view, sink) => writeLines(sink, warningLines(view)),
};

interface SavedPlanView {
  /** The file, as the user named it. */
  out: string;
  /** Made from a live snapshot (`plan --live`): apply refuses it. */
  fromSnapshot: boolean;
}

export const SAVED_PLAN: StreamRenderers<SavedPlanView> = {
  stderr: ({ out, fromSnapshot }, sink) => writeLines(sink, [fromSnapshot
    ? `Plan saved to ${safeText(out)}, for review only: it was made from a live snapshot, and apply refuses it`
    : `Plan saved to ${safeText(out)}; apply it with: botrules apply --plan ${safeText(out)}`]),
};
