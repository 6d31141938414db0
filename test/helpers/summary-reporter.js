// Jest reporter (jest.config.js, after the default one): the run ends with every skipped test,
// its title carrying the reason (test/helpers/programs.ts), and one line of counts, so a skip is
// never silent. With BOTRULES_TEST_SUMMARY set to a file, it also appends the counts there as a
// JSON line, for .ci/run to add up over both tiers.
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';

const SKIPPED = new Set(['pending', 'skipped', 'todo', 'disabled']);

/** The counts of a run and the names of its skipped tests, file first. */
export function tally(results, rootDir) {
  const skipped = [];
  for (const file of results.testResults) {
    for (const test of file.testResults) {
      if (SKIPPED.has(test.status)) skipped.push(`${relative(rootDir, file.testFilePath)} › ${test.fullName}`);
    }
  }
  return {
    passed: results.numPassedTests,
    failed: results.numFailedTests,
    skipped,
    suitesNotRun: results.numRuntimeErrorTestSuites,
  };
}

/** The lines the run ends with. */
export function summaryLines({ passed, failed, skipped, suitesNotRun }) {
  const lines = [];
  if (skipped.length > 0) lines.push(`Skipped (${skipped.length}):`, ...skipped.map((name) => `  ${name}`));
  const notRun = suitesNotRun > 0 ? `, ${suitesNotRun} test file${suitesNotRun === 1 ? '' : 's'} could not run` : '';
  lines.push(`${passed} passed, ${failed} failed, ${skipped.length} skipped${notRun}`);
  return lines;
}

export default class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const counts = tally(results, this.rootDir);
    process.stderr.write(`\n${summaryLines(counts).join('\n')}\n`);
    const file = process.env.BOTRULES_TEST_SUMMARY;
    if (file) appendFileSync(file, `${JSON.stringify(counts)}\n`);
  }
}
