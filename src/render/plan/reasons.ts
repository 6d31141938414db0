// The reasons a plan and its Review keep as data, in words (docs/design.md, "The Plan and its
// Review"): what a rule loosens, what decides in a window, what the transition check did not
// check, the notes said once with a plan and what the replayed traffic cannot vouch for. The
// text and Markdown plans and the plan file (plan-file.ts) say them alike; words a saved file
// carries are shown as they are. Names and values in them come from rule files and the
// service: callers sanitise the words.
import type { Loosening } from '../../plan/risks.js';
import type { SavedWords, UncheckedPart, WindowOutcome } from '../../plan/types.js';
import { disagreementWarning } from '../../replay/agreement.js';
import type { ProductionAgreement } from '../../replay/tally.js';
import { noun } from '../../plural.js';

/** Said once with a plan: why rules removed from the files could not be recognised (src/engine/removed-rules.ts). */
export type PlanNote =
  | { kind: 'removals-unknown'; why: 'no-repository' | 'log-failed' }
  | { kind: 'shallow-history' }
  | SavedWords;

/**
 * What the replayed traffic cannot vouch for: requests undecided for lack of fields the changed
 * rules read, and live rules that disagree with production's recorded decisions beyond the limit.
 */
export type ModelWarning =
  | { kind: 'undecided-requests'; undecided: number; evaluated: number }
  | { kind: 'disagreement'; production: ProductionAgreement; limit?: number };

/** Why a rule is blocked, as a plan file words it (docs/behaviour.md, "Plan format"). */
export const BLOCKED_REASON = 'no live rule has this name, and the API cannot create rules';

/** Named allow rules after "after allow rule …" before "and N more". */
const NAMED_ALLOW_RULES = 2;

/** What a rule loosens, as a fragment after its name. */
export function looseningWords(loosens: Loosening): string {
  switch (loosens.kind) {
    case 'weakened': return `actions weakened from ${loosens.from.join(', ')} to ${loosens.to.join(', ')}`;
    case 'paused': return `(${loosens.actions.join(', ')}) is paused`;
    case 'after-allow': return `(${loosens.actions.join(', ')}) now comes after ${allowList(loosens.allowRules)}`;
    case 'saved': return loosens.text;
  }
}

function allowList(names: readonly string[]): string {
  const named = names.slice(0, NAMED_ALLOW_RULES).map((name) => `"${name}"`);
  const more = names.length - named.length;
  return `${noun(names.length, 'allow rule')} ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** A part the transition check did not check, as a clause (the plans put "Not checked: " before it). */
export function uncheckedWords(part: UncheckedPart): string {
  switch (part.kind) {
    case 'states-out-of-time': return `${part.first === part.last ? `the state after PATCH ${part.first} was` : `the states after PATCH ${part.first} to ${part.last} were`} not checked: the time budget ran out`;
    case 'orders-out-of-time': return 'other orders of the same PATCH requests were searched only in part (time budget): one with fewer windows may exist';
    case 'orders-local':
      return `${part.moving} of the ${part.requests} PATCH requests can change what the windows let through, too many to try every order: ` +
        'other orders were tried by sending the PATCH that closes a window before the one that opens it (or the other way round); ' +
        'one with fewer windows may exist, and splitting an update-and-move in two was not tried';
    case 'orders-near': return 'other orders were searched moving only the PATCH requests of rules that can match a request of an open window: one moving others may have fewer windows';
    case 'budget': return `the check had ${part.seconds} s for the whole command; --transition-budget SECONDS gives it more`;
    case 'undecided-class': return `${part.requests}: ${part.reasons.join('; ')}`;
    case 'search': return `${part.reason}${part.rules.length === 0 ? '' : ` (rules ${part.rules.map((rule) => `"${rule}"`).join(', ')})`}`;
    case 'saved': return part.text;
  }
}

/** What decides a window's witness in one state. */
export function windowOutcomeWords(outcome: WindowOutcome): string {
  switch (outcome.kind) {
    case 'rule': return `"${outcome.rule}" (${outcome.actions.join(', ')})`;
    case 'no-rule': return 'no rule (not blocked)';
    case 'undecided': return `undecided (${outcome.reason})`;
    case 'saved': return outcome.text;
  }
}

export function noteWords(note: PlanNote): string {
  switch (note.kind) {
    case 'removals-unknown': {
      const why = note.why === 'no-repository' ? 'the rules directory is not in a git repository (or git is not installed)' : 'git log failed in the rules directory';
      return `Rules removed from the files cannot be told apart from rules never declared: ${why}.`;
    }
    case 'shallow-history': return 'The git history is shallow: rules removed before its first commit are not recognised as removed (check out with fetch-depth: 0).';
    case 'saved': return note.text;
  }
}

export function modelWarningWords(warning: ModelWarning): string {
  // The replay words a disagreement; the engine records one only where the replay words it (src/engine/review.ts).
  if (warning.kind === 'disagreement') return disagreementWarning(warning.production, warning.limit) ?? '';
  return `${warning.undecided} of the ${warning.evaluated} replayed requests are undecided for lack of fields the changed rules read ` +
    '(see the replay report): the traffic limit counts only decided requests';
}
