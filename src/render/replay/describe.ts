// Words shared by the replay renderers. Everything here is still untrusted text: callers pass
// it through the sanitiser of their format.
import type { OutcomeKind, ReplayExample, ReplayReport, RulePair, ShadowReport, Transition } from '../../replay/tally.js';
import { noun, plural } from '../../plural.js';

/** How many rule pairs each transition lists; the rest are summed up. */
export const RULE_PAIRS_SHOWN = 5;

/** A share of traffic as a percentage a reader can compare: never "0.0%" for a real share. */
export function shareText(share: number): string {
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

/** A rule by its name, quoted; no name: no rule decided (replay's pairs and the tests' reasons). */
export function ruleName(name: string | undefined): string {
  return name === undefined ? 'no rule' : JSON.stringify(name);
}

/** A side of a rule pair: the rule, and for an undecided outcome the patterns out of time. */
function pairSide(name: string | undefined, patterns: readonly string[] | undefined): string {
  if (patterns === undefined) return ruleName(name);
  return `${ruleName(name)} undecided (${patterns.map((pattern) => `$re ${JSON.stringify(pattern)}`).join(', ') || 'a pattern'} out of time)`;
}

export function rulePairText(pair: RulePair): string {
  return `${pair.count}× ${pairSide(pair.before, pair.beforePatterns)} → ${pairSide(pair.after, pair.afterPatterns)}`;
}

/** Said whenever an outcome is undecided, even when it is undecided under both rule sets alike. */
export function undecidedRequestsSentence(report: ReplayReport): string | undefined {
  const { live, declared } = report.undecided;
  if (live === 0 && declared === 0) return undefined;
  return `Undecided: ${plural(live, 'request')} under the live rules and ${plural(declared, 'request')} under the declared rules, ` +
    'where a regular expression ran out of its time budget before any rule decided; their outcome is not known (docs/evaluation.md, "Regular expressions").';
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

/**
 * Which engine decided the requests and how fast (docs/replay.md, "The report"): the one part of
 * a report that is a timing, so it comes last, where a reader comparing two runs can drop it.
 */
export function engineSentence(report: ReplayReport): string | undefined {
  if (report.engine === undefined) return undefined;
  const { name, requestsPerSecond } = report.engine;
  return `Decided by the ${name} engine: ${groupedDigits(requestsPerSecond)} requests/s.`;
}

/** 1234567 as "1,234,567", whatever the machine's locale. */
function groupedDigits(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
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

/** The heading of the shadow rules' section: which rules, and what is compared. */
export function shadowHeading(shadow: ShadowReport): string {
  return `Shadow rules (applied paused): ${shadow.rules.map((name) => JSON.stringify(name)).join(', ')}; ` +
    'outcome changes if they were active, declared → shadow rules active:';
}

export function shadowNoChangeSentence(shadow: ShadowReport): string {
  return `No outcome changes: active, ${noun(shadow.rules.length, 'it', 'they')} would decide no evaluated request differently.`;
}
