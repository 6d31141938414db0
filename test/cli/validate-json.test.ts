// `validate --format json` (docs/behaviour.md, "validate --format json"): one document on stdout
// with what fails validate (problems), the warnings, the analysis findings, and every policy
// check with its verdict (holds included); the lines and the summary stay on stderr, and the exit
// code is the one text output has.
import { runCli } from '../helpers/cli.js';
import { matrixCoverageLine } from '../helpers/operator-matrix.js';
import { writeTree } from '../rules/tree.js';
import { FIXED, RULES, policyFile } from './policy-fixtures.js';

interface ValidateJson {
  formatVersion: number;
  valid: boolean;
  strict: boolean;
  apps: number;
  files: number;
  rules: number;
  problems: { file: string; line: number; col: number; message: string }[];
  warnings: { file: string; line: number; col: number; message: string }[];
  findings: { check: string; severity: string; file: string; line: number; col: number; message: string }[];
  policies: { policy: string; builtin: boolean; level: string; app: string; at: unknown; verdict: string; rule?: { name: string }; example?: Record<string, unknown> }[];
}

describe('validate --format json', () => {
  it('a valid project: the document on stdout, every policy with its verdict (holds too), the summary on stderr, exit 0', async () => {
    const cwd = writeTree({ 'rules/a.yaml': FIXED, 'policies/p.yaml': policyFile('error') });
    const result = await runCli(['validate', '--format', 'json'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`${matrixCoverageLine('rules/a.yaml:2:5', 'path, socketIps', 3, 'Block curl')}\n1 file, 2 rules: valid; 1 policy check: 1 hold\n`);
    const report = JSON.parse(result.stdout) as ValidateJson;
    expect(report).toEqual({
      formatVersion: 1, valid: true, strict: false, apps: 1, files: 1, rules: 2, problems: [], warnings: [], findings: [],
      policies: [expect.objectContaining({ policy: 'Health is never blocked', builtin: false, level: 'error', app: 'default', verdict: 'holds', at: { file: 'policies/p.yaml', line: 2, col: 5 } }),
        expect.objectContaining({ policy: 'operator-matrix', builtin: true, level: 'advisory', app: 'default', verdict: 'unchecked', at: { file: 'rules/a.yaml', line: 2, col: 5 } })],
    });
  });

  it('an error-level violation: a problem at the policy, the verdict with its example and deciding rule, exit 1', async () => {
    const cwd = writeTree({ 'rules/a.yaml': RULES, 'policies/p.yaml': policyFile('error') });
    const result = await runCli(['validate', '--format', 'json'], { cwd });
    expect(result.code).toBe(1);
    const [coverage, violation] = result.stderr.split('\n');
    expect(coverage).toBe(matrixCoverageLine('rules/a.yaml:10:5', 'path, socketIps', 2, 'Allow health'));
    expect(violation).toMatch(/^policies\/p\.yaml:2:5: Policy violated: "Health is never blocked"/);
    const report = JSON.parse(result.stdout) as ValidateJson;
    expect(report.valid).toBe(false);
    expect(report.problems).toEqual([{ file: 'policies/p.yaml', line: 2, col: 5, message: expect.stringMatching(/^Policy violated: "Health is never blocked" .* \[policy\]$/) }]);
    const [policy] = report.policies;
    expect(policy).toMatchObject({ verdict: 'violated', level: 'error', rule: { name: 'Block curl' }, example: expect.objectContaining({ path: '/health', userAgent: 'curl' }) });
  });

  it('lists analysis findings and warning-level policies without failing; --strict makes them problems', async () => {
    const duplicated = `${FIXED}${FIXED.replace('rules:\n', '').replace('Block curl', 'Block curl again').replace('Allow health', 'Allow health again')}`;
    const cwd = writeTree({ 'rules/a.yaml': duplicated, 'policies/p.yaml': policyFile('warning').replace('[allow, none]', '[none]') });
    const result = await runCli(['validate', '--format', 'json'], { cwd });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as ValidateJson;
    expect(report.valid).toBe(true);
    expect(report.findings.map((finding) => finding.check)).toContain('duplicate-conditions');
    expect(report.policies.map((finding) => [finding.level, finding.verdict])).toEqual([['warning', 'violated'], ['advisory', 'unchecked']]);
    const strict = await runCli(['validate', '--format', 'json', '--strict'], { cwd });
    expect(strict.code).toBe(1);
    const strictReport = JSON.parse(strict.stdout) as ValidateJson;
    expect(strictReport).toMatchObject({ valid: false, strict: true, findings: [] });
    expect(strictReport.problems.map((problem) => problem.message)).toEqual(expect.arrayContaining([expect.stringMatching(/\[duplicate-conditions\]$/), expect.stringMatching(/\[policy\]$/)]));
  });

  it('an invalid rule file: its problems located in the document, exit 1', async () => {
    const cwd = writeTree({ 'rules/a.yaml': RULES.replace('actions: [hardBlock]', 'actions: [destroy]') });
    const result = await runCli(['validate', '--format', 'json'], { cwd });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as ValidateJson;
    expect(report.valid).toBe(false);
    expect(report.problems).toEqual([expect.objectContaining({ file: 'rules/a.yaml', line: 3 })]);
    expect(result.stderr).toContain('rules/a.yaml:3:');
  });
});
