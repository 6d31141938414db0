// Runs tests against rule sets: pure, no I/O. Each result says whether the expected rule
// decided and, when not, why in sentences a reviewer can act on: which rule decided instead
// and which leaves of the expected rule did not match the request. The rules are compiled once
// and every test is decided and explained by the one rule engine (docs/design.md, "One rule engine").
import { describeField, describeLeaf } from '../evaluate/describe.js';
import { fieldOf } from '../evaluate/request.js';
import { MATCH_BUDGET_MS } from '../evaluate/pattern.js';
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
  /** Why it failed, one sentence each; empty when passed. */
  reasons: string[];
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
  const reasons: string[] = [];
  if (decision.undecided !== undefined) {
    const { rule, index } = decision.undecided;
    reasons.push(`the outcome is unknown: ${undecidedRuleSentence(rule, undecidedPatterns(engine.verdicts, engine.program, engine.set, index))}`);
  } else if (decidedBy !== expected) {
    reasons.push(`expected ${ruleText(expected)}, but ${decidedBy === undefined ? 'no rule matched' : `${ruleText(decidedBy)} decided (${decision.actions.join(', ')})`}`);
    if (decision.rule !== undefined && expected === undefined) reasons.push(...whyDecided(decision.index, test, engine));
    if (expected !== undefined) reasons.push(...whyNot(expected, decidedBy, test, engine));
  } else if (test.expect.actions !== undefined && !sameSet(test.expect.actions, decision.actions)) {
    reasons.push(`${ruleText(decidedBy)} decided, but its actions are [${decision.actions.join(', ')}], not [${test.expect.actions.join(', ')}]`);
  }
  return { test, app, passed: reasons.length === 0, decidedBy, actions: decision.actions, reasons };
}

/** Why the rule at `position`, which the test did not expect, decided: the conditions of it that matched. */
function whyDecided(position: number, test: RuleTest, { program, set, verdicts }: Engine): string[] {
  const name = (set.rules[position] as NormalRule).name;
  return matchedLeaves(verdicts, program, set, position).map((hit) => `${ruleText(name)} matches at ${leafPlace(hit)}: ${describeLeaf(hit.condition)} (${requestHas(test, hit.condition)})`);
}

/** Why the expected rule did not decide. */
function whyNot(expected: string, decidedBy: string | undefined, test: RuleTest, { program, set, verdicts }: Engine): string[] {
  const position = set.rules.findIndex((candidate) => candidate.name === expected);
  const rule = set.rules[position];
  if (rule === undefined) return [`there is no rule named ${JSON.stringify(expected)}`];
  if (rule.status === 'paused') return [`${ruleText(expected)} is paused`];
  const missed = missedLeaves(verdicts, program, set, position);
  if (missed.length === 0) return [`${ruleText(expected)} matches too, but ${ruleText(decidedBy)} comes first`];
  return missed.map((miss) => `${ruleText(expected)} does not match at ${leafPlace(miss)}: ${describeLeaf(miss.condition)} (${requestHas(test, miss.condition)})`);
}

/**
 * Why a rule's match is undecided, naming the rule, the patterns and the values (program-reasons.ts, undecidedPatterns): a test that
 * cannot be decided fails rather than passing on a guess (docs/evaluation.md, "Regular expressions").
 */
export function undecidedRuleSentence(rule: NormalRule, undecided: readonly UndecidedPattern[]): string {
  const patterns = undecided.map(({ leaf, pattern, value }) =>
    `${describeField(leaf)} $re ${JSON.stringify(pattern)} on ${JSON.stringify(shortened(value))}`);
  return `rule ${ruleText(rule.name)} could not be decided: ${patterns.join(', ')} ran out of its time budget (${MATCH_BUDGET_MS / 1000} s a match) on the backtracking engine the pattern needs`;
}

/** A long value in a message: its first 40 characters and how long it is. */
function shortened(value: string): string {
  return value.length <= 48 ? value : `${value.slice(0, 40)}… (${value.length} characters)`;
}

function leafPlace(miss: MissedLeaf): string {
  return `group ${miss.group + 1}, condition ${miss.leaf + 1}`;
}

function requestHas(test: RuleTest, leaf: Leaf): string {
  const value = fieldOf(test.request, leaf);
  const field = describeField(leaf);
  return value === undefined ? `the request has no ${field}` : `the request's ${field} is ${JSON.stringify(value)}`;
}

function ruleText(name: string | undefined): string {
  return name === undefined ? 'no rule' : JSON.stringify(name);
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item) => b.includes(item));
}
