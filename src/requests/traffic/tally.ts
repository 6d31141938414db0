// The replay report (docs/replay.md, "The report"): counts of requests read and skipped, and
// for each transition of outcome (none → challenge, allow → block, …) its count, the rules
// involved and a few example requests. Memory is bounded by the number of distinct reasons,
// transitions and rule pairs, never by the number of requests.
import { undecidedPatterns, type Decision, type TestRequest } from '../../evaluate/index.js';
import type { Action, NormalRule } from '../../semantics/model.js';
import type { BaselineComparison } from './baseline.js';
import { FieldCounter, type FieldCoverage, type RequestField } from './coverage.js';

/**
 * What a request meets: the strongest of the deciding rule's actions, no custom-rule outcome,
 * or `undecided` when a rule's `$re` ran out of its time budget before any rule decided
 * (docs/evaluation.md, "Regular expressions"): that rule and every rule after it might decide.
 */
export type OutcomeKind = 'none' | 'allow' | 'challenge' | 'block' | 'undecided';

/** Decided outcomes from the least to the most disruptive, the order transitions are listed in. */
export const OUTCOME_ORDER: readonly OutcomeKind[] = ['none', 'allow', 'challenge', 'block'];

/** Outcomes that stop a request: a request meeting one after the plan but not before is newly blocked. */
export const BLOCKING_OUTCOMES: ReadonlySet<OutcomeKind> = new Set(['challenge', 'block']);

export function outcomeKind(actions: readonly Action[]): OutcomeKind {
  if (actions.includes('hardBlock')) return 'block';
  if (actions.includes('blockWithChallenge')) return 'challenge';
  if (actions.includes('allow')) return 'allow';
  return 'none';
}

/** The outcome of a decision: undecided when a rule's match was undecided before any rule matched. */
export function outcomeOf(decision: Decision<NormalRule>): OutcomeKind {
  return decision.undecided === undefined ? outcomeKind(decision.actions) : 'undecided';
}

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

export class ReplayTally {
  private read = 0;
  private evaluated = 0;
  private sameOutcomeOtherRule = 0;
  private readonly undecided = { live: 0, declared: 0 };
  private readonly skipped = new Map<string, SkipCount>();
  private readonly transitions = new Map<string, { from: OutcomeKind; to: OutcomeKind; count: number; rules: Map<string, RulePair>; examples: ReplayExample[] }>();
  /** Per-field presence, counted by whoever parses the lines (`fields.count` for each request). */
  readonly fields = new FieldCounter();
  private readonly missing = new Map<RequestField, number>();
  private readonly undecidedExamples: ReplayExample[] = [];
  private undecidedByField = 0;

  /** Lines read so far (requests and skipped lines). */
  get lines(): number {
    return this.read;
  }

  skip(reason: string, file: string, line: number): void {
    this.read += 1;
    const known = this.skipped.get(reason);
    if (known === undefined) this.skipped.set(reason, { reason, count: 1, first: { file, line } });
    else known.count += 1;
  }

  /**
   * A request whose outcome is not known from its line: it lacks fields the rules touched by the
   * change read (`lacking`), or carries none at all (`lacking` empty). Counted undecided.
   */
  undecidedByMissing(example: ReplayExample, lacking: readonly RequestField[]): void {
    this.read += 1;
    this.evaluated += 1;
    this.undecidedByField += 1;
    for (const field of lacking) this.missing.set(field, (this.missing.get(field) ?? 0) + 1);
    if (this.undecidedExamples.length < EXAMPLES_PER_TRANSITION) this.undecidedExamples.push(example);
  }

  add(example: ReplayExample, before: Decision<NormalRule>, after: Decision<NormalRule>): void {
    this.read += 1;
    this.evaluated += 1;
    const from = outcomeOf(before);
    const to = outcomeOf(after);
    if (from === 'undecided') this.undecided.live += 1;
    if (to === 'undecided') this.undecided.declared += 1;
    if (from === to) {
      if (decidingRule(before)?.name !== decidingRule(after)?.name) this.sameOutcomeOtherRule += 1;
      return;
    }
    const key = `${from}>${to}`;
    let transition = this.transitions.get(key);
    if (transition === undefined) this.transitions.set(key, transition = { from, to, count: 0, rules: new Map(), examples: [] });
    transition.count += 1;
    const pairKey = `${decidingIndex(before)}>${decidingIndex(after)}`;
    const pair = transition.rules.get(pairKey);
    if (pair === undefined) transition.rules.set(pairKey, rulePair(before, after, example.request));
    else pair.count += 1;
    if (transition.examples.length < EXAMPLES_PER_TRANSITION) transition.examples.push(example);
  }

  /** The coverage part, given which touched rules read each field. */
  coverage(rulesReading: ReadonlyMap<RequestField, readonly string[]>): ReplayCoverage {
    const missing = [...this.missing].map(([field, undecided]): MissingField => ({ field, rules: [...(rulesReading.get(field) ?? [])], undecided }))
      .sort(compareMissing);
    return {
      ...this.fields.coverage(), missing, undecided: this.undecidedByField,
      undecidedShare: this.evaluated === 0 ? 0 : this.undecidedByField / this.evaluated, examples: [...this.undecidedExamples],
    };
  }

  /**
   * `count` requests that all meet `before` and `after`, the first of them `first` (an engine
   * that decides requests in groups, src/requests/duckdb/). Groups come in the order of their
   * first request, so rule pairs keep the order `add` gives them; examples come apart
   * (addExample), in log order.
   */
  addGroup(first: ReplayExample, before: Decision<NormalRule>, after: Decision<NormalRule>, count: number): void {
    this.read += count;
    this.evaluated += count;
    const from = outcomeOf(before);
    const to = outcomeOf(after);
    if (from === 'undecided') this.undecided.live += count;
    if (to === 'undecided') this.undecided.declared += count;
    if (from === to) {
      if (decidingRule(before)?.name !== decidingRule(after)?.name) this.sameOutcomeOtherRule += count;
      return;
    }
    const key = `${from}>${to}`;
    let transition = this.transitions.get(key);
    if (transition === undefined) this.transitions.set(key, transition = { from, to, count: 0, rules: new Map(), examples: [] });
    transition.count += count;
    const pairKey = `${decidingIndex(before)}>${decidingIndex(after)}`;
    const pair = transition.rules.get(pairKey);
    if (pair === undefined) transition.rules.set(pairKey, { ...rulePair(before, after, first.request), count });
    else pair.count += count;
  }

  /** An example of a transition added by addGroup, kept when fewer than EXAMPLES_PER_TRANSITION are. */
  addExample(before: Decision<NormalRule>, after: Decision<NormalRule>, example: ReplayExample): void {
    const transition = this.transitions.get(`${outcomeOf(before)}>${outcomeOf(after)}`);
    if (transition !== undefined && transition.examples.length < EXAMPLES_PER_TRANSITION) transition.examples.push(example);
  }

  report(context: Pick<ReplayReport, 'app' | 'against' | 'files' | 'notApplied'>): ReplayReport {
    const evaluated = this.evaluated;
    const transitions = [...this.transitions.values()].map((t): Transition => ({
      from: t.from, to: t.to, count: t.count, share: evaluated === 0 ? 0 : t.count / evaluated,
      rules: [...t.rules.values()].sort(compareRulePairs),
      examples: t.examples,
    }));
    transitions.sort(compareTransitions);
    return {
      ...context, read: this.read, evaluated, skipped: [...this.skipped.values()],
      sameOutcomeOtherRule: this.sameOutcomeOtherRule, undecided: { ...this.undecided }, transitions,
    };
  }
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

/** The rule that decides, or whose undecided match leaves the outcome open. */
function decidingRule(decision: Decision<NormalRule>): NormalRule | undefined {
  return decision.undecided?.rule ?? decision.rule;
}

function decidingIndex(decision: Decision<NormalRule>): number {
  return decision.undecided?.index ?? decision.index;
}

/** A new rule pair; an undecided side names its rule and the patterns that ran out of time. */
function rulePair(before: Decision<NormalRule>, after: Decision<NormalRule>, request: TestRequest): RulePair {
  const pair: RulePair = { before: decidingRule(before)?.name, after: decidingRule(after)?.name, count: 1 };
  // Answers are remembered by the patterns: asking again runs nothing a second time.
  if (before.undecided !== undefined) pair.beforePatterns = undecidedPatterns(before.undecided.rule, request).map((found) => found.pattern);
  if (after.undecided !== undefined) pair.afterPatterns = undecidedPatterns(after.undecided.rule, request).map((found) => found.pattern);
  return pair;
}

/**
 * Whether the report is an all-clear: some request evaluated, every request decided (no `$re`
 * out of time, no outcome depending on a field its line lacks, no line without a request field)
 * and none changed outcome. `replay` exits 0 only then (contract: no silent all-clear).
 */
export function isAllClear(report: Pick<ReplayReport, 'evaluated' | 'transitions' | 'undecided' | 'coverage'>): boolean {
  return report.evaluated > 0 && report.transitions.length === 0 && report.undecided.live === 0 && report.undecided.declared === 0 &&
    (report.coverage === undefined || report.coverage.undecided === 0);
}
