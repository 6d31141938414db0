// `test`: every test request evaluated against the declared rules, or against a live
// snapshot, under the semantics the tool assumes (docs/evaluation.md).
import { resolve } from 'node:path';
import { ValidationError, type Problem } from '../errors.js';
import { readLiveSnapshotFile } from '../live/file.js';
import { rulesOf } from '../live/snapshot.js';
import { inPriorityOrder } from '../plan/fingerprint.js';
import { selectApp, type ProjectConfig } from '../rules/config.js';
import { loadEveryApp } from './project.js';
import { loadRules } from '../rules/load.js';
import type { NormalRule } from '../semantics/model.js';
import { defaultTestsDir, loadTests, type RuleTest } from '../tests/load.js';
import { appOf, appProblems, testRunner, type TestResult } from '../tests/run.js';
import type { ProjectSelection, Runtime } from '../runtime.js';


interface RuleTestRequest extends ProjectSelection {
  /** The test files' directory; else tests, beside the config file if there is one. */
  testsDir?: string;
  /** A live snapshot to evaluate against instead of the rule files. */
  liveFile?: string;
  /** Compare condition values ignoring case. */
  ignoreCase: boolean;
}

/** The test files read and checked: the tests of the selected apps, or the files' problems. */
export interface RuleTestSuite {
  /** Problems of the test files; when there are any, nothing may run. */
  problems: Problem[];
  tests: RuleTest[];
  /** Every app of the config (a test names its app among these). */
  allApps: string[];
  selected: ProjectConfig;
}

export async function loadRuleTests(request: RuleTestRequest, ctx: Runtime): Promise<RuleTestSuite> {
  const { cwd } = ctx;
  const everyApp = await loadEveryApp(request, cwd);
  const selected = selectApp(everyApp, request.app);
  const loaded = await loadTests(request.testsDir ?? defaultTestsDir(everyApp.file, cwd), { cwd });
  const allApps = everyApp.apps.map((app) => app.name);
  const problems = [...loaded.problems, ...appProblems(loaded.tests, allApps)];
  const apps = selected.apps.map((app) => app.name);
  const tests = problems.length > 0 ? [] : loaded.tests.filter((test) => apps.includes(appOf(test, allApps)));
  return { problems, tests, allApps, selected };
}

export interface RuleTestRun {
  results: TestResult[];
  /** The selected apps. */
  apps: string[];
  /** What the tests ran against, for the summary: the rule files or the live snapshot. */
  against: string;
  /** Each selected app's rules in priority order (what coverage and mutation work on). */
  rules: Map<string, NormalRule[]>;
}

export async function runRuleTests(suite: RuleTestSuite, request: RuleTestRequest, ctx: Runtime): Promise<RuleTestRun> {
  const rulesByApp = await rulesOfApps(suite.selected, request.liveFile, ctx.cwd, request.now ?? Date.now());
  const options = { caseInsensitiveValues: request.ignoreCase };
  // Each app's rules compiled once, when its first test is run.
  const runners = new Map<string, (test: RuleTest) => TestResult>();
  const results = suite.tests.map((test) => {
    const app = appOf(test, suite.allApps);
    let run = runners.get(app);
    if (run === undefined) runners.set(app, (run = testRunner(app, rulesByApp.get(app) ?? [], options)));
    return run(test);
  });
  const against = request.liveFile === undefined ? 'the rule files' : `the live snapshot ${JSON.stringify(request.liveFile)}`;
  return { results, apps: suite.selected.apps.map((app) => app.name), against, rules: rulesByApp };
}

/** Each selected app's rules in priority order, from the rule files or from a snapshot. */
async function rulesOfApps(config: ProjectConfig, live: string | undefined, cwd: string, now: number): Promise<Map<string, NormalRule[]>> {
  const byApp = new Map<string, NormalRule[]>();
  if (live !== undefined) {
    const snapshot = await readLiveSnapshotFile(resolve(cwd, live), live);
    for (const app of config.apps) byApp.set(app.name, inPriorityOrder(rulesOf(snapshot, app.name, live)));
    return byApp;
  }
  for (const app of config.apps) {
    const loaded = await loadRules(app.rulesDir, { cwd, now });
    if (loaded.problems.length > 0) throw new ValidationError(loaded.problems);
    byApp.set(app.name, loaded.rules);
  }
  return byApp;
}
