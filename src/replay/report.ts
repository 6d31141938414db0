// The replay report's shape (docs/replay.md, "The report") and the orders its lists are sorted
// in, which replay merge keeps: one replay of a whole log and the merge of its shards list
// transitions, rule pairs and missing fields alike (src/replay/tally.ts fills it).
import type { TestRequest } from '../evaluate/request.js';
import type { BaselineComparison } from './baseline.js';
import type { FieldCoverage, RequestField } from './coverage.js';

/**
 * What a request meets: the strongest of the deciding rule's actions, no custom-rule outcome,
 * or `undecided` when a rule's `$re` ran out of its time budget before any rule decided
 * (docs/evaluation.md, "Regular expressions"): that rule and every rule after it might decide.
 */
export type OutcomeKind = 'none' | 'allow' | 'challenge' | 'block' | 'undecided';

/** Decided outcomes from the least to the most disruptive, the order transitions are listed in. */
const OUTCOME_ORDER: readonly OutcomeKind[] = ['none', 'allow', 'challenge', 'block'];

/** Outcomes that stop a request: a request meeting one after the plan but not before is newly blocked. */
export const BLOCKING_OUTCOMES: ReadonlySet<OutcomeKind> = new Set(['challenge', 'block']);

/** How many example requests each transition keeps. */
export const EXAMPLES_PER_TRANSITION = 3;

export interface SkipCount {
  reason: string;
  count: number;
  /** Where the reason first occurred. */
  first: { file: string; line: number };
}

export interface RulePair {
  /**
   * The deciding rule's name under the live rules, or undefined for none; for an undecided
   * outcome, the rule whose match was undecided.
   */
  before: string | undefined;
  after: string | undefined;
  /** For an undecided outcome: the patterns that ran out of time on the pair's first request. */
  beforePatterns?: string[];
  afterPatterns?: string[];
  count: number;
}

export interface ReplayExample {
  file: string;
  line: number;
  /** The request as read, secrets already masked. */
  request: TestRequest;
}

export interface Transition {
  from: OutcomeKind;
  to: OutcomeKind;
  count: number;
  /** count / requests evaluated, 0..1. */
  share: number;
  /** Rule pairs, most frequent first. */
  rules: RulePair[];
  examples: ReplayExample[];
}

export interface ReplayReport {
  app: string;
  /** What "before" was: the live rules listed now, or a snapshot file. */
  against: string;
  files: string[];
  /**
   * Declared rules the plan cannot apply (plan's "blocked" rules): "after" is the rules as
   * apply would leave them, so these are not in it.
   */
  notApplied: string[];
  /** Non-empty lines read. */
  read: number;
  evaluated: number;
  skipped: SkipCount[];
  /** Requests decided by another rule with the same outcome (not a transition). */
  sameOutcomeOtherRule: number;
  /** Requests whose outcome is undecided under each rule set (a `$re` pattern ran out of time). */
  undecided: { live: number; declared: number };
  /** Riskiest first: towards blocking, then by count. */
  transitions: Transition[];
  /** The engine that decided the requests and its requests per second (the only field that may differ between engines). */
  engine?: { name: 'js' | 'duckdb'; requestsPerSecond: number };
  /**
   * With rules declared `mode: shadow` (applied paused): the outcomes they would change if they
   * were active, from the declared rules' outcome to the outcome with them active
   * (docs/replay.md, "Shadow rules").
   */
  shadow?: ShadowReport;
  /**
   * Which request fields the log carries, and the requests whose outcome depends on a field
   * their line lacks (docs/replay.md, "Fields the log lacks"). Always present in new reports.
   */
  coverage?: ReplayCoverage;
  /** Where the log records production's decisions: how often the live rules agree with them. */
  production?: ProductionAgreement;
  /** With `--baseline REPORT.json`: what newly changes outcome and what stopped since that report. */
  baseline?: BaselineComparison;
  /** Digests of the two rule sets compared (live, declared): `replay merge` refuses shards of other rule sets. */
  ruleSets?: { live: string; declared: string };
}

/** The log's fields, and what the rules the change touches needed of them. */
export interface ReplayCoverage extends FieldCoverage {
  /** Fields read by the rules the change touches that some evaluated requests lack, most lacking first. */
  missing: MissingField[];
  /** Requests whose outcome depends on a field their line lacks, or that carry no request field: undecided, in no transition. */
  undecided: number;
  /** count / requests evaluated, 0..1. */
  undecidedShare: number;
  /** The first undecided requests. */
  examples: ReplayExample[];
}

/** Production's own decisions compared with the live rules (docs/replay.md, "Production's own decisions"). */
/** We say block (or challenge) where production let the request through, or the reverse. */
export type DisagreementDirection = 'we-block-production-allowed' | 'production-blocked-we-allow';

export interface Disagreement {
  direction: DisagreementDirection;
  /**
   * The rule each side names: ours when we block, production's (its `filter_id`, named by the
   * live rule of that id when there is one) when production blocked.
   */
  rule: string | undefined;
  /** True for the one group per direction that holds the rules past the first 1,000 groups (rule undefined). */
  otherRules?: true;
  count: number;
  examples: ReplayExample[];
}

export interface ProductionAgreement {
  /** Lines that recorded a decision. */
  recorded: number;
  /** Decided by a custom rule or by none, and decided by us: the requests compared. */
  compared: number;
  agreed: number;
  /** agreed / compared, 0..1 (1 when nothing was compared). */
  agreement: number;
  /** Largest first. */
  disagreements: Disagreement[];
  /** Blocked by the service itself (filter_origin not `customer`): kept apart. */
  byService: number;
  /** Our outcome is undecided (a `$re` out of time, a field the line lacks): not compared. */
  undecided: number;
  /** Production decisions recorded as simulated blocks (monitor mode), compared as blocks. */
  simulated: number;
}

export interface MissingField {
  field: RequestField;
  /** The rules touched by the change that read it. */
  rules: string[];
  /** Evaluated requests whose outcome depends on it. */
  undecided: number;
}

export interface ShadowReport {
  /** The shadow rules' names, in priority order. */
  rules: string[];
  /** declared → as if active; shares of the evaluated requests. */
  transitions: Transition[];
  /** Requests undecided with the shadow rules active. */
  undecided: number;
}

/** Most undecided first; as many by field name, so shards merge to one replay's order (replay merge). */
export function compareMissing(a: MissingField, b: MissingField): number {
  return b.undecided - a.undecided || (a.field < b.field ? -1 : a.field > b.field ? 1 : 0);
}

/**
 * Riskiest first, then the most requests, then by outcomes (the order of a report's
 * transitions): never by where in the log a transition first occurred, so shards merge to the
 * order one replay of the whole log gives (replay merge).
 */
export function compareTransitions(a: Transition, b: Transition): number {
  return riskOf(b) - riskOf(a) || b.count - a.count || rank(a.from) - rank(b.from) || rank(a.to) - rank(b.to);
}

function rank(outcome: OutcomeKind): number {
  return outcome === 'undecided' ? OUTCOME_ORDER.length : OUTCOME_ORDER.indexOf(outcome);
}

/**
 * Most frequent first; pairs as frequent by their rules' names (undecided and no rule last), so
 * the order does not depend on where in the log a pair first occurred and shards merge to the
 * order one replay of the whole log gives (replay merge).
 */
export function compareRulePairs(a: RulePair, b: RulePair): number {
  return b.count - a.count || compareNames(a.before, b.before) || compareNames(a.after, b.after);
}

function compareNames(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  return a < b ? -1 : 1;
}

/**
 * Towards blocking is riskier than away from it; the size of the step breaks ties. An outcome
 * that becomes undecided might be a block: it comes right after the steps towards blocking;
 * one that stops being undecided comes after it.
 */
function riskOf(transition: Pick<Transition, 'from' | 'to'>): number {
  if (transition.to === 'undecided') return 10;
  if (transition.from === 'undecided') return 5;
  const step = OUTCOME_ORDER.indexOf(transition.to) - OUTCOME_ORDER.indexOf(transition.from);
  return step > 0 ? 10 + step : -step;
}
