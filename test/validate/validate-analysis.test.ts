// The rule-set analysis through `botrules validate`: warnings at the rule's line with the
// check id, exit 0; --strict makes them errors; GitHub annotations; silencing comments.
import { runCli } from '../helpers/cli.js';
import { matrixCoverageLine } from '../helpers/operator-matrix.js';
import { writeTree } from '../rules/tree.js';

const RULE = (name: string, leaf: string, comment = '') =>
  `${comment}  - name: ${name}\n    actions: [hardBlock]\n    conditions:\n      operator: $or\n      children:\n        - operator: $and\n          children:\n            - ${leaf}\n`;
const FILE = `rules:\n${RULE('API', '{ conditionType: path, operator: $startsWith, value: /api }')}${RULE('API v1', '{ conditionType: path, operator: $startsWith, value: /api/v1 }')}`;
const COVERAGE = `${matrixCoverageLine('rules/a.yaml:2:5', 'path', 2, 'API')}\n`;
const SHADOW = 'rules/a.yaml:10:5: warning: rule "API v1" can never decide: rule "API" (rules/a.yaml:2) comes first and matches every request it matches (path $startsWith "/api/v1" implies path $startsWith "/api") [shadowed-rule]\n';

describe('validate with the rule-set analysis', () => {
  it('prints a proved shadow as a warning at the rule and exits 0', async () => {
    const result = await runCli(['validate'], { cwd: writeTree({ 'rules/a.yaml': FILE }) });
    expect(result).toEqual({ code: 0, stdout: '1 file, 2 rules: valid (1 warning)\n', stderr: SHADOW + COVERAGE });
  });
  it('fails with --strict, the warning then a problem', async () => {
    const result = await runCli(['validate', '--strict'], { cwd: writeTree({ 'rules/a.yaml': FILE }) });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('rules/a.yaml:10:5: rule "API v1" can never decide');
  });
  it('annotates under GitHub Actions', async () => {
    const result = await runCli(['validate'], { cwd: writeTree({ 'rules/a.yaml': FILE }), env: { GITHUB_ACTIONS: 'true' } });
    expect(result.stderr.split('\n')).toContain('::warning file=rules/a.yaml,line=10,col=5,title=botrules shadowed-rule::rule "API v1" can never decide: rule "API" (rules/a.yaml:2) comes first and matches every request it matches (path $startsWith "/api/v1" implies path $startsWith "/api")');
  });
  it('is silenced by a comment naming the check above the rule', async () => {
    const silencedFile = FILE.replace('  - name: API v1', '  # botrules-ignore: shadowed-rule\n  - name: API v1');
    const result = await runCli(['validate', '--strict'], { cwd: writeTree({ 'rules/a.yaml': silencedFile }) });
    expect(result).toEqual({ code: 0, stdout: '1 file, 2 rules: valid\n', stderr: COVERAGE });
  });
});
