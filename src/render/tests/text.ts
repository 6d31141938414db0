// `botrules test` results for a terminal or a CI log: one line per test, and for a failure its
// location and the reasons indented below it; a summary line last. Names come from test and
// rule files (untrusted): quoted, and every line passes through the sanitiser.
import type { TestResult } from '../../tests/run.js';
import type { Colors, Sink } from '../contract.js';
import { safeText } from '../sanitise.js';
import { plural } from '../../plural.js';
import { testReasonWords } from './reasons.js';

export function renderTestText(results: readonly TestResult[], out: Sink, options: { colors: Colors; showApps: boolean; against: string }): void {
  const c = options.colors;
  out.write(`${c.dim(`Testing ${plural(results.length, 'request')} against ${safeText(options.against)}`)}\n`);
  for (const result of results) {
    const app = options.showApps ? ` (app ${safeText(JSON.stringify(result.app))})` : '';
    const name = safeText(JSON.stringify(result.test.name));
    if (result.passed) {
      out.write(`${c.green('pass')}  ${name}${app}\n`);
      continue;
    }
    const { file, line, col } = result.test.source;
    out.write(`${c.red('FAIL')}  ${name}${app} at ${safeText(file)}:${line}:${col}\n`);
    for (const reason of result.reasons) out.write(`      ${safeText(testReasonWords(reason))}\n`);
  }
  out.write(`${c.bold(summary(results))}\n`);
}

export function summary(results: readonly TestResult[]): string {
  const failed = results.filter((result) => !result.passed).length;
  return `${plural(results.length, 'test')}: ${results.length - failed} passed, ${failed} failed`;
}

/** A failed test in one sentence, as SARIF and annotations say it. */
export function failureMessage(result: TestResult): string {
  return `test ${JSON.stringify(result.test.name)} failed: ${result.reasons.map(testReasonWords).join('; ')}`;
}
