// The exhaustive behaviour diff in words (docs/behaviour.md, "Exhaustive behaviour diff"),
// shared by the text and Markdown renderers of `plan` and `botrules diff`. Nothing here is made
// safe: names, values and examples come from rule files or the service, and each renderer
// passes them through the sanitiser for its format.
import { describeRequest } from '../../validate/witness.js';
import type { TestRequest } from '../../evaluate/request.js';
import type { AppBehaviourDiff, BehaviourRisk, OutcomeChange, RequestClass } from '../../diff/outcomes.js';
import { outcomeText } from '../plan/describe.js';
import { noun, plural } from '../../plural.js';

const RISK_WORDS: Readonly<Record<BehaviourRisk, string>> = {
  allows: 'now allowed',
  weakens: 'weaker',
  'other-rule': 'another rule',
  strengthens: 'stricter',
};

/** Risks a reviewer is warned about first: what now allows, or no longer blocks or challenges as strongly. */
export function isLoosening(change: OutcomeChange): boolean {
  return change.risk === 'allows' || change.risk === 'weakens';
}

function classCount(diffs: readonly AppBehaviourDiff[]): number {
  return diffs.reduce((sum, diff) => sum + diff.changes.reduce((inner, change) => inner + change.classes.length, 0), 0);
}

/** `Every request: 3 classes of requests are decided differently:` (or none), with what was left unchecked. */
export function diffHeading(diffs: readonly AppBehaviourDiff[]): string {
  const classes = classCount(diffs);
  const unchecked = diffs.some((diff) => diff.unchecked.length > 0) ? ' (some parts unchecked, listed below)' : '';
  if (classes === 0) return `Every request: none is decided differently${unchecked === '' ? '' : ' in the parts checked'}${unchecked}`;
  return `Every request: ${plural(classes, 'class', 'classes')} of requests ${noun(classes, 'is', 'are')} decided differently${unchecked}:`;
}

/** `now allowed: "Block scrapers" (hardBlock) → "Allow partners" (allow)`. */
export function changeLine(change: OutcomeChange, app: string | undefined): string {
  const where = app === undefined ? '' : `${app}: `;
  return `${where}${RISK_WORDS[change.risk]}: ${outcomeText(change.before)} → ${outcomeText(change.after)}`;
}

/** `requests with path starting "/api": for example path "/apix", method "GET"`. */
export function classLine(requestClass: RequestClass): string {
  return `${requestClass.description}, for example ${describeRequest(requestClass.example as TestRequest)}`;
}

/** `unchecked: a regular expression the search cannot reason about (rules "A", "B")`. */
export function uncheckedLine(part: { reason: string; rules: readonly string[] }, app: string | undefined): string {
  const where = app === undefined ? '' : `${app}: `;
  const rules = part.rules.length === 0 ? '' : ` (${noun(part.rules.length, 'rule')} ${part.rules.map((rule) => `"${rule}"`).join(', ')})`;
  return `${where}unchecked: ${part.reason}${rules}`;
}
