// No test is skipped unnoticed (tests that need a program the machine lacks say so and are
// counted, as the contract's promise of a fresh machine asks): a suite skips only through describeUnless
// (test/helpers/programs.ts), whose title says why, and the run's summary
// (test/helpers/summary-reporter.js) lists every skipped test and counts it.
import { jest } from '@jest/globals';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join, relative } from 'node:path';
import { describeUnless, findProgram } from '../helpers/programs.js';
import { tempDir } from '../helpers/temp.js';

const ROOT = join(import.meta.dirname, '..', '..');

interface Counts { passed: number; failed: number; skipped: string[]; suitesNotRun: number }
interface TestResult { status: string; fullName: string }
interface RunResults { numPassedTests: number; numFailedTests: number; numRuntimeErrorTestSuites: number; testResults: { testFilePath: string; testResults: TestResult[] }[] }
// A plain JavaScript module without types (Jest loads reporters untransformed): read as this shape.
const REPORTER: string = '../helpers/summary-reporter.js';
const reporter = (await import(REPORTER)) as { tally: (results: RunResults, rootDir: string) => Counts; summaryLines: (counts: Counts) => string[] };

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]);
}

test('no test module skips a test except through describeUnless', () => {
  const SKIP = /\b(?:describe|it|test)\s*\.\s*(?:skip|todo|skipIf)\b|\bx(?:describe|it|test)\s*\(|\b(?:describe|it|test)\s*\.\s*only\b/;
  const offenders = filesUnder(join(ROOT, 'test'))
    .filter((file) => /\.[jt]s$/.test(file) && relative(ROOT, file) !== join('test', 'helpers', 'programs.ts'))
    .filter((file) => SKIP.test(readFileSync(file, 'utf8')))
    .map((file) => relative(ROOT, file));
  expect(offenders).toEqual([]);
});

test('the run ends with every skipped test, its reason, and the counts', () => {
  const results: RunResults = {
    numPassedTests: 3, numFailedTests: 1, numRuntimeErrorTestSuites: 0,
    testResults: [
      { testFilePath: join(ROOT, 'suites/a.test.ts'), testResults: [{ status: 'passed', fullName: 'a works' }, { status: 'failed', fullName: 'a fails' }] },
      { testFilePath: join(ROOT, 'suites/b.slow.test.ts'), testResults: [{ status: 'pending', fullName: 'in a browser [skipped: no Chromium] renders' }, { status: 'todo', fullName: 'later' }] },
    ],
  };
  expect(reporter.summaryLines(reporter.tally(results, ROOT))).toEqual([
    'Skipped (2):',
    '  suites/b.slow.test.ts › in a browser [skipped: no Chromium] renders',
    '  suites/b.slow.test.ts › later',
    '3 passed, 1 failed, 2 skipped',
  ]);
  expect(reporter.summaryLines({ passed: 5, failed: 0, skipped: [], suitesNotRun: 1 })).toEqual(['5 passed, 0 failed, 0 skipped, 1 test file could not run']);
});

test('findProgram finds executable files on PATH, or by absolute path, and nothing else', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'tool'), '#!/bin/sh\n');
  chmodSync(join(dir, 'tool'), 0o755);
  writeFileSync(join(dir, 'plain'), 'not a program');
  const saved = process.env.PATH;
  process.env.PATH = [join(dir, 'missing'), dir].join(delimiter);
  try {
    expect(findProgram('absent', 'tool')).toBe(join(dir, 'tool'));
    expect(findProgram('plain')).toBeUndefined();
    expect(findProgram('missing')).toBeUndefined();
  } finally {
    process.env.PATH = saved;
  }
  expect(findProgram(join(dir, 'tool'))).toBe(join(dir, 'tool'));
  expect(findProgram(join(dir, 'plain'), dir)).toBeUndefined();
});

test('describeUnless skips a suite under a title that says why', () => {
  const skip = jest.spyOn(describe, 'skip').mockImplementation(() => undefined as never);
  const body = (): void => undefined;
  try {
    describeUnless('no curl on PATH', 'a client that is not Node', body);
    expect(skip.mock.calls).toEqual([['a client that is not Node [skipped: no curl on PATH]', body]]);
  } finally {
    skip.mockRestore();
  }
});

describeUnless(undefined, 'describeUnless with nothing missing', () => {
  test('runs its tests', () => {
    expect(expect.getState().currentTestName).toBe('describeUnless with nothing missing runs its tests');
  });
});
