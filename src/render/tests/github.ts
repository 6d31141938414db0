// test's annotations: each failed test as an error on its line in the test file.
import type { TestResult } from '../../tests/run.js';
import type { Annotation } from '../github.js';
import { failureMessage } from './text.js';

export function testAnnotations(results: readonly TestResult[]): Annotation[] {
  return results.filter((result) => !result.passed).map((result) => ({ level: 'error', ...result.test.source, message: failureMessage(result) }));
}
