// The `--coverage` and `--mutate` part of `botrules test` (docs/evaluation.md, "Coverage",
// "Mutation testing"): the option readers, the progress bar on a terminal, and the output in
// the chosen format. Exit 1 when a test fails, coverage is below --fail-under or the mutation
// score below --min-score.
import { coverageOf, coverageShortfalls, mutationOf, qualityScope, scoreShortfalls, type QualityRequest } from '../engine/test-quality.js';
import type { RuleTestRun, RuleTestSuite } from '../engine/rule-tests.js';
import { QUALITY_OUTPUTS, type CoverageView, type MutationView, type QualityFormat } from '../render/expectations/quality.js';
import type { CommandContext } from './context.js';
import { UsageError } from './options.js';
import { writeReport } from './output.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { mutantsText } from '../render/progress.js';
import { progressBar } from './progress-line.js';

export interface QualityArgs {
  coverage: boolean;
  mutate: boolean;
  failUnder?: { rules?: number; leaves?: number };
  minScore?: number;
  request: QualityRequest;
  format: QualityFormat;
}

/** `--fail-under RULES[,LEAVES]`: percentages from 0 to 100. */
export function failUnder(value: unknown): { rules?: number; leaves?: number } {
  const text = String(Array.isArray(value) ? value.at(-1) : value);
  const parts = text.split(',').map((part) => part.trim());
  const numbers = parts.map((part) => (/^\d+(\.\d+)?$/.test(part) ? Number(part) : NaN));
  if (parts.length > 2 || numbers.some((n) => Number.isNaN(n) || n > 100)) {
    throw new UsageError(`--fail-under takes RULES or RULES,LEAVES, percentages from 0 to 100 (e.g. --fail-under 100,80), not ${JSON.stringify(text)}`);
  }
  return { ...(parts[0] === '' ? {} : { rules: numbers[0] }), ...(numbers[1] === undefined ? {} : { leaves: numbers[1] }) };
}

/** A percentage from 0 to 100 (`--min-score`). */
export function percentage(flag: string): (value: unknown) => number {
  return (value) => {
    const n = Number(Array.isArray(value) ? value.at(-1) : value);
    if (!Number.isFinite(n) || n < 0 || n > 100) throw new UsageError(`${flag} must be a percentage from 0 to 100, not ${JSON.stringify(String(value))}`);
    return n;
  };
}

export async function reportTestQuality(args: QualityArgs, suite: RuleTestSuite, run: RuleTestRun, ctx: CommandContext): Promise<ExitCode> {
  const scope = await qualityScope(suite, run, args.request, ctx);
  const failed = run.results.filter((result) => !result.passed).length;
  let coverage: CoverageView | undefined;
  if (args.coverage) {
    const measured = coverageOf(scope, args.request);
    coverage = { ...measured, shortfalls: coverageShortfalls(measured.report, args.failUnder ?? {}) };
  }
  let mutation: MutationView | undefined;
  if (args.mutate && failed > 0) {
    mutation = { skipped: `${failed} of ${run.results.length} tests fail; mutation testing needs a suite that passes`, shortfalls: [] };
  } else if (args.mutate) {
    // Redrawn when the bar would change, not for each of thousands of mutants.
    const bar = progressBar(ctx, (done: number, total: number) => (done % Math.max(1, Math.floor(total / 100)) === 0 || done === total ? mutantsText(done, total) : undefined));
    try {
      const report = mutationOf(scope, args.request, bar?.update);
      mutation = { report, shortfalls: scoreShortfalls(report, args.minScore) };
    } finally {
      bar?.stop();
    }
  }
  const view = { results: run.results, showApps: run.apps.length > 1, against: run.against, ...(coverage === undefined ? {} : { coverage }), ...(mutation === undefined ? {} : { mutation }) };
  await writeReport(QUALITY_OUTPUTS[args.format], view, ctx);
  const shortfalls = [...(coverage?.shortfalls ?? []), ...(mutation?.shortfalls ?? [])];
  return failed > 0 || shortfalls.length > 0 ? EXIT.failed : EXIT.ok;
}
