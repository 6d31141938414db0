// The replay report (docs/replay.md, "The report"): counts of requests read and skipped, and
// for each transition of outcome (none → challenge, allow → block, …) its count, the rules
// involved and a few example requests. Memory is bounded by the number of distinct reasons,
// transitions and rule pairs, never by the number of requests.
import type { Decision, TestRequest } from '../evaluate/index.js';
import type { Action, Rule } from '../rules/model.js';

/** What a request meets: the strongest of the deciding rule's actions, or no custom-rule outcome. */
export type OutcomeKind = 'none' | 'allow' | 'challenge' | 'block';

/** Outcomes from the least to the most disruptive, the order transitions are listed in. */
export const OUTCOME_ORDER: readonly OutcomeKind[] = ['none', 'allow', 'challenge', 'block'];

export function outcomeKind(actions: readonly Action[]): OutcomeKind {
  if (actions.includes('hardBlock')) return 'block';
  if (actions.includes('blockWithChallenge')) return 'challenge';
  if (actions.includes('allow')) return 'allow';
  return 'none';
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
  /** The deciding rule's name under the live rules, or undefined for none. */
  before: string | undefined;
  after: string | undefined;
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
  /** Riskiest first: towards blocking, then by count. */
  transitions: Transition[];
}

export class ReplayTally {
  private read = 0;
  private evaluated = 0;
  private sameOutcomeOtherRule = 0;
  private readonly skipped = new Map<string, SkipCount>();
  private readonly transitions = new Map<string, { from: OutcomeKind; to: OutcomeKind; count: number; rules: Map<string, RulePair>; examples: ReplayExample[] }>();

  skip(reason: string, file: string, line: number): void {
    this.read += 1;
    const known = this.skipped.get(reason);
    if (known === undefined) this.skipped.set(reason, { reason, count: 1, first: { file, line } });
    else known.count += 1;
  }

  add(example: ReplayExample, before: Decision<Rule>, after: Decision<Rule>): void {
    this.read += 1;
    this.evaluated += 1;
    const from = outcomeKind(before.actions);
    const to = outcomeKind(after.actions);
    if (from === to) {
      if (before.rule?.name !== after.rule?.name) this.sameOutcomeOtherRule += 1;
      return;
    }
    const key = `${from}>${to}`;
    let transition = this.transitions.get(key);
    if (transition === undefined) this.transitions.set(key, transition = { from, to, count: 0, rules: new Map(), examples: [] });
    transition.count += 1;
    const pairKey = `${before.index}>${after.index}`;
    const pair = transition.rules.get(pairKey);
    if (pair === undefined) transition.rules.set(pairKey, { before: before.rule?.name, after: after.rule?.name, count: 1 });
    else pair.count += 1;
    if (transition.examples.length < EXAMPLES_PER_TRANSITION) transition.examples.push(example);
  }

  report(context: Pick<ReplayReport, 'app' | 'against' | 'files' | 'notApplied'>): ReplayReport {
    const evaluated = this.evaluated;
    const transitions = [...this.transitions.values()].map((t): Transition => ({
      from: t.from, to: t.to, count: t.count, share: evaluated === 0 ? 0 : t.count / evaluated,
      rules: [...t.rules.values()].sort((a, b) => b.count - a.count),
      examples: t.examples,
    }));
    transitions.sort((a, b) => riskOf(b) - riskOf(a) || b.count - a.count);
    return {
      ...context, read: this.read, evaluated, skipped: [...this.skipped.values()],
      sameOutcomeOtherRule: this.sameOutcomeOtherRule, transitions,
    };
  }
}

/** Towards blocking is riskier than away from it; the size of the step breaks ties. */
function riskOf(transition: Pick<Transition, 'from' | 'to'>): number {
  const step = OUTCOME_ORDER.indexOf(transition.to) - OUTCOME_ORDER.indexOf(transition.from);
  return step > 0 ? 10 + step : -step;
}
