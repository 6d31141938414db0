// `botrules test [--tests DIR] [--live FILE] [--format text|junit] [--ignore-case]`: every
// test request evaluated against the declared rules (or a live snapshot) under the semantics
// the tool assumes (docs/evaluation.md); exit 0 when every expectation holds, 1 otherwise.
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { ValidationError } from '../../errors.js';
import { readSnapshotFile } from '../../live/file.js';
import { rulesOf } from '../../live/snapshot.js';
import { inPriorityOrder } from '../../plan/fingerprint.js';
import { loadProjectConfig, type ProjectConfig } from '../../rules/config.js';
import { loadRules } from '../../rules/load.js';
import type { Rule } from '../../rules/model.js';
import { defaultTestsDir, loadTests } from '../../ruletests/load.js';
import { appOf, appProblems, runTest, type TestResult } from '../../ruletests/run.js';
import { renderTestText, summary } from '../../render/tests/text.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { githubAnnotation } from '../report-error.js';
import { safeText } from '../../render/sanitise.js';
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
  const cwd = ctx.io.cwd;
  const project = { cwd, config: args.config, dir: args.dir };
  const everyApp = await loadProjectConfig(project);
  const selected = args.app === undefined ? everyApp : await loadProjectConfig({ ...project, app: args.app });
  const testsDir = typeof args.tests === 'string' ? args.tests : defaultTestsDir(everyApp.file, cwd);
  const loaded = await loadTests(testsDir, { cwd });
  const allApps = everyApp.apps.map((app) => app.name);
  const problems = [...loaded.problems, ...appProblems(loaded.tests, allApps)];
  if (problems.length > 0) {
    if (args.format === 'sarif') renderSarif(testSarif(problems, []), ctx.io.stdout);
    throw new ValidationError(problems);
  }

  const apps = selected.apps.map((app) => app.name);
  const tests = loaded.tests.filter((test) => apps.includes(appOf(test, allApps)));
  const rulesByApp = await rulesOfApps(selected, typeof args.live === 'string' ? args.live : undefined, cwd);
  const options = { caseInsensitiveValues: args.ignoreCase === true };
  const results = tests.map((test) => {
    const app = appOf(test, allApps);
    return runTest(test, app, rulesByApp.get(app) ?? [], options);
  });

  const against = typeof args.live === 'string' ? `the live snapshot ${JSON.stringify(args.live)}` : 'the rule files';
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
  if (ctx.env('GITHUB_ACTIONS') === 'true') annotate(results, ctx);
  return results.every((result) => result.passed) ? 0 : 1;
}

/** Each selected app's rules in priority order, from the rule files or from a snapshot. */
async function rulesOfApps(config: ProjectConfig, live: string | undefined, cwd: string): Promise<Map<string, Rule[]>> {
  const byApp = new Map<string, Rule[]>();
  if (live !== undefined) {
    const snapshot = await readSnapshotFile(resolve(cwd, live), live);
    for (const app of config.apps) byApp.set(app.name, inPriorityOrder(rulesOf(snapshot, app.name, live)));
    return byApp;
  }
  for (const app of config.apps) {
    const loaded = await loadRules(app.rulesDir, { cwd });
    if (loaded.problems.length > 0) throw new ValidationError(loaded.problems);
    byApp.set(app.name, loaded.rules);
  }
  return byApp;
}

/** A failed test as an annotation on its line in the pull request. */
function annotate(results: readonly TestResult[], ctx: CommandContext): void {
  for (const result of results) {
    if (result.passed) continue;
    const { file, line, col } = result.test.source;
    ctx.io.stderr.write(`${githubAnnotation(file, line, col, safeText(`test ${JSON.stringify(result.test.name)} failed: ${result.reasons.join('; ')}`))}\n`);
  }
}
