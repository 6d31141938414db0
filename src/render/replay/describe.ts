// Words shared by the replay renderers. Everything here is still untrusted text: callers pass
// it through the sanitiser of their format.
import type { OutcomeKind, ReplayExample, ReplayReport, RulePair, Transition } from '../../traffic/tally.js';
import { plural } from '../../plural.js';

/** How many rule pairs each transition lists; the rest are summed up. */
export const RULE_PAIRS_SHOWN = 5;

/** A share of traffic as a percentage a reader can compare: never "0.0%" for a real share. */
export function percent(share: number): string {
  if (share === 0) return '0%';
  if (share < 0.001) return '<0.1%';
  return `${(share * 100).toFixed(1)}%`;
}

export function transitionTitle(transition: Pick<Transition, 'from' | 'to'>): string {
  return `${outcomeWord(transition.from)} → ${outcomeWord(transition.to)}`;
}

function outcomeWord(kind: OutcomeKind): string {
  return kind === 'none' ? 'no rule' : kind;
}

export function ruleName(name: string | undefined): string {
  return name === undefined ? 'no rule' : JSON.stringify(name);
}

export function rulePairText(pair: RulePair): string {
  return `${pair.count}× ${ruleName(pair.before)} → ${ruleName(pair.after)}`;
}

/** The request as compact JSON: exact, one line (secrets were masked when it was read). */
export function exampleText(example: ReplayExample): string {
  return `${example.file}:${example.line} ${JSON.stringify(example.request)}`;
}

export function headline(report: ReplayReport): string {
  const skipped = report.read - report.evaluated;
  return `Replayed ${plural(report.read, 'request')} from ${plural(report.files.length, 'file')} for app ${JSON.stringify(report.app)}: ` +
    `${report.evaluated} evaluated, ${skipped} skipped; live = ${report.against}, declared = the rules as apply would leave them.`;
}

export const NO_CHANGE_SENTENCE = 'No outcome changes: every evaluated request meets the same outcome under the declared rules.';

export function sameOutcomeSentence(report: ReplayReport): string | undefined {
  if (report.sameOutcomeOtherRule === 0) return undefined;
  return `${plural(report.sameOutcomeOtherRule, 'request')} keep their outcome but are decided by another rule.`;
}

export function notAppliedSentence(report: ReplayReport): string | undefined {
  if (report.notApplied.length === 0) return undefined;
  return `Not replayed: ${plural(report.notApplied.length, 'declared rule')} the plan cannot apply (see botrules plan): ` +
    `${report.notApplied.map((name) => JSON.stringify(name)).join(', ')}.`;
}
