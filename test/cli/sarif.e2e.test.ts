// `validate --format sarif` through the real binary, as a CI step runs it: a clean project gives
// one valid SARIF log on stdout whose one result is operator-matrix's note of what it did not
// check, and that note's line and the usual summary on stderr (the rest of the
// SARIF tests run in-process: test/cli/sarif.test.ts).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { CLI_BINARY } from '../helpers/binary.js';
import { matrixCoverage, matrixCoverageLine } from '../helpers/operator-matrix.js';
import { ruleYaml, writeTree } from '../rules/tree.js';
import { sarifSchemaErrors } from '../render/sarif-schema.js';

let cwd: string;
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('validate --format sarif', () => {
  it('writes one valid log with no finding for a clean project, only what operator-matrix did not check, through the real binary', () => {
    cwd = writeTree({ 'rules/a.yaml': `rules:\n${ruleYaml('A')}` });
    const child = spawnSync(process.execPath, [CLI_BINARY, '--format', 'sarif', 'validate'], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(child.status).toBe(0);
    const log = JSON.parse(child.stdout) as { runs: { results: { ruleId: string; level: string; message: { text: string } }[] }[] };
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.runs.map((run) => run.results.map(({ ruleId, level, message }) => [ruleId, level, message.text]))).toEqual([[['operator-matrix', 'note', matrixCoverage('path', 1, 'A')]]]);
    expect(child.stderr).toBe(`${matrixCoverageLine('rules/a.yaml:2:5', 'path', 1, 'A')}\n1 file, 1 rule: valid\n`);
  });
});
