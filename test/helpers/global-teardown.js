// Jest global teardown: the run's temporary directory must be empty again. Whatever a test
// left there is listed and the run fails, then the directory is removed all the same.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export default function globalTeardown() {
  const runDir = process.env.BOTRULES_TEST_RUN_DIR;
  if (runDir === undefined) return;
  const left = readdirSync(join(runDir, 'tmp'));
  rmSync(runDir, { recursive: true, force: true });
  if (left.length > 0) {
    throw new Error(`tests left ${left.length} temporary entr${left.length === 1 ? 'y' : 'ies'} behind: ${left.slice(0, 20).join(', ')}${left.length > 20 ? ', …' : ''}; make them with tempDir() from test/helpers/temp.ts`);
  }
}
