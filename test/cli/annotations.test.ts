// GitHub annotations are one output mode, written through the workflow-command writer: under
// GITHUB_ACTIONS=true the runner (test/helpers/runner-grammar.ts) must find each one with its
// file, line, column and message, for validate's errors, validate's analysis warnings and
// test's failures. Whole lines, never substrings: a substring also matches the defused `\::`.
import { runCli } from '../helpers/cli.js';
import { matrixCoverage } from '../helpers/operator-matrix.js';
import { runnerAnnotations } from '../helpers/runner-grammar.js';
import { writeTree } from '../rules/tree.js';

const RULE = (name: string, leaf: string) =>
  `  - name: ${name}\n    actions: [hardBlock]\n    conditions:\n      operator: $or\n      children:\n        - operator: $and\n          children:\n            - ${leaf}\n`;
const SHADOWED = `rules:\n${RULE('API', '{ conditionType: path, operator: $startsWith, value: /api }')}${RULE('API v1', '{ conditionType: path, operator: $startsWith, value: /api/v1 }')}`;
const ON_ACTIONS = { GITHUB_ACTIONS: 'true' };

describe('GitHub annotations under GITHUB_ACTIONS=true', () => {
  it('validate errors: one whole annotation line per problem, read by the runner as such', async () => {
    const cwd = writeTree({ 'rules/a.yaml': 'rules:\n  - name: A\n    status: on\n    actions: [hardBlock]\n    conditions: { operator: $or, children: [] }\n' });
    const result = await runCli(['validate'], { cwd, env: ON_ACTIONS });
    expect(result.code).toBe(1);
    const error = runnerAnnotations(result.stderr).find((a) => a.message.startsWith('status'));
    expect(error).toEqual({ level: 'error', file: 'rules/a.yaml', line: '3', col: '13', message: 'status "on" is not one of active, paused' });
    expect(result.stderr.split('\n')).toContain('::error file=rules/a.yaml,line=3,col=13::status "on" is not one of active, paused');
  });

  it('validate analysis warnings reach the runner as warnings with a title', async () => {
    const result = await runCli(['validate'], { cwd: writeTree({ 'rules/a.yaml': SHADOWED }), env: ON_ACTIONS });
    expect(result.code).toBe(0);
    const message = 'rule "API v1" can never decide: rule "API" (rules/a.yaml:2) comes first and matches every request it matches (path $startsWith "/api/v1" implies path $startsWith "/api")';
    expect(result.stderr.split('\n')).toEqual([
      `rules/a.yaml:10:5: warning: ${message} [shadowed-rule]`,
      `rules/a.yaml:2:5: info: ${matrixCoverage('path', 2, 'API')} [operator-matrix]`,
      `::warning file=rules/a.yaml,line=10,col=5,title=botrules shadowed-rule::${message}`,
      `::notice file=rules/a.yaml,line=2,col=5,title=botrules operator-matrix::${matrixCoverage('path', 2, 'API')}`,
      '',
    ]);
    expect(runnerAnnotations(result.stderr)).toEqual([
      { level: 'warning', file: 'rules/a.yaml', line: '10', col: '5', title: 'botrules shadowed-rule', message },
      { level: 'notice', file: 'rules/a.yaml', line: '2', col: '5', title: 'botrules operator-matrix', message: matrixCoverage('path', 2, 'API') },
    ]);
  });

  it('test failures reach the runner as errors on the test\'s line', async () => {
    const cwd = writeTree({
      'rules/a.yaml': `rules:\n${RULE('Block login posts', '{ conditionType: path, operator: $eq, value: /login }')}`,
      'tests/a.yaml': 'tests:\n  - name: "a: b, c"\n    request: { path: /login }\n    expect: { rule: none }\n',
    });
    const result = await runCli(['test'], { cwd, env: ON_ACTIONS });
    expect(result.code).toBe(1);
    const message = 'test "a: b, c" failed: expected no rule, but "Block login posts" decided (hardBlock); "Block login posts" matches at group 1, condition 1: path $eq "/login" (the request\'s path is "/login")';
    expect(result.stderr.split('\n')).toContain(`::error file=tests/a.yaml,line=2,col=5::${message}`);
    expect(runnerAnnotations(result.stderr)).toEqual([{ level: 'error', file: 'tests/a.yaml', line: '2', col: '5', message }]);
  });

  it('writes no annotation outside GitHub Actions', async () => {
    const result = await runCli(['validate'], { cwd: writeTree({ 'rules/a.yaml': SHADOWED }) });
    expect(runnerAnnotations(result.stderr)).toEqual([]);
  });
});
