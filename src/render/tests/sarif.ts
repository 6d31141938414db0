// test's SARIF (`test --format sarif`): problems of the test files, and each failed test on
// its line (docs/behaviour.md, "SARIF").
import type { Problem } from '../../errors.js';
import type { TestResult } from '../../tests/run.js';
import { INVALID_FILE, located, renderSarif, type SarifModel, type SarifRule } from '../sarif/index.js';
import type { Sink } from '../contract.js';
import type { TestReport } from './model.js';
import { failureMessage } from './text.js';

const FAILED_TEST: SarifRule = { id: 'failed-rule-test', description: 'A test request that the rules do not decide as the test expects.' };

export function testSarif(problems: readonly Problem[], results: readonly TestResult[]): SarifModel {
  return {
    rules: [INVALID_FILE, FAILED_TEST],
    results: [
      ...problems.map((p) => located(p, INVALID_FILE.id, 'error')),
      ...results.filter((result) => !result.passed).map((result) => located({ ...result.test.source, message: failureMessage(result) }, FAILED_TEST.id, 'error')),
    ],
  };
}

export function renderTestSarif(report: TestReport, out: Sink): void {
  renderSarif(testSarif(report.problems, report.results), out);
}
