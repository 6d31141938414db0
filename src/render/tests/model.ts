// What `botrules test` reports, the model of its formats: the problems of the test files (when
// there are any, nothing ran), or each test's result.
import type { Problem } from '../../errors.js';
import type { TestResult } from '../../tests/run.js';

export interface TestReport {
  problems: readonly Problem[];
  results: readonly TestResult[];
  /** Name each result's app: the tests ran for more than one. */
  showApps: boolean;
  /** What the tests ran against: the rule files, or a live snapshot. */
  against: string;
}
