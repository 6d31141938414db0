// `botrules test` through the real binary, in the project's own directory: the example rules
// pass the example tests (the rest of the command's tests run in-process: test-command.test.ts).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { CLI_BINARY } from '../helpers/binary.js';

describe('botrules test', () => {
  it('passes the example project\'s own tests through the real binary', () => {
    const result = spawnSync(process.execPath, [CLI_BINARY, 'test'], { cwd: path.resolve('.'), encoding: 'utf8', env: { PATH: process.env.PATH, NO_COLOR: '1' } });
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^31 tests: 31 passed, 0 failed$/m);
    expect(result.status).toBe(0);
  });
});
