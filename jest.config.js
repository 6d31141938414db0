import { availableParallelism } from 'node:os';

const shared = {
  // TypeScript is transpiled only (test/helpers/transform.js): `npm run typecheck` checks it.
  transform: { '\\.ts$': '<rootDir>/test/helpers/transform.js' },
  extensionsToTreatAsEsm: ['.ts'],
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};

/**
 * Two tiers (CONTRIBUTING.md, "Two test tiers").
 *
 * fast (`npm run jest`, inside `npm test`): unit tests and the CLI run in-process
 * (test/helpers/cli.ts) against the in-process emulator; the inner loop, well under a minute.
 *
 * slow (`npm run test:slow`, which `.ci/run` runs after `npm test`): everything whose time is
 * spent in other processes or in long searches, so it depends on the machine and its load:
 * end-to-end suites (`*.e2e.test.ts`: the real binary, git, bash, ESLint over the tree, the
 * README and the demo as pasted, the bundle, the package, hostile servers), long tests of one
 * case (`*.slow.test.ts`: the browser, inputs far larger than real ones), and property and fuzz
 * tests with many generated inputs (`*.property.test.ts`, `*properties.test.ts`, `fuzz*.test.ts`).
 */
const SLOW_TESTS = ['**/*.property.test.ts', '**/*properties.test.ts', '**/fuzz*.test.ts', '**/*.e2e.test.ts', '**/*.slow.test.ts'];

/** @type {import('jest').Config} */
export default {
  // Global (Jest ignores a testTimeout inside a project's configuration): the fast tier's limit,
  // which holds beside a type check, a lint and another test run on 2 cores. The slow project
  // sets its own in test/helpers/e2e-timeout.js.
  testTimeout: 60000,
  // The run's own temporary directory, checked empty at the end (test/helpers/temp.ts).
  globalSetup: '<rootDir>/test/helpers/global-setup.js',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.js',
  // Ends every run with its skipped tests, each with its reason, and a line of counts.
  reporters: ['default', '<rootDir>/test/helpers/summary-reporter.js'],
  // Jest's default (one worker fewer than the processors) runs everything in one process on a
  // 2-core machine; most suites wait on child processes and sockets, so two workers use both.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // A worker's heap grows with every test file it runs (after garbage collection, from about
  // 30 MB to 300 MB over the fast tier's 60-odd files per worker: each file loads the modules
  // afresh). Grown to 650-800 MB, a worker took over Jest's half second to exit at the end of a
  // run on a loaded machine, and Jest killed it ("A worker process has failed to exit
  // gracefully"); it held no timer, socket or child process. A worker that has grown past this
  // is replaced between files instead, so every worker is small when the run ends.
  workerIdleMemoryLimit: '256MB',
  projects: [
    { ...shared, displayName: 'fast', testMatch: ['**/*.test.ts'], testPathIgnorePatterns: ['\\.property\\.test\\.ts$', 'properties\\.test\\.ts$', '/fuzz[^/]*\\.test\\.ts$', '\\.e2e\\.test\\.ts$', '\\.slow\\.test\\.ts$'] },
    { ...shared, displayName: 'slow', testMatch: SLOW_TESTS, setupFilesAfterEnv: ['<rootDir>/test/helpers/e2e-timeout.js'] },
  ],
};
