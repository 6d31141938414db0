// `validate --format sarif` through the real binary, as a CI step runs it: a clean project gives
// one valid SARIF log with no results on stdout and the usual line on stderr (the rest of the
// SARIF tests run in-process: test/cli/sarif.test.ts).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { CLI_BINARY } from '../helpers/binary.js';
import { ruleYaml, writeTree } from '../rules/tree.js';
import { sarifSchemaErrors } from '../render/sarif-schema.js';

let cwd: string;
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('validate --format sarif', () => {
  it('writes one valid log with no results for a clean project, through the real binary', () => {
    cwd = writeTree({ 'rules/a.yaml': `rules:\n${ruleYaml('A')}` });
    const child = spawnSync(process.execPath, [CLI_BINARY, '--format', 'sarif', 'validate'], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(child.status).toBe(0);
    const log = JSON.parse(child.stdout) as { runs: { results: unknown[] }[] };
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.runs.map((run) => run.results)).toEqual([[]]);
    expect(child.stderr).toBe('1 file, 1 rule: valid\n');
  });
});
