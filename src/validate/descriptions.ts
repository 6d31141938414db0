// What each rule-set analysis check reports, in one sentence: shown by code scanning beside
// every finding of the check (SARIF rule metadata) and kept in step with docs/evaluation.md,
// "Rule-set analysis".
import type { CheckId } from './checks.js';

export const CHECK_DESCRIPTIONS: Readonly<Record<CheckId, string>> = {
  'shadowed-rule': 'An active rule that can never decide: an earlier active rule matches every request it matches.',
  'duplicate-conditions': 'Two rules with equal condition trees.',
  'unsatisfiable-group': 'A condition group whose leaves contradict each other, so it matches no request.',
  'catch-all': 'A group that every request matches, which makes every later rule unreachable.',
  'empty-group': 'A condition group (or a rule) with no conditions: an empty $and matches every request, an empty $or none.',
  'allow-before-block': 'An allow rule that decides part of the traffic a later blocking rule would block (information).',
  'redos-pattern': 'A regular expression that can take exponential time on a backtracking engine (the service evaluates JavaScript regular expressions), found by a ReDoS checker.',
};
