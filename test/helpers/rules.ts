// Rules for tests, in normal form (docs/design.md, "One rule semantics"). Past its boundary
// every rule is a NormalRule, which only the normalisers of src/semantics/normalise.ts make;
// tests write rules as object literals and turn them into rules here, through those same
// normalisers, never by a cast. A literal that is already in normal form comes back equal
// to itself (the normalisers only fill in what is missing).
import type { DeclaredRule, LiveRule, NormalRule, SourceLocation } from '../../src/semantics/model.js';
import { normaliseLiveRule, normaliseRule, type LooseRule } from '../../src/semantics/normalise.js';
import type { WrittenRule } from '../../src/semantics/written.js';
import type { Mutant } from '../../src/tests/mutants.js';

/** Where a test's declared rule says it was written, unless the test says otherwise. */
export const TEST_SOURCE: SourceLocation = { file: 'rules/test.yaml', line: 1, col: 1 };

/** A rule as a rule file would declare it, in normal form (the analysis, evaluator, mutants take these). */
export function normal(rule: WrittenRule): NormalRule {
  return normaliseRule(rule);
}

/** A declared rule: the rule-file normaliser's rule, with where it is written and its shadow, if any. */
export function declared(rule: WrittenRule & { source?: SourceLocation; shadow?: DeclaredRule['shadow'] }): DeclaredRule {
  const { source = TEST_SOURCE, shadow, ...written } = rule;
  return { ...normaliseRule(written), source, ...(shadow === undefined ? {} : { shadow }) };
}

/** A live rule as the service would list it at `priority` (the rule's own, else 0). */
export function live(rule: LooseRule & { ruleId: string }, priority: number = rule.priority ?? 0): LiveRule {
  return normaliseLiveRule(rule, `rule ${rule.ruleId}`, rule.ruleId, priority);
}

/** The app's rules with the mutant applied, all at once: the reference the mutation runner's verdicts are checked against. */
export function applyMutant(rules: readonly NormalRule[], mutant: Mutant): NormalRule[] {
  const out = [...rules];
  if (mutant.swapWith !== undefined) {
    out[mutant.index] = rules[mutant.swapWith] as NormalRule;
    out[mutant.swapWith] = rules[mutant.index] as NormalRule;
  } else if (mutant.replacement !== undefined) {
    out[mutant.index] = mutant.replacement;
  }
  return out;
}
