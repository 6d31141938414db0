// The `yaml` package prints every token it reads to standard output when LOG_TOKENS is set
// (and every document when LOG_STREAM is): a variable left in a user's or a CI runner's
// environment must not pour the library's debugging into `botrules validate` or a plan.
// Through the real binary, because the library writes to the process's own stdout.
import { spawnSync } from 'node:child_process';
import { writeTree, ruleYaml } from '../rules/tree.js';
import { CLI_BINARY } from '../helpers/binary.js';
import { matrixCoverageLine } from '../helpers/operator-matrix.js';

it('the yaml debug variables print nothing through botrules validate', () => {
  const cwd = writeTree({ 'rules/a.yaml': `rules:\n${ruleYaml('A')}` });
  const result = spawnSync(process.execPath, [CLI_BINARY, 'validate'], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, NO_COLOR: '1', LOG_TOKENS: '1', LOG_STREAM: '1' },
    timeout: 20_000,
  });
  expect({ code: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({ code: 0, stdout: '1 file, 1 rule: valid\n', stderr: `${matrixCoverageLine('rules/a.yaml:2:5', 'path', 1, 'A')}\n` });
});
