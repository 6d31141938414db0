// Temporary directories for tests, removed after the test file that made them: every helper
// and test that needs a scratch directory takes it from here, so a run leaves nothing behind
// (the run's scratch directory is checked empty by test/helpers/global-teardown.js).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

// Registered when a test file first imports this module: Jest runs each file with its own
// module registry, so each file removes exactly the directories it made.
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh empty directory under the system's temporary directory, removed after the file. */
export function tempDir(prefix = 'botrules-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
