// Policies through the CLI (docs/behaviour.md, "Policies" and "Built-in policies"): bad policy
// files located, a violation at the policy's line with the deciding rule's place, in text,
// SARIF and annotations, the exit code by level, and the built-in policies by their levels.
import { runCli } from '../helpers/cli.js';
import { matrixCoverageLine } from '../helpers/operator-matrix.js';
import { writeTree } from '../rules/tree.js';
import { FIXED, OUTCOME, RULES, policyFile } from './policy-fixtures.js';

describe('policies in validate', () => {
  it('passes when every request of the class gets an allowed outcome, and says so', async () => {
    const cwd = writeTree({ 'rules/a.yaml': FIXED, 'policies/p.yaml': policyFile('error', OUTCOME) });
    const result = await runCli(['validate'], { cwd });
    expect(result).toEqual({ code: 0, stdout: '1 file, 2 rules: valid; 1 policy check: 1 hold\n', stderr: `${matrixCoverageLine('rules/a.yaml:2:5', 'path, socketIps', 3, 'Block curl')}\n` });
  });

  it('fails an error-level violation at the policy, naming the example, the rule and its place, and the condition', async () => {
    const cwd = writeTree({ 'rules/a.yaml': RULES, 'policies/p.yaml': policyFile('error', OUTCOME) });
    const result = await runCli(['validate'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(matrixCoverageLine('rules/a.yaml:10:5', 'path, socketIps', 2, 'Allow health'));
    expect(result.stderr.split('\n')[1]).toBe(
      'policies/p.yaml:2:5: Policy violated: "Health is never blocked" for app default: for example the request path "/health", method "GET", userAgent "curl" ' +
      'gets block from rule "Block curl" (rules/a.yaml:2:5) through conditions.children[0].children[0] (user agent containing "curl"); the policy allows allow, none [policy]',
    );
  });

  it('prints a warning-level violation as a warning and exits 0', async () => {
    const cwd = writeTree({ 'rules/a.yaml': RULES, 'policies/p.yaml': policyFile('warning', OUTCOME) });
    const result = await runCli(['validate'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^policies\/p\.yaml:2:5: warning: Policy violated: "Health is never blocked"/);
    expect(result.stdout).toBe('1 file, 2 rules: valid (1 warning); 1 policy check: 0 hold, 1 violated\n');
    expect((await runCli(['validate', '--strict'], { cwd })).code).toBe(1);
  });

  it('checks decidedBy', async () => {
    const cwd = writeTree({ 'rules/a.yaml': RULES, 'policies/p.yaml': policyFile('error', ['      decidedBy: Allow health']) });
    const result = await runCli(['validate'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('it must be decided by rule "Allow health" [policy]');
  });

  it('writes SARIF with the policy as the location and the deciding rule as a related location', async () => {
    const cwd = writeTree({ 'rules/a.yaml': RULES, 'policies/p.yaml': policyFile('error', OUTCOME) });
    const result = await runCli(['validate', '--format', 'sarif'], { cwd });
    expect(result.code).toBe(1);
    const log = JSON.parse(result.stdout) as { runs: { results: { ruleId: string; level: string; locations: unknown[]; relatedLocations?: unknown[] }[] }[] };
    const found = log.runs[0]?.results.find((one) => one.ruleId === 'policy-violated');
    expect(found?.level).toBe('error');
    expect(found?.locations).toEqual([{ physicalLocation: { artifactLocation: { uri: 'policies/p.yaml' }, region: { startLine: 2, startColumn: 5 } } }]);
    expect(found?.relatedLocations).toEqual([{ id: 0, physicalLocation: { artifactLocation: { uri: 'rules/a.yaml' }, region: { startLine: 2, startColumn: 5 } }, message: { text: 'rule "Block curl", which decides the example request' } }]);
  });

  it('annotates a warning-level violation under GitHub Actions', async () => {
    const cwd = writeTree({ 'rules/a.yaml': RULES, 'policies/p.yaml': policyFile('warning', OUTCOME) });
    const result = await runCli(['validate'], { cwd, env: { GITHUB_ACTIONS: 'true' } });
    expect(result.stderr).toContain('::warning file=policies/p.yaml,line=2,col=5,title=botrules policy violated::Policy violated: ');
  });

  it('is unchecked, not passed, when the budget is spent, and names the option', async () => {
    const cwd = writeTree({ 'rules/a.yaml': RULES, 'policies/p.yaml': policyFile('error', OUTCOME) });
    const result = await runCli(['validate', '--policy-budget', '0'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('could not be checked for app default: the time budget ran out');
    expect(result.stderr).toContain('--policy-budget SECONDS gives them more');
  });

  it('fails on a spent budget whatever the level: a report that ran out of budget never exits 0', async () => {
    for (const level of ['warning', 'advisory']) {
      const cwd = writeTree({ 'rules/a.yaml': FIXED, 'policies/p.yaml': policyFile(level, OUTCOME) });
      const spent = await runCli(['validate', '--policy-budget', '0'], { cwd });
      expect(spent.code).toBe(1);
      expect(spent.stderr).toContain('--policy-budget SECONDS gives them more');
      expect((await runCli(['validate'], { cwd })).code).toBe(0);
    }
  });

  const BAD: [string, string, string][] = [
    ['an unknown key', policyFile('error', OUTCOME).replace('    level: error', '    level: error\n    severity: high'), 'policies/p.yaml:4:5: unknown key "severity" in policy (allowed: name, level, apps, requests, expect)'],
    ['an unknown key in the class', policyFile('error', OUTCOME).replace('value: /health }', 'value: /health, caseSensitive: true }'), 'policies/p.yaml:9:77: unknown key "caseSensitive" in a condition; it may have conditionType, operator, value, fieldOption'],
    ['an empty class', policyFile('error', OUTCOME, ['    requests:', '      operator: $or', '      children: []']), 'policies/p.yaml:5:7: the class of requests is empty'],
    ['a decidedBy naming no rule', policyFile('error', ['      decidedBy: Allow everything']), 'policies/p.yaml:11:18: decidedBy "Allow everything" names no rule of app default'],
    ['an outcome not one of the four', policyFile('error', ['      outcome: [allow, deny]']), 'policies/p.yaml:11:24: outcome "deny" is not one of allow, challenge, block, none'],
  ];

  it('reads the directory policiesDir names, and refuses one outside the project or missing', async () => {
    const config = (dir: string) => `apps:\n  - name: default\n    rulesDir: rules\npoliciesDir: ${dir}\n`;
    const elsewhere = writeTree({ 'rules/a.yaml': RULES, 'checks/p.yaml': policyFile('error', OUTCOME), 'botrules.yaml': config('checks') });
    const [coverage, violation] = (await runCli(['validate'], { cwd: elsewhere })).stderr.split('\n');
    expect(coverage).toBe(matrixCoverageLine('rules/a.yaml:10:5', 'path, socketIps', 2, 'Allow health'));
    expect(violation).toMatch(/^checks\/p\.yaml:2:5: Policy violated: /);
    const outside = writeTree({ 'rules/a.yaml': RULES, 'botrules.yaml': config('../checks') });
    const refused = await runCli(['validate'], { cwd: outside });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('botrules.yaml:4:14: policiesDir leads outside the project directory');
    const missing = writeTree({ 'rules/a.yaml': RULES, 'botrules.yaml': config('checks') });
    expect((await runCli(['validate'], { cwd: missing })).stderr).toContain('botrules.yaml:4:14: policiesDir "checks" is not a directory of policy files');
  });

  it.each(BAD)('rejects %s at its FILE:LINE:COL', async (_what, content, expected) => {
    const cwd = writeTree({ 'rules/a.yaml': RULES, 'policies/p.yaml': content });
    const result = await runCli(['validate'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(expected);
    expect(result.stderr).not.toMatch(/Policy violated|internal error|instancePath/);
  });
});

const UA_ONLY_ALLOW = [
  'rules:',
  '  - name: Allow our crawler',
  '    actions: [allow]',
  '    conditions:',
  '      operator: $or',
  '      children:',
  '        - operator: $and',
  '          children:',
  '            - { conditionType: userAgent, operator: $in, value: [our-crawler] }',
  '',
].join('\n');

describe('built-in policies', () => {
  it('warns about an allow rule on the user agent alone, and about an operator the documentation does not list, by default', async () => {
    const cwd = writeTree({ 'rules/a.yaml': UA_ONLY_ALLOW });
    const result = await runCli(['validate'], { cwd });
    expect(result.code).toBe(0);
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^rules\/a\.yaml:2:5: warning: rule "Allow our crawler" allows requests on their user agent \(user agent one of "our-crawler"\) with no IP or ASN condition.* \[abusable-allow\]$/);
    expect(lines[1]).toMatch(/^rules\/a\.yaml:2:5: warning: rule "Allow our crawler": conditions.children\[0\].children\[0\] uses \$in on userAgent, which the service's "Custom rule operators and conditions" page does not list for it .* \[operator-matrix\]$/);
  });

  it('follows the levels botrules.yaml gives them', async () => {
    const config = (levels: string) => `apps:\n  - name: default\n    rulesDir: rules\nbuiltinPolicies: ${levels}\n`;
    const off = writeTree({ 'rules/a.yaml': UA_ONLY_ALLOW, 'botrules.yaml': config('{ abusable-allow: off, operator-matrix: off }') });
    expect(await runCli(['validate'], { cwd: off })).toEqual({ code: 0, stdout: '1 file, 1 rule: valid\n', stderr: '' });
    const error = writeTree({ 'rules/a.yaml': UA_ONLY_ALLOW, 'botrules.yaml': config('{ abusable-allow: error, operator-matrix: advisory }') });
    const result = await runCli(['validate'], { cwd: error });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[abusable-allow]');
  });

  it('does not flag an allow rule that also requires an address', async () => {
    const cwd = writeTree({ 'rules/a.yaml': UA_ONLY_ALLOW.replace('value: [our-crawler] }', 'value: our-crawler }\n            - { conditionType: socketIpASN, operator: $in, value: ["15169"] }').replace('$in, value: our', '$eq, value: our') });
    expect(await runCli(['validate'], { cwd })).toEqual({ code: 0, stdout: '1 file, 1 rule: valid\n', stderr: `${matrixCoverageLine('rules/a.yaml:2:5', 'socketIpASN', 1, 'Allow our crawler')}\n` });
  });

  it('says which condition types operator-matrix checked and which it did not, at info level whatever its level', async () => {
    const config = (level: string) => `apps:\n  - name: default\n    rulesDir: rules\n${level === 'default' ? '' : `builtinPolicies: { operator-matrix: ${level} }\n`}`;
    // By default too, with no finding of its own: silence is never read as a pass.
    for (const level of ['error', 'warning', 'advisory', 'default']) {
      const cwd = writeTree({ 'rules/a.yaml': RULES, 'botrules.yaml': config(level) });
      const result = await runCli(['validate'], { cwd });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe(
        'rules/a.yaml:10:5: info: operator-matrix: checked userAgent, domain; not checked: path, socketIps (2 leaves, the first in rule "Allow health"): ' +
        'the service\'s "Custom rule operators and conditions" page, as botrules read it, gives no operator list for those condition types, so their operators are not known to be supported [operator-matrix]\n',
      );
    }
    const json = JSON.parse((await runCli(['validate', '--format', 'json'], { cwd: writeTree({ 'rules/a.yaml': RULES, 'botrules.yaml': config('warning') }) })).stdout) as { policies: { policy: string; verdict: string; level: string }[] };
    expect(json.policies).toEqual([expect.objectContaining({ policy: 'operator-matrix', verdict: 'unchecked', level: 'advisory' })]);
    const sarif = JSON.parse((await runCli(['validate', '--format', 'sarif'], { cwd: writeTree({ 'rules/a.yaml': RULES, 'botrules.yaml': config('warning') }) })).stdout) as { runs: { tool: { driver: { rules: { id: string; fullDescription?: { text: string }; shortDescription?: { text: string } }[] } } }[] };
    const described = sarif.runs[0]?.tool.driver.rules.find((rule) => rule.id === 'operator-matrix');
    expect(JSON.stringify(described)).toContain('Checked: userAgent, domain (the only condition types whose operator lists could be read); leaves of other condition types are not checked.');
    // Beside what it found.
    const beside = writeTree({ 'rules/a.yaml': UA_ONLY_ALLOW.replace('value: [our-crawler] }', 'value: [our-crawler] }\n            - { conditionType: path, operator: $startsWith, value: /x }') });
    const lines = (await runCli(['validate'], { cwd: beside })).stderr.trim().split('\n');
    expect(lines.map((line) => line.slice(line.lastIndexOf('['))).sort()).toEqual(['[abusable-allow]', '[operator-matrix]', '[operator-matrix]']);
    expect(lines).toContainEqual(expect.stringMatching(/^rules\/a\.yaml:2:5: info: operator-matrix: checked userAgent, domain; not checked: path \(1 leaf, the first in rule "Allow our crawler"\)/));
    const off = writeTree({ 'rules/a.yaml': RULES, 'botrules.yaml': config('off') });
    expect((await runCli(['validate'], { cwd: off })).stderr).toBe('');
  });
});

describe('policies in diff', () => {
  it('lists the policies whose verdict changes and exits 2', async () => {
    const cwd = writeTree({ 'old/a.yaml': FIXED, 'new/a.yaml': RULES, 'policies/p.yaml': policyFile('error', OUTCOME) });
    const result = await runCli(['diff', 'old', 'new'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('Policies whose verdict changes:\n  policies/p.yaml:2:5: policy "Health is never blocked": holds → violated: Policy violated: ');
    const json = JSON.parse((await runCli(['diff', 'old', 'new', '--format', 'json'], { cwd })).stdout) as { policies: { before: { verdict: string }; after: { verdict: string; rule: { name: string } } }[] };
    expect(json.policies.map((change) => [change.before.verdict, change.after.verdict, change.after.rule.name])).toEqual([['holds', 'violated', 'Block curl']]);
  });
});
