// What a plan does to requests, as a reviewer reads it (docs/evaluation.md, "Behaviour diff";
// docs/behaviour.md, "Exhaustive behaviour diff"): the named test requests whose outcome
// changes, and every class of requests decided differently. Data of the Review
// (src/render/plan/review.ts), made by the rule tests and by the behaviour diff (diff.ts).
import type { SourceLocation } from '../semantics/model.js';

/** Which rule decides a named test request, and with which actions; `rule` undefined: none. */
export interface Outcome {
  rule: string | undefined;
  actions: string[];
}

/** A test request whose outcome the plan changes (docs/evaluation.md, "Behaviour diff"). */
export interface BehaviourChange {
  app: string;
  test: string;
  source: SourceLocation;
  /** Under the live rules as listed. */
  before: Outcome;
  /** Under the rules as they will be once the plan is applied. */
  after: Outcome;
}

/** The tests that were evaluated for the plan, and those whose outcome it changes. */
export interface BehaviourReport {
  tests: number;
  changes: BehaviourChange[];
}

/** How much riskier an outcome change is, riskiest first (docs/behaviour.md, "Exhaustive behaviour diff"). */
export type BehaviourRisk = 'allows' | 'weakens' | 'other-rule' | 'strengthens';

/** A class of requests: its conditions in words, and one request of it the evaluator confirmed. */
export interface RequestClass {
  description: string;
  example: ExampleRequest;
}

/** A request as test files write it (evaluate/request.ts, TestRequest), as plain data. */
export type ExampleRequest = Readonly<Record<string, string | Readonly<Record<string, string>>>>;

/** The classes of requests whose outcome changes the same way. */
export interface OutcomeChange {
  risk: BehaviourRisk;
  before: Outcome;
  after: Outcome;
  classes: RequestClass[];
}

/** The exhaustive behaviour diff of one app: every class of requests the plan decides differently. */
export interface AppBehaviourDiff {
  app: string;
  /** Risk first. */
  changes: OutcomeChange[];
  /** Parts the diff did not decide exactly (a pattern, the time budget), naming the rules. */
  unchecked: { reason: string; rules: string[] }[];
}
