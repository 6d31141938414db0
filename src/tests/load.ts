// Reads the test files of `botrules test`: every *.yaml/*.yml below the tests directory, in
// path order, each checked against schemas/tests.schema.json (validator compiled at build
// time) and then for what a schema cannot say (unique names, addresses). Every problem is
// located as FILE:LINE:COL, like a rule file's.
import { isIP } from 'node:net';
import { dirname, resolve } from 'node:path';
import { stat } from 'node:fs/promises';
import { UserError, sortProblems, type Problem } from '../errors.js';
import type { TestRequest } from '../evaluate/request.js';
import { validateTests } from '../generated/validators.js';
import type { Action, SourceLocation } from '../semantics/model.js';
import { displayPath } from '../rules/display-path.js';
import { listRuleFiles, readYamlFiles } from '../rules/load.js';
import { repeats } from '../rules/checks/unique.js';
import { placement } from '../io/project-path.js';
import type { Path, YamlSource } from '../io/yaml-source.js';
import { definedFields } from '../defined.js';
import { isObject } from '../io/json-depth.js';
import { describePath } from '../io/schema-messages.js';

/** What a test file writes for "no rule decides this request". */
export const NO_RULE_WORD = 'none';

export interface RuleTest {
  name: string;
  /** The app whose rules decide; absent when the test file does not say. */
  app?: string;
  request: TestRequest;
  expect: { rule: string; actions?: Action[] };
  /** Where the test (its list item) starts. */
  source: SourceLocation;
}

interface LoadedTests {
  tests: RuleTest[];
  problems: Problem[];
  files: string[];
}

/** A test as its file writes it: the schema checked its shape. */
type WrittenTest = Omit<RuleTest, 'source'>;

/** `tests` in the project directory: beside the config file, else the working directory. */
export function defaultTestsDir(configFile: string | undefined, cwd: string): string {
  return configFile === undefined ? 'tests' : resolve(cwd, dirname(configFile), 'tests');
}

export async function loadTests(dir: string, options: { cwd: string }): Promise<LoadedTests> {
  const absDir = resolve(options.cwd, dir);
  const shownDir = displayPath(options.cwd, absDir);
  const isDirectory = await stat(absDir).then((s) => s.isDirectory(), () => undefined);
  if (isDirectory === undefined) {
    throw new UserError(`tests directory "${shownDir}" does not exist`, ['Create it with test files (see docs/evaluation.md), or name another with --tests DIR.']);
  }
  if (!isDirectory) throw new UserError(`"${shownDir}" is not a directory; --tests names the directory that holds the test files`);
  // The directory itself outside the project: say so once, rather than blame each file in it.
  if (placement(absDir, options.cwd) !== 'inside') {
    throw new UserError(`the tests directory "${shownDir}" is outside the project directory; botrules reads test files only inside the directory it runs in`, [
      'Move the tests into the project (the default is tests/ beside botrules.yaml), or run botrules from a directory that holds both.',
    ]);
  }
  const files = await listRuleFiles(absDir, options.cwd);
  if (files.length === 0) throw new UserError(`no test files (*.yaml, *.yml) in "${shownDir}"`);
  const tests: RuleTest[] = [];
  const read = await readYamlFiles(files, options.cwd, { validate: validateTests, messages: { describe } }, (source, shown) => {
    // Each test the schema accepted is checked further, so one run reports every problem.
    const written = isObject(source.value) && Array.isArray(source.value.tests) ? (source.value.tests as WrittenTest[]) : [];
    return written.flatMap((test, index) => {
      if (!source.isSchemaValid(['tests', index])) return [];
      const found = addressProblems(test, index, source);
      if (found.length === 0) tests.push(toTest(test, { file: shown, ...source.locate(['tests', index]) }));
      return found;
    });
  });
  return { tests, problems: sortProblems([...read.problems, ...uniqueNames(tests)]), files: read.files };
}

function describe(path: Path): string {
  return path.length === 2 && path[0] === 'tests' ? 'test' : describePath(path, { actions: 'action' });
}

function addressProblems(test: WrittenTest, index: number, source: YamlSource): Problem[] {
  const ip = test.request.ip;
  if (ip === undefined || isIP(ip) !== 0) return [];
  return [source.problemAt(['tests', index, 'request', 'ip'], `ip ${JSON.stringify(ip)} is not an IPv4 or IPv6 address`)];
}

function uniqueNames(tests: readonly RuleTest[]): Problem[] {
  return repeats(tests, (test) => test.name).map(([test, earlier]) => {
    const where = earlier.source.file === test.source.file ? `line ${earlier.source.line}` : `${earlier.source.file}:${earlier.source.line}`;
    return { ...test.source, message: `duplicate test name ${JSON.stringify(test.name)} (also at ${where})` };
  });
}

function toTest(written: WrittenTest, source: SourceLocation): RuleTest {
  return {
    name: written.name,
    ...definedFields({ app: written.app }),
    request: written.request,
    expect: { rule: written.expect.rule, ...definedFields({ actions: written.expect.actions && [...written.expect.actions] }) },
    source,
  };
}
