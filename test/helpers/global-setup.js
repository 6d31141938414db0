// Jest global set-up: the run gets a temporary directory of its own, and every test (and every
// child process that inherits the environment) makes its scratch directories inside it, so
// the teardown can tell exactly what this run left behind — even with other runs on the machine.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function globalSetup() {
  // The run's directory holds the scratch directory (TMPDIR for the tests) and the files the
  // run shares on purpose, such as the emulator certificate (test/helpers/emulator.ts).
  const runDir = mkdtempSync(join(tmpdir(), 'botrules-jest-run-'));
  const scratch = join(runDir, 'tmp');
  mkdirSync(scratch);
  process.env.BOTRULES_TEST_RUN_DIR = runDir;
  process.env.TMPDIR = scratch;
}
