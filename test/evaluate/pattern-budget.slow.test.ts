// A pattern only JavaScript's backtracking engine can run (a lookahead not at the start of the
// text) has a time budget per text, not per pattern (docs/evaluation.md, "Regular expressions"):
// a replay runs it on millions of requests, and none must become undecided because the texts
// before it, each decided well within the budget, added up. Here about 100 texts of some 50 ms
// each (the lookahead backtracks from every position: 20 `a`s cost what 21 would from the first
// alone): several seconds in all, more than a budget shared by the pattern's texts would have allowed.
import { compilePattern, MATCH_BUDGET_MS } from '../../src/evaluate/pattern.js';

it('decides every text of a long run, each within its own budget', () => {
  const pattern = compilePattern('(?=(a+)+$)', false);
  expect(pattern.engine).toBe('v8');
  const started = performance.now();
  const verdicts = new Set<unknown>();
  let texts = 0;
  // Distinct texts (no answer is remembered), until the run is well past four budgets.
  while (performance.now() - started < 5 * MATCH_BUDGET_MS) {
    verdicts.add(pattern.test(`${'a'.repeat(20)}!${texts}`));
    texts += 1;
  }
  expect(texts).toBeGreaterThan(5);
  expect([...verdicts]).toEqual([false]);
  // A text without the '!' matches: decided true, as RegExp.test says.
  expect(pattern.test('a'.repeat(20))).toBe(true);
}, 60_000);

it('stops running a pattern after it was interrupted three times: a log of hostile texts costs seconds, not a second each', () => {
  const pattern = compilePattern('(?=(a+)+$)b', false);
  expect(pattern.engine).toBe('v8');
  const started = performance.now();
  // Distinct hostile texts: each would run past the budget on its own.
  const verdicts = Array.from({ length: 20 }, (_, i) => pattern.test(`${'a'.repeat(40 + i)}!`));
  const elapsed = performance.now() - started;
  expect(verdicts).toEqual(Array.from({ length: 20 }, () => 'undecided'));
  // Three interrupted runs, then none: well under the twenty budgets the texts would have taken.
  expect(elapsed).toBeLessThan(10 * MATCH_BUDGET_MS);
  expect(elapsed).toBeGreaterThanOrEqual(3 * MATCH_BUDGET_MS * 0.9);
}, 120_000);
