// The run's leak check: the global teardown fails a run whose tests left anything in the
// scratch directory, names what was left, and removes the run's directory either way.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import globalSetup from '../helpers/global-setup.js';
import globalTeardown from '../helpers/global-teardown.js';

describe('the temporary-directory leak check', () => {
  const saved = { run: process.env.BOTRULES_TEST_RUN_DIR, tmp: process.env.TMPDIR };
  afterEach(() => {
    process.env.BOTRULES_TEST_RUN_DIR = saved.run;
    process.env.TMPDIR = saved.tmp;
  });

  it('passes a run that left nothing, and removes its directory', () => {
    globalSetup();
    const runDir = process.env.BOTRULES_TEST_RUN_DIR as string;
    expect(process.env.TMPDIR).toBe(join(runDir, 'tmp'));
    expect(() => globalTeardown()).not.toThrow();
    expect(existsSync(runDir)).toBe(false);
  });

  it('fails a run that left a directory behind, naming it', () => {
    globalSetup();
    const runDir = process.env.BOTRULES_TEST_RUN_DIR as string;
    mkdirSync(join(process.env.TMPDIR as string, 'botrules-forgotten-x'));
    expect(() => globalTeardown()).toThrow('tests left 1 temporary entry behind: botrules-forgotten-x');
    expect(existsSync(runDir)).toBe(false);
  });
});
