// Runs tests against rule sets: pure, no I/O. Each result says whether the expected rule
// decided and, when not, why, as data a reviewer can act on once src/render/tests/reasons.ts
// words it: which rule decided instead and which leaves of the expected rule did not match the
// request. The rules are compiled once
// and every test is decided and explained by the one rule engine (docs/design.md, "One rule engine").
import { fieldOf } from '../evaluate/request.js';
import type { EvaluationOptions } from '../evaluate/leaf.js';
import { matchedLeaves, missedLeaves, undecidedPatterns, type MissedLeaf, type UndecidedPattern } from '../evaluate/program-reasons.js';
import { ProgramVerdicts } from '../evaluate/program-verdicts.js';
import { compileProgram, type ProgramSet, type RuleProgram } from '../semantics/program.js';
import type { Problem } from '../errors.js';
import type { Action, Leaf, NormalRule } from '../semantics/model.js';
import { NO_RULE_WORD, type RuleTest } from './load.js';

export interface TestResult {
  test: RuleTest;
  /** The app whose rules were used. */
  app: string;
  passed: boolean;
  /** The deciding rule's name, or undefined when no rule matched. */
  decidedBy: string | undefined;
  actions: Action[];
  /** Why it failed; empty when passed. */
  reasons: TestReason[];
}

/** Why a test failed, one reason each (src/render/tests/reasons.ts says them). */
export type TestReason =
  | { kind: 'undecided'; undecided: UndecidedRule }
  /** Another rule (or none) decided than the one expected. */
  | { kind: 'decided'; expected: string | undefined; decidedBy: string | undefined; actions: readonly Action[] }
  /** A condition of `rule` that matched (it decided unexpectedly) or did not (it was expected). */
  | { kind: 'leaf'; rule: string; matches: boolean; group: number; leaf: number; condition: Leaf; value: string | undefined }
  | { kind: 'no-such-rule'; rule: string }
  | { kind: 'paused'; rule: string }
  /** The expected rule matches too, but `decidedBy` comes first. */
  | { kind: 'comes-later'; rule: string; decidedBy: string | undefined }
  | { kind: 'actions'; rule: string | undefined; actions: readonly Action[]; expected: readonly Action[] };

/** A rule whose match is undecided for a test request: the patterns that ran out of their time budget, and on what. */
export interface UndecidedRule {
  rule: string;
  patterns: readonly UndecidedPattern[];
}

/** Tests naming an app the project does not have, or none when the project has several. */
export function appProblems(tests: readonly RuleTest[], allApps: readonly string[]): Problem[] {
  return tests.flatMap((test) => {
    if (test.app === undefined && allApps.length > 1) {
      return [{ ...test.source, message: `test ${JSON.stringify(test.name)} must say which app's rules decide it (app: one of ${allApps.join(', ')})` }];
    }
    if (test.app !== undefined && !allApps.includes(test.app)) {
      return [{ ...test.source, message: `test ${JSON.stringify(test.name)} names app ${JSON.stringify(test.app)}, which the project does not have (apps: ${allApps.join(', ')})` }];
    }
    return [];
  });
}

/** The app a test runs against (after appProblems found nothing). */
export function appOf(test: RuleTest, allApps: readonly string[]): string {
  return test.app ?? allApps[0] ?? '';
}

/** The rule set a test is decided by, and its compiled program's verdicts for the request begun. */
interface Engine {
  program: RuleProgram<NormalRule>;
  set: ProgramSet<NormalRule>;
  verdicts: ProgramVerdicts;
}

/** A runner of the tests of `app`, whose `rules` (in priority order) are compiled once for all of them. */
export function testRunner(app: string, rules: readonly NormalRule[], options: EvaluationOptions = {}): (test: RuleTest) => TestResult {
  const program = compileProgram([rules]);
  const engine: Engine = { program, set: program.sets[0] as ProgramSet<NormalRule>, verdicts: new ProgramVerdicts(program, options) };
  return (test) => runTest(test, app, engine);
}

function runTest(test: RuleTest, app: string, engine: Engine): TestResult {
  engine.verdicts.begin(test.request);
  const decision = engine.verdicts.decision(engine.set);
  const decidedBy = decision.rule?.name;
  const expected = test.expect.rule === NO_RULE_WORD ? undefined : test.expect.rule;
  const reasons: TestReason[] = [];
  if (decision.undecided !== undefined) {
    const { rule, index } = decision.undecided;
    reasons.push({ kind: 'undecided', undecided: undecidedRule(rule, undecidedPatterns(engine.verdicts, engine.program, engine.set, index)) });
  } else if (decidedBy !== expected) {
    reasons.push({ kind: 'decided', expected, decidedBy, actions: decision.actions });
    if (decision.rule !== undefined && expected === undefined) reasons.push(...whyDecided(decision.index, test, engine));
    if (expected !== undefined) reasons.push(...whyNot(expected, decidedBy, test, engine));
  } else if (test.expect.actions !== undefined && !sameSet(test.expect.actions, decision.actions)) {
    reasons.push({ kind: 'actions', rule: decidedBy, actions: decision.actions, expected: test.expect.actions });
  }
  return { test, app, passed: reasons.length === 0, decidedBy, actions: decision.actions, reasons };
}

/** Why the rule at `position`, which the test did not expect, decided: the conditions of it that matched. */
function whyDecided(position: number, test: RuleTest, { program, set, verdicts }: Engine): TestReason[] {
  const rule = (set.rules[position] as NormalRule).name;
  return matchedLeaves(verdicts, program, set, position).map((hit) => leafReason(rule, true, hit, test));
}

/** Why the expected rule did not decide. */
function whyNot(expected: string, decidedBy: string | undefined, test: RuleTest, { program, set, verdicts }: Engine): TestReason[] {
  const position = set.rules.findIndex((candidate) => candidate.name === expected);
  const rule = set.rules[position];
  if (rule === undefined) return [{ kind: 'no-such-rule', rule: expected }];
  if (rule.status === 'paused') return [{ kind: 'paused', rule: expected }];
  const missed = missedLeaves(verdicts, program, set, position);
  if (missed.length === 0) return [{ kind: 'comes-later', rule: expected, decidedBy }];
  return missed.map((miss) => leafReason(expected, false, miss, test));
}

function leafReason(rule: string, matches: boolean, { group, leaf, condition }: MissedLeaf, test: RuleTest): TestReason {
  return { kind: 'leaf', rule, matches, group, leaf, condition, value: fieldOf(test.request, condition) };
}

/**
 * Why a rule's match is undecided: the rule, and the patterns that ran out of their time budget
 * on which values (program-reasons.ts, undecidedPatterns). A test that cannot be decided fails
 * rather than passing on a guess (docs/evaluation.md, "Regular expressions").
 */
export function undecidedRule(rule: NormalRule, patterns: readonly UndecidedPattern[]): UndecidedRule {
  return { rule: rule.name, patterns };
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item) => b.includes(item));
}
