// The model of `botrules test --coverage` / `--mutate` output, and the small pieces of text
// every format shares.
import type { CoverageReport, UncoveredItem } from '../../tests/coverage.js';
import type { MutantResult, MutationReport } from '../../tests/mutate.js';
import type { TestReport } from './model.js';

export interface CoverageView {
  report: CoverageReport;
  uncovered: readonly UncoveredItem[];
  /** Thresholds (--fail-under) not met, one sentence each. */
  shortfalls: readonly string[];
}

export interface MutationView {
  /** Absent when mutation testing did not run (`skipped` says why). */
  report?: MutationReport;
  skipped?: string;
  /** --min-score not met. */
  shortfalls: readonly string[];
}

/** The test results as `botrules test` shows them, then the figures. */
export interface QualityView extends Omit<TestReport, 'problems'> {
  coverage?: CoverageView;
  mutation?: MutationView;
}

/** `FILE:LINE:COL`, or nothing when the place is unknown. */
export function placeOf(where: { file: string; line: number; col: number } | undefined): string {
  return where === undefined ? '' : `${where.file}:${where.line}:${where.col}`;
}

/** A surviving (or other) mutant in one line: `"Rule": socketIps $in a → b survived`. */
export function mutantLine(result: MutantResult): string {
  return `${JSON.stringify(result.rule.name)}: ${result.mutant.description} ${result.status === 'not-run' ? 'not run' : result.status}`;
}

/** Why some mutants were not run, as a sentence; undefined when all ran. */
export function notRunSentence(report: MutationReport): string | undefined {
  if (report.summary.notRun === 0) return undefined;
  const why = report.stoppedBy === 'time' ? 'the time budget (--mutate-timeout) ran out' : 'the limit (--max-mutants) was reached';
  return `${report.summary.notRun} of ${report.summary.total} mutants not run: ${why}`;
}
