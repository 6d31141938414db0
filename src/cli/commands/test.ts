// `botrules test [--tests DIR] [--live FILE] [--format text|junit|sarif] [--ignore-case]`: every
// test request evaluated against the declared rules (or a live snapshot) under the semantics
// the tool assumes (docs/evaluation.md); exit 0 when every expectation holds, 1 otherwise.
// `--coverage` and `--mutate` measure the tests themselves (src/engine/test-quality.ts). The
// lines and documents are src/render/tests/'s.
import { ValidationError } from '../../errors.js';
import { loadRuleTests, runRuleTests } from '../../engine/rule-tests.js';
import { TEST_OUTPUTS, isTestFormat, testAnnotations } from '../../render/tests/index.js';
import type { Argv } from 'yargs';
import type { GlobalArgs } from '../context.js';
import { defineCommand, type ArgsOf } from '../define-command.js';
import { failUnder, NOW_OPTION, percentage, UsageError, wholeNumber } from '../options.js';
import { writeReport } from '../output.js';
import { EXIT } from '../../exit-codes.js';
import { measureTestQuality, type QualityMeasure } from '../../engine/test-quality.js';
import { QUALITY_OUTPUTS } from '../../render/tests/quality.js';
import { mutantsText } from '../../render/progress.js';
import { progressBar } from '../progress-line.js';
import { definedFields } from '../../defined.js';

const TEST_FORMATS = ['text', 'junit', 'sarif', 'json', 'markdown'] as const;

function options(yargs: Argv<GlobalArgs>) {
  return yargs
    .usage('$0 test [--tests DIR] [--live FILE] [--format text|junit|sarif] [--coverage [--fail-under R,L]] [--mutate [--min-score S]]\n\n' +
      'Check which rule decides each test request. Assumed semantics (docs/evaluation.md): active rules in priority ' +
      'order, paused rules skipped, the first match decides; a field the request lacks matches only ' +
      '$notExists, $ne, $notIn and $notEndsWith; header names ignore case, values compare as written.')
    .option('now', NOW_OPTION)
    .option('tests', { type: 'string', describe: 'Directory of test files (default: tests, beside the config file if there is one); --dir is the rules directory, as for every command' })
    .option('live', { type: 'string', describe: 'Evaluate against this live snapshot (botrules live --out) instead of the rule files' })
    .option('format', { choices: TEST_FORMATS, default: 'text' as const, describe: 'How to print the results (junit: JUnit XML; sarif: SARIF 2.1.0 for code scanning)' })
    .option('ignore-case', { type: 'boolean', default: false, describe: 'Compare condition values ignoring case, for a service that does' })
    .option('coverage', { type: 'boolean', default: false, describe: 'Report decision coverage: rules that decided a test request, leaves and groups seen true and false, outcomes (docs/evaluation.md, "Coverage")' })
    .option('fail-under', { type: 'string', coerce: failUnder, describe: 'With --coverage: exit 1 when rule (and leaf) coverage is below these percentages, e.g. 100,80' })
    .option('mutate', { type: 'boolean', default: false, describe: 'Mutation testing: change each rule slightly and report the changes no test notices (docs/evaluation.md, "Mutation testing")' })
    .option('min-score', { type: 'number', coerce: percentage('--min-score'), describe: 'With --mutate: exit 1 when the mutation score is below this percentage' })
    .option('max-mutants', { type: 'number', coerce: wholeNumber('--max-mutants', 1), describe: 'With --mutate: run at most this many mutants (the rest are reported as not run)' })
    .option('mutate-timeout', { type: 'number', coerce: wholeNumber('--mutate-timeout', 1), describe: 'With --mutate: start no mutant after this many seconds (the rest are reported as not run)' })
    .option('rules', { type: 'string', array: true, requiresArg: true, describe: 'With --coverage/--mutate: only these rules (by name; repeat the option)' })
    .option('changed-since', { type: 'string', requiresArg: true, describe: 'With --coverage/--mutate: only the rules whose normal form differs from the rule files at this git revision' })
    .example('$0 test', 'run every test in tests/ against the rule files')
    .example('$0 test --format junit > test-results.xml', 'a report for CI test viewers')
    .example('$0 test --coverage --mutate --changed-since origin/main', 'how well the tests cover and guard the rules a branch changed');
}

type TestArgs = ArgsOf<typeof options>;

export const { builder, run } = defineCommand({
  builder: options,
  async run(args, ctx) {
    const request = {
      ...args,
      ...definedFields({ testsDir: args.tests, liveFile: args.live }),
      ignoreCase: args.ignoreCase,
    };
    const quality = qualityArgs(args);
    const suite = await loadRuleTests(request, ctx);
    if (suite.problems.length > 0) {
      // Only SARIF lists the problems of the test files; every other format leaves them to the error handler.
      if (isTestFormat(args.format)) await writeReport(TEST_OUTPUTS[args.format], { problems: suite.problems, results: [], showApps: false, against: '' }, ctx);
      throw new ValidationError(suite.problems);
    }
    const run = await runRuleTests(suite, request, ctx);
    if (quality !== undefined) {
      ctx.annotations.write(testAnnotations(run.results));
      // Redrawn when the bar would change, not for each of thousands of mutants.
      const bar = progressBar(ctx, (done: number, total: number) => (done % Math.max(1, Math.floor(total / 100)) === 0 || done === total ? mutantsText(done, total) : undefined));
      const view = await measureTestQuality(quality, suite, run, ctx, bar?.update).finally(() => bar?.stop());
      await writeReport(QUALITY_OUTPUTS[args.format], view, ctx);
      const shortfalls = [...(view.coverage?.shortfalls ?? []), ...(view.mutation?.shortfalls ?? [])];
      return run.results.some((result) => !result.passed) || shortfalls.length > 0 ? EXIT.failed : EXIT.ok;
    }
    const format = isTestFormat(args.format) ? args.format : 'text';
    await writeReport(TEST_OUTPUTS[format], { problems: [], results: run.results, showApps: run.apps.length > 1, against: run.against }, ctx);
    ctx.annotations.write(testAnnotations(run.results));
    return run.results.every((result) => result.passed) ? EXIT.ok : EXIT.failed;
  },
});

/** The --coverage / --mutate options, or undefined when neither is asked for. */
function qualityArgs(args: TestArgs): QualityMeasure | undefined {
  const coverage = args.coverage || args.failUnder !== undefined;
  const mutate = args.mutate || args.minScore !== undefined;
  const { format } = args;
  if (!coverage && !mutate) {
    if (format === 'json' || format === 'markdown') throw new UsageError(`--format ${format} is for --coverage and --mutate; plain test results are text, junit or sarif`);
    const lone = ([['--rules', args.rules], ['--changed-since', args.changedSince], ['--max-mutants', args.maxMutants], ['--mutate-timeout', args.mutateTimeout]] as const)
      .find(([, value]) => value !== undefined);
    if (lone !== undefined) throw new UsageError(`${lone[0]} is for --coverage and --mutate`);
    return undefined;
  }
  if (args.live !== undefined) throw new UsageError('--coverage and --mutate measure the rule files; they cannot be combined with --live');
  const request = {
    ignoreCase: args.ignoreCase,
    ...definedFields({ rules: args.rules?.map(String), changedSince: args.changedSince, maxMutants: args.maxMutants, mutateTimeout: args.mutateTimeout }),
  };
  return {
    coverage, mutate, request,
    ...definedFields({ failUnder: args.failUnder, minScore: args.minScore }),
  };
}
