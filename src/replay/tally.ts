// The replay report (docs/replay.md, "The report"): counts of requests read and skipped, and
// for each transition of outcome (none → challenge, allow → block, …) its count, the rules
// involved and a few example requests. Memory is bounded by the number of distinct reasons,
// transitions and rule pairs, never by the number of requests.
import type { Decision } from '../evaluate/evaluate.js';
import type { TestRequest } from '../evaluate/request.js';
import { compileRules, type UndecidedExplainer } from './compiled.js';
import type { Action, NormalRule } from '../semantics/model.js';
import { FieldCounter, type RequestField } from './coverage.js';
import { EXAMPLES_PER_TRANSITION, compareMissing, compareTransitions, compareRulePairs, type OutcomeKind, type SkipCount, type RulePair, type ReplayExample, type Transition, type ReplayReport, type ReplayCoverage, type MissingField } from './report.js';

export { BLOCKING_OUTCOMES, EXAMPLES_PER_TRANSITION, compareMissing, compareTransitions, compareRulePairs } from './report.js';
export type { OutcomeKind, SkipCount, RulePair, ReplayExample, Transition, ReplayReport, ReplayCoverage, DisagreementDirection, Disagreement, ProductionAgreement, MissingField, ShadowReport } from './report.js';


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

/** A change of outcome as the tally counts it: its rule pairs by the deciding rules' indices. */
interface TallyTransition { from: OutcomeKind; to: OutcomeKind; count: number; rules: Map<string, RulePair>; examples: ReplayExample[] }

export class ReplayTally {
  private read = 0;
  private evaluated = 0;
  private sameOutcomeOtherRule = 0;
  private readonly undecided = { live: 0, declared: 0 };
  private readonly skipped = new Map<string, SkipCount>();
  private readonly transitions = new Map<string, TallyTransition>();
  /** Per-field presence, counted by whoever parses the lines (`fields.count` for each request). */
  readonly fields = new FieldCounter();
  private readonly missing = new Map<RequestField, number>();
  private readonly undecidedExamples: ReplayExample[] = [];
  private undecidedByField = 0;

  /**
   * `explain`: the patterns that left a rule undecided, asked of the rule sets compiled for
   * replay (compiled.ts); by default of the rule compiled on its own.
   */
  constructor(private readonly explain: UndecidedExplainer = explainAlone) {}

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
    const transition = this.addGroup(() => example.request, before, after, 1);
    if (transition !== undefined && transition.examples.length < EXAMPLES_PER_TRANSITION) transition.examples.push(example);
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
   * `count` requests that all meet `before` and `after`, `first` the first of them (an engine
   * that decides requests in groups, src/replay/duckdb/; asked only where a side is undecided,
   * to explain it, and then it must give the request). Groups come in the order of their first
   * request, so rule pairs keep the order `add` gives them; examples come apart (addExample), in
   * log order. Returns the transition the group counts in, if its outcome changed.
   */
  addGroup(first: () => TestRequest | undefined, before: Decision<NormalRule>, after: Decision<NormalRule>, count: number): TallyTransition | undefined {
    this.read += count;
    this.evaluated += count;
    const from = outcomeOf(before);
    const to = outcomeOf(after);
    if (from === 'undecided') this.undecided.live += count;
    if (to === 'undecided') this.undecided.declared += count;
    if (from === to) {
      if (decidingRule(before)?.name !== decidingRule(after)?.name) this.sameOutcomeOtherRule += count;
      return undefined;
    }
    const key = `${from}>${to}`;
    let transition = this.transitions.get(key);
    if (transition === undefined) this.transitions.set(key, transition = { from, to, count: 0, rules: new Map(), examples: [] });
    transition.count += count;
    const pairKey = `${decidingIndex(before)}>${decidingIndex(after)}`;
    const pair = transition.rules.get(pairKey);
    if (pair === undefined) transition.rules.set(pairKey, { ...rulePair(before, after, first, this.explain), count });
    else pair.count += count;
    return transition;
  }

  /** An example of a transition added by addGroup, kept (and only then asked for) when fewer than EXAMPLES_PER_TRANSITION are. */
  addExample(before: Decision<NormalRule>, after: Decision<NormalRule>, example: () => ReplayExample): void {
    const transition = this.transitions.get(`${outcomeOf(before)}>${outcomeOf(after)}`);
    if (transition !== undefined && transition.examples.length < EXAMPLES_PER_TRANSITION) transition.examples.push(example());
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

/** The rule that decides, or whose undecided match leaves the outcome open. */
function decidingRule(decision: Decision<NormalRule>): NormalRule | undefined {
  return decision.undecided?.rule ?? decision.rule;
}

function decidingIndex(decision: Decision<NormalRule>): number {
  return decision.undecided?.index ?? decision.index;
}

/** A new rule pair; an undecided side names its rule and the patterns that ran out of time. */
function rulePair(before: Decision<NormalRule>, after: Decision<NormalRule>, first: () => TestRequest | undefined, explain: UndecidedExplainer): RulePair {
  const pair: RulePair = { before: decidingRule(before)?.name, after: decidingRule(after)?.name, count: 1 };
  if (before.undecided === undefined && after.undecided === undefined) return pair;
  const request = first();
  // The grouping engine numbers the first request of every pair with an undecided side (src/engine/replay-duckdb-native.ts).
  if (request === undefined) throw new Error('a rule pair with an undecided side has no first request');
  // Answers are remembered by the patterns: asking again runs nothing a second time.
  if (before.undecided !== undefined) pair.beforePatterns = explain(before.undecided, request);
  if (after.undecided !== undefined) pair.afterPatterns = explain(after.undecided, request);
  return pair;
}

/** The rule of an undecided decision compiled on its own, for a tally given no rule sets. */
function explainAlone({ rule }: NonNullable<Decision['undecided']>, request: TestRequest): string[] {
  return compileRules([rule]).undecidedPatterns({ rule, index: 0 }, request);
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
