// `botrules test [--tests DIR] [--live FILE] [--format text|junit|sarif] [--ignore-case]`: every
// test request evaluated against the declared rules (or a live snapshot) under the semantics
// the tool assumes (docs/evaluation.md); exit 0 when every expectation holds, 1 otherwise.
// `--coverage` and `--mutate` measure the tests themselves (src/cli/test-quality.ts).
import type { Argv } from 'yargs';
import { ValidationError } from '../../errors.js';
import { loadRuleTests, runRuleTests, type TestResult } from '../../engine/rule-tests.js';
import { renderTestText, summary } from '../../render/tests/text.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { renderSarif } from '../../render/sarif/index.js';
import { testSarif } from '../../render/sarif/models.js';
import { UsageError, wholeNumber } from '../options.js';
import { failUnder, percentage, reportTestQuality } from '../test-quality.js';

export const TEST_FORMATS = ['text', 'junit', 'sarif', 'json', 'markdown'] as const;

export function builder(yargs: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return yargs
    .usage('$0 test [--tests DIR] [--live FILE] [--format text|junit|sarif] [--coverage [--fail-under R,L]] [--mutate [--min-score S]]\n\n' +
      'Check which rule decides each test request. Assumed semantics (docs/evaluation.md): active rules in priority ' +
      'order, paused rules skipped, the first match decides; a field the request lacks matches only ' +
      '$notExists, $ne, $notIn and $notEndsWith; header names ignore case, values compare as written.')
    .option('tests', { type: 'string', describe: 'Directory of test files (default: tests, beside the config file if there is one)' })
    .option('live', { type: 'string', describe: 'Evaluate against this live snapshot (botrules live --out) instead of the rule files' })
    .option('format', { type: 'string', choices: TEST_FORMATS, default: 'text', describe: 'How to print the results (junit: JUnit XML; sarif: SARIF 2.1.0 for code scanning)' })
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
    .example('$0 test --coverage --mutate --changed-since origin/main', 'how well the tests cover and guard the rules a branch changed') as unknown as Argv<GlobalArgs>;
}

export async function run(args: GlobalArgs & Record<string, unknown>, ctx: CommandContext): Promise<number> {
  const request = {
    ...args,
    ...(typeof args.tests === 'string' ? { testsDir: args.tests } : {}),
    ...(typeof args.live === 'string' ? { liveFile: args.live } : {}),
    ignoreCase: args.ignoreCase === true,
  };
  const quality = qualityArgs(args);
  const suite = await loadRuleTests(request, ctx);
  if (suite.problems.length > 0) {
    if (args.format === 'sarif') renderSarif(testSarif(suite.problems, []), ctx.io.stdout);
    throw new ValidationError(suite.problems);
  }
  const run = await runRuleTests(suite, request, ctx);
  if (quality !== undefined) {
    if (ctx.env('GITHUB_ACTIONS') === 'true') annotate(run.results, ctx);
    return reportTestQuality(quality, suite, run, ctx);
  }
  const { results, apps, against } = run;
  if (args.format === 'sarif') {
    renderSarif(testSarif([], results), ctx.io.stdout);
    ctx.io.stderr.write(`${summary(results)}\n`);
  } else if (args.format === 'junit') {
    const { renderTestJunit } = await import('../../render/tests/junit.js');
    renderTestJunit(results, ctx.io.stdout);
    ctx.io.stderr.write(`${summary(results)}\n`);
  } else {
    renderTestText(results, ctx.io.stdout, { colors: ctx.colors, showApps: apps.length > 1, against });
  }
  annotate(results, ctx);
  return results.every((result) => result.passed) ? 0 : 1;
}

/** A failed test as an annotation on its line in the pull request. */
function annotate(results: readonly TestResult[], ctx: CommandContext): void {
  ctx.annotations.write(results.filter((result) => !result.passed).map((result) => ({
    level: 'error', ...result.test.source, message: `test ${JSON.stringify(result.test.name)} failed: ${result.reasons.join('; ')}`,
  })));
}

/** The --coverage / --mutate options, or undefined when neither is asked for. */
function qualityArgs(args: Record<string, unknown>): Parameters<typeof reportTestQuality>[0] | undefined {
  const coverage = args.coverage === true || args.failUnder !== undefined;
  const mutate = args.mutate === true || args.minScore !== undefined;
  const format = args.format as (typeof TEST_FORMATS)[number];
  if (!coverage && !mutate) {
    if (format === 'json' || format === 'markdown') throw new UsageError(`--format ${format} is for --coverage and --mutate; plain test results are text, junit or sarif`);
    const lone = ['rules', 'changedSince', 'maxMutants', 'mutateTimeout'].find((name) => args[name] !== undefined);
    if (lone !== undefined) throw new UsageError(`--${lone.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} is for --coverage and --mutate`);
    return undefined;
  }
  if (typeof args.live === 'string') throw new UsageError('--coverage and --mutate measure the rule files; they cannot be combined with --live');
  const request = {
    ignoreCase: args.ignoreCase === true,
    ...(Array.isArray(args.rules) ? { rules: args.rules.map(String) } : {}),
    ...(typeof args.changedSince === 'string' ? { changedSince: args.changedSince } : {}),
    ...(typeof args.maxMutants === 'number' ? { maxMutants: args.maxMutants } : {}),
    ...(typeof args.mutateTimeout === 'number' ? { mutateTimeout: args.mutateTimeout } : {}),
  };
  return {
    coverage, mutate, format, request,
    ...(args.failUnder === undefined ? {} : { failUnder: args.failUnder as { rules?: number; leaves?: number } }),
    ...(typeof args.minScore === 'number' ? { minScore: args.minScore } : {}),
  };
}
