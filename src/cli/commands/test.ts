// `botrules test [--tests DIR] [--live FILE] [--format text|junit] [--ignore-case]`: every
// test request evaluated against the declared rules (or a live snapshot) under the semantics
// the tool assumes (docs/evaluation.md); exit 0 when every expectation holds, 1 otherwise.
import type { Argv } from 'yargs';
import { ValidationError } from '../../errors.js';
import { loadRuleTests, runRuleTests, type TestResult } from '../../engine/rule-tests.js';
import { renderTestText, summary } from '../../render/tests/text.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { renderSarif } from '../../render/sarif/index.js';
import { testSarif } from '../../render/sarif/models.js';

export const TEST_FORMATS = ['text', 'junit', 'sarif'] as const;

export function builder(yargs: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return yargs
    .usage('$0 test [--tests DIR] [--live FILE] [--format text|junit|sarif]\n\n' +
      'Check which rule decides each test request. Assumed semantics (docs/evaluation.md): active rules in priority ' +
      'order, paused rules skipped, the first match decides; a field the request lacks matches only ' +
      '$notExists, $ne, $notIn and $notEndsWith; header names ignore case, values compare as written.')
    .option('tests', { type: 'string', describe: 'Directory of test files (default: tests, beside the config file if there is one)' })
    .option('live', { type: 'string', describe: 'Evaluate against this live snapshot (botrules live --out) instead of the rule files' })
    .option('format', { type: 'string', choices: TEST_FORMATS, default: 'text', describe: 'How to print the results (junit: JUnit XML; sarif: SARIF 2.1.0 for code scanning)' })
    .option('ignore-case', { type: 'boolean', default: false, describe: 'Compare condition values ignoring case, for a service that does' })
    .example('$0 test', 'run every test in tests/ against the rule files')
    .example('$0 test --format junit > test-results.xml', 'a report for CI test viewers') as unknown as Argv<GlobalArgs>;
}

export async function run(args: GlobalArgs & Record<string, unknown>, ctx: CommandContext): Promise<number> {
  const request = {
    ...args,
    ...(typeof args.tests === 'string' ? { testsDir: args.tests } : {}),
    ...(typeof args.live === 'string' ? { liveFile: args.live } : {}),
    ignoreCase: args.ignoreCase === true,
  };
  const suite = await loadRuleTests(request, ctx);
  if (suite.problems.length > 0) {
    if (args.format === 'sarif') renderSarif(testSarif(suite.problems, []), ctx.io.stdout);
    throw new ValidationError(suite.problems);
  }
  const { results, apps, against } = await runRuleTests(suite, request, ctx);
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
