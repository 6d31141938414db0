import { availableParallelism } from 'node:os';

const shared = {
  // TypeScript is transpiled only (test/helpers/transform.js): `npm run typecheck` checks it.
  transform: { '\\.ts$': '<rootDir>/test/helpers/transform.js' },
  extensionsToTreatAsEsm: ['.ts'],
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testTimeout: 30000,
};

/**
 * Long-running property and fuzz tests, end-to-end suites that spawn git, bash and the CLI
 * (`*.e2e.test.ts`, whose time depends on how loaded the machine is) and end-to-end tests in a
 * real browser (`*.slow.test.ts`): their own project, `npm run test:slow`, which CI runs after
 * `npm test`, so the inner loop stays short and does not time out while typecheck and lint
 * share the cores.
 */
const SLOW_TESTS = ['**/*.property.test.ts', '**/*properties.test.ts', '**/fuzz*.test.ts', '**/*.e2e.test.ts', '**/*.slow.test.ts'];

/** @type {import('jest').Config} */
export default {
  // Global: Jest ignores a testTimeout inside a project's configuration.
  testTimeout: 30000,
  // The run's own temporary directory, checked empty at the end (test/helpers/temp.ts).
  globalSetup: '<rootDir>/test/helpers/global-setup.js',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.js',
  // Jest's default (one worker fewer than the processors) runs everything in one process on a
  // 2-core machine; most suites wait on child processes and sockets, so two workers use both.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  projects: [
    { ...shared, displayName: 'fast', testMatch: ['**/*.test.ts'], testPathIgnorePatterns: ['\\.property\\.test\\.ts$', 'properties\\.test\\.ts$', '/fuzz[^/]*\\.test\\.ts$', '\\.e2e\\.test\\.ts$', '\\.slow\\.test\\.ts$'] },
    { ...shared, displayName: 'slow', testMatch: SLOW_TESTS },
  ],
};
