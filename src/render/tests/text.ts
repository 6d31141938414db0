// `botrules test` results for a terminal or a CI log: one line per test, and for a failure its
// location and the reasons indented below it; a summary line last. Names come from test and
// rule files, so they are printed quoted (JSON string syntax escapes control characters).
import type { TestResult } from '../../ruletests/run.js';
import type { Colors, TextSink } from '../plan/types.js';

export function renderTestText(results: readonly TestResult[], out: TextSink, options: { colors: Colors; showApps: boolean; against: string }): void {
  const c = options.colors;
  out.write(`${c.dim(`Testing ${countOf(results.length, 'request')} against ${options.against}`)}\n`);
  for (const result of results) {
    const app = options.showApps ? ` (app ${JSON.stringify(result.app)})` : '';
    if (result.passed) {
      out.write(`${c.green('pass')}  ${JSON.stringify(result.test.name)}${app}\n`);
      continue;
    }
    const { file, line, col } = result.test.source;
    out.write(`${c.red('FAIL')}  ${JSON.stringify(result.test.name)}${app} at ${file}:${line}:${col}\n`);
    for (const reason of result.reasons) out.write(`      ${reason}\n`);
  }
  out.write(`${c.bold(summary(results))}\n`);
}

export function summary(results: readonly TestResult[]): string {
  const failed = results.filter((result) => !result.passed).length;
  return `${countOf(results.length, 'test')}: ${results.length - failed} passed, ${failed} failed`;
}

function countOf(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
