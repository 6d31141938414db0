// `botrules test`'s formats by name (`test --format NAME`, the renderer contract of
// ../contract.ts): text for a terminal or a CI log; JUnit and SARIF documents on stdout with
// the summary line on stderr. Annotations under GitHub Actions are ./github.ts's; the formats
// of --coverage and --mutate are ./quality.ts's.
import type { OutputRegistry, Sink } from '../contract.js';
import type { TestReport } from './model.js';
import { renderTestSarif } from './sarif.js';
import { renderTestText, summary } from './text.js';

export type { TestReport } from './model.js';
export { testAnnotations } from './github.js';

/** The summary beside a document, once the tests ran (problems of the files are the error handler's). */
async function summaryLine(report: TestReport, out: Sink): Promise<void> {
  if (report.problems.length === 0) await out.write(`${summary(report.results)}\n`);
}

export const TEST_OUTPUTS = {
  text: {
    stdout: async (report, out, { colors }) => {
      if (report.problems.length === 0) await renderTestText(report.results, out, { colors, showApps: report.showApps, against: report.against });
    },
  },
  // Loaded when asked for: the XML builder is needed by no other format.
  junit: {
    stdout: async (report, out) => {
      if (report.problems.length === 0) (await import('./junit.js')).renderTestJunit(report.results, out);
    },
    stderr: summaryLine,
  },
  sarif: { stdout: renderTestSarif, stderr: summaryLine },
} as const satisfies OutputRegistry<TestReport>;

type TestFormat = keyof typeof TEST_OUTPUTS;

export function isTestFormat(name: string): name is TestFormat {
  return Object.hasOwn(TEST_OUTPUTS, name);
}
