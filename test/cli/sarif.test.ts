// `validate --format sarif` and `test --format sarif` through the CLI: stdout is exactly one
// valid SARIF log, the usual lines stay on stderr, and exit codes are those of text output.
import { rmSync } from 'node:fs';
import { runCli } from '../helpers/cli.js';
import { ruleYaml, writeTree } from '../rules/tree.js';
import { sarifSchemaErrors } from '../render/sarif-schema.js';

interface Result { ruleId: string; level: string; message: { text: string }; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }[] }

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = writeTree(files);
  dirs.push(dir);
  return dir;
}

function results(stdout: string): Result[] {
  const log = JSON.parse(stdout) as { runs: { results: Result[] }[] };
  expect(sarifSchemaErrors(log)).toEqual([]);
  return log.runs[0]?.results ?? [];
}

const where = (result: Result) => {
  const { artifactLocation, region } = result.locations[0]?.physicalLocation ?? { artifactLocation: { uri: '' }, region: { startLine: 0, startColumn: 0 } };
  return `${artifactLocation.uri}:${region.startLine}:${region.startColumn}`;
};

describe('validate --format sarif', () => {
  it('keeps a backslash in a file name as part of it: the finding is never moved onto another file', async () => {
    const cwd = project({ 'rules/a\\..\\..\\secret.yaml': `rules:\n${ruleYaml('A', '    statuss: active')}` });
    const result = await runCli(['validate', '--format', 'sarif'], { cwd });
    expect(result.code).toBe(1);
    expect(results(result.stdout).map(where)).toEqual(['rules/a%5C..%5C..%5Csecret.yaml:3:5']);
  });

  it('reports invalid files as errors, with exit 1 and the usual lines on stderr', async () => {
    // A misspelt known key is an error (a key botrules does not know at all is a warning: docs/behaviour.md, "Unknown fields").
    const cwd = project({ 'rules/a.yaml': `rules:\n${ruleYaml('A', '    statuss: paused')}` });
    const result = await runCli(['validate', '--format', 'sarif'], { cwd });
    expect(result.code).toBe(1);
    expect(results(result.stdout).map((r) => [r.ruleId, r.level, where(r)])).toEqual([['invalid-file', 'error', 'rules/a.yaml:3:5']]);
    expect(result.stderr).toContain('rules/a.yaml:3:5: ');
  });

  it('reports analysis findings and file warnings under their ids, exit 0; --strict makes them errors', async () => {
    const cwd = project({
      'rules/a.yaml': `rules:\n${ruleYaml('A')}${ruleYaml('B')}`,
      'rules/b.yaml': 'rules:\n  - name: C\n    actions: [allow]\n    conditions:\n      operator: $or\n      children:\n        - operator: $and\n          children:\n            - { conditionType: httpMethod, operator: $eq, value: PROPFIND }\n',
    });
    const result = await runCli(['validate', '--format', 'sarif'], { cwd });
    expect(result.code).toBe(0);
    const found = results(result.stdout).map((r) => [r.ruleId, r.level, where(r)]);
    expect(found).toEqual([
      ['file-warning', 'warning', 'rules/b.yaml:9:66'],
      ['duplicate-conditions', 'warning', 'rules/a.yaml:10:5'],
      ['shadowed-rule', 'warning', 'rules/a.yaml:10:5'],
      ['operator-matrix', 'note', 'rules/a.yaml:2:5'],
    ]);
    expect(result.stderr).toMatch(/: valid \(3 warnings\)\n$/);

    const strict = await runCli(['validate', '--format', 'sarif', '--strict'], { cwd });
    expect(strict.code).toBe(1);
    expect(results(strict.stdout).filter((r) => r.ruleId !== 'invalid-file').every((r) => r.level === 'error')).toBe(true);
  });
});

describe('test --format sarif', () => {
  const RULES = `rules:\n${ruleYaml('A')}`;
  it('reports each failed test at its line as an error, exit 1', async () => {
    const cwd = project({
      'rules/a.yaml': RULES,
      'tests/t.yaml': 'tests:\n  - name: hits A\n    request: { path: /x }\n    expect: { rule: A }\n  - name: "wrong \\e[2J"\n    request: { path: /y }\n    expect: { rule: A }\n',
    });
    const result = await runCli(['test', '--format', 'sarif'], { cwd });
    expect(result.code).toBe(1);
    const found = results(result.stdout);
    expect(found.map((r) => [r.ruleId, r.level, where(r)])).toEqual([['failed-rule-test', 'error', 'tests/t.yaml:5:5']]);
    expect(found[0]?.message.text).toContain('test "wrong \\u001b[2J" failed: expected "A", but no rule matched');
    expect(result.stderr).toContain('2 tests: 1 passed, 1 failed');
  });

  it('reports invalid test files as errors', async () => {
    const cwd = project({ 'rules/a.yaml': RULES, 'tests/t.yaml': 'tests:\n  - name: x\n    bogus: 1\n' });
    const result = await runCli(['test', '--format', 'sarif'], { cwd });
    expect(result.code).toBe(1);
    expect(results(result.stdout).every((r) => r.ruleId === 'invalid-file' && where(r).startsWith('tests/t.yaml:'))).toBe(true);
  });
});
