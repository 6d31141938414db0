// The options every command that computes the exhaustive behaviour diff shares (`plan`,
// `botrules diff`), and its progress line: on a terminal, rules searched / in all on stderr,
// redrawn when the bar changes, erased before the result is printed (docs/behaviour.md,
// "Exhaustive behaviour diff").
import type { Argv } from 'yargs';
import { DEFAULT_DIFF_BUDGET_SECONDS, type DiffRun } from '../engine/diff.js';
import type { CommandContext } from './context.js';
import { wholeNumber } from './options.js';
import { behaviourDiffText } from '../render/progress.js';
import { progressBar } from './progress-line.js';

export function diffBudgetOption<T>(yargs: Argv<T>) {
  return yargs.option('diff-budget', {
    type: 'number',
    default: DEFAULT_DIFF_BUDGET_SECONDS,
    requiresArg: true,
    coerce: wholeNumber('--diff-budget', 1, 3600),
    describe: 'Seconds the behaviour diff may search; what is left is reported as unchecked',
  });
}

/** The run for the engine, and `stop` to erase the progress line (call it before printing). */
export function diffRun(args: { diffBudget: number }, ctx: CommandContext): { run: DiffRun; stop(): void } {
  const budgetSeconds = args.diffBudget;
  const bar = progressBar(ctx, behaviourDiffText);
  if (bar === undefined) return { run: { budgetSeconds }, stop: () => undefined };
  return { run: { budgetSeconds, onProgress: bar.update }, stop: bar.stop };
}
