// Why a rule test failed, in words (docs/design.md, "The Plan and its Review": reasons are data
// that the renderers word): the sentences of `botrules test` in every format, and the undecided
// rule a plan's behaviour diff leaves out. Names and values come from rule and test files:
// callers sanitise the words they print.
import { describeField, describeLeaf } from '../../evaluate/describe.js';
import { MATCH_BUDGET_MS } from '../../evaluate/pattern.js';
import type { UndecidedTest } from '../../tests/behaviour.js';
import type { TestReason, UndecidedRule } from '../../tests/run.js';
import { ruleName } from '../replay/describe.js';

/** One reason as the sentence a reviewer can act on. */
export function testReasonWords(reason: TestReason): string {
  switch (reason.kind) {
    case 'undecided': return `the outcome is unknown: ${undecidedRuleWords(reason.undecided)}`;
    case 'decided': {
      const instead = reason.decidedBy === undefined ? 'no rule matched' : `${ruleName(reason.decidedBy)} decided (${reason.actions.join(', ')})`;
      return `expected ${ruleName(reason.expected)}, but ${instead}`;
    }
    case 'leaf': {
      const field = describeField(reason.condition);
      const has = reason.value === undefined ? `the request has no ${field}` : `the request's ${field} is ${JSON.stringify(reason.value)}`;
      const verb = reason.matches ? 'matches' : 'does not match';
      return `${ruleName(reason.rule)} ${verb} at group ${reason.group + 1}, condition ${reason.leaf + 1}: ${describeLeaf(reason.condition)} (${has})`;
    }
    case 'no-such-rule': return `there is no rule named ${JSON.stringify(reason.rule)}`;
    case 'paused': return `${ruleName(reason.rule)} is paused`;
    case 'comes-later': return `${ruleName(reason.rule)} matches too, but ${ruleName(reason.decidedBy)} comes first`;
    case 'actions': return `${ruleName(reason.rule)} decided, but its actions are [${reason.actions.join(', ')}], not [${reason.expected.join(', ')}]`;
  }
}

/** A test the behaviour diff leaves out, naming the test, the rule and the pattern. */
export function undecidedTestWords({ test, source: { file, line, col }, under, undecided }: UndecidedTest): string {
  const rules = under === 'live' ? 'the live rules' : 'the rules as planned';
  return `test ${JSON.stringify(test)} (${file}:${line}:${col}) is left out of the behaviour diff: under ${rules}, ${undecidedRuleWords(undecided)}`;
}

/** Why a rule's match is undecided, naming the rule, the patterns and the values. */
function undecidedRuleWords({ rule, patterns }: UndecidedRule): string {
  const said = patterns.map(({ leaf, pattern, value }) => `${describeField(leaf)} $re ${JSON.stringify(pattern)} on ${JSON.stringify(shortened(value))}`);
  return `rule ${ruleName(rule)} could not be decided: ${said.join(', ')} ran out of its time budget (${MATCH_BUDGET_MS / 1000} s a match) on the backtracking engine the pattern needs`;
}

/** A long value in a message: its first 40 characters and how long it is. */
function shortened(value: string): string {
  return value.length <= 48 ? value : `${value.slice(0, 40)}… (${value.length} characters)`;
}
