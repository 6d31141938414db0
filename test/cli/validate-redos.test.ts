// The redos-pattern check of `validate`: a `$re` pattern that can take exponential time on a
// backtracking engine (the service's) is a warning naming the rule and the pattern, under its
// own SARIF rule id, silenced like every check; quadratic and linear patterns are not reported.
import { runCli } from '../helpers/cli.js';
import { writeTree } from '../rules/tree.js';

const withPatterns = (patterns: string, comment = ''): string =>
  [
    'rules:',
    `  - name: Agents${comment}`,
    '    actions: [hardBlock]',
    '    conditions:',
    '      operator: $and',
    '      children:',
    '        - operator: $and',
    '          children:',
    `            - { conditionType: userAgent, operator: $re, value: ${patterns} }`,
    '',
  ].join('\n');

describe('validate: redos-pattern', () => {
  it('warns about a pattern that backtracks exponentially, naming the rule and the pattern; exit 0', async () => {
    const cwd = writeTree({ 'rules/a.yaml': withPatterns('["^(a+)+$", "(ab)+c", "^Mozilla/5\\\\.0 .*Chrome", "bot|crawler"]') });
    const result = await runCli(['validate'], { cwd, env: {} });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('rules/a.yaml:2:5: warning: rule "Agents": pattern "^(a+)+$" of userAgent $re can take exponential time on a backtracking engine such as the service\'s (for example on \'a\' + \'a\'.repeat(31) + \'\\x00\'); rewrite it without a repeated group that can match the same text in more than one way [redos-pattern]\n');
    expect(result.stdout).toBe('1 file, 1 rule: valid (1 warning)\n');
  }, 30_000);

  it('is a result under its own rule id in SARIF', async () => {
    const cwd = writeTree({ 'rules/a.yaml': withPatterns('["(a|a)*b"]') });
    const result = await runCli(['validate', '--format', 'sarif'], { cwd, env: {} });
    expect(result.code).toBe(0);
    const log = JSON.parse(result.stdout) as { runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[] }[] };
    const [run] = log.runs;
    expect(run?.tool.driver.rules.map((rule) => rule.id)).toContain('redos-pattern');
    expect(run?.results.map((r) => [r.ruleId, r.locations[0]?.physicalLocation.region.startLine])).toEqual([['redos-pattern', 2]]);
  }, 30_000);

  it('is silenced by a comment on the rule', async () => {
    const cwd = writeTree({ 'rules/a.yaml': withPatterns('["^(a+)+$"]', '  # botrules-ignore: redos-pattern') });
    const result = await runCli(['validate'], { cwd, env: {} });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('1 file, 1 rule: valid\n');
  }, 30_000);
});
