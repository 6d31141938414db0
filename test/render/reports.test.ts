// The formats of validate, test and apply, as whole lines on each stream: what a user or a CI
// log sees, never a substring that would also match an escaped or half-written form.
import pc from 'picocolors';
import { validateReport } from '../../src/engine/validate.js';
import { APPLY_OUTPUTS, type ApplyReportView, type StepOutcomeView } from '../../src/render/apply/index.js';
import type { StreamRenderers } from '../../src/render/contract.js';
import { TEST_OUTPUTS, testAnnotations, type TestReport } from '../../src/render/tests/index.js';
import { VALIDATE_OUTPUTS, validateAnnotations } from '../../src/render/validate/index.js';
import type { Action } from '../../src/semantics/model.js';
import type { TestReason, TestResult } from '../../src/tests/run.js';
import { samplePlan } from './plan-fixtures.js';

async function streams<Model>(output: StreamRenderers<Model>, model: Model): Promise<{ stdout: string[]; stderr: string[] }> {
  const written = { stdout: '', stderr: '' };
  const colors = pc.createColors(false);
  await output.stdout?.(model, { write: (chunk: string) => (written.stdout += chunk) }, { colors });
  await output.stderr?.(model, { write: (chunk: string) => (written.stderr += chunk) }, { colors });
  return { stdout: written.stdout.split('\n'), stderr: written.stderr.split('\n') };
}

const warning = { file: 'rules/a.yaml', line: 4, col: 7, message: 'method "PURGE" is uncommon' };
const finding = { check: 'shadowed-rule' as const, severity: 'warning' as const, file: 'rules/b.yaml', line: 10, col: 5, message: 'rule "B" can never decide' };
const note = { check: 'allow-before-block' as const, severity: 'info' as const, file: 'rules/b.yaml', line: 2, col: 5, message: 'rule "A" allows what "B" blocks' };
const project = { problems: [], fileWarnings: [warning], findings: [finding, note], apps: 2, files: 3, rules: 12 };

describe('validate', () => {
  it('text: the summary on stdout, each warning and finding on stderr', async () => {
    expect(await streams(VALIDATE_OUTPUTS.text, validateReport(project, false))).toEqual({
      stdout: ['2 apps, 3 files, 12 rules: valid (2 warnings)', ''],
      stderr: [
        'rules/a.yaml:4:7: warning: method "PURGE" is uncommon',
        'rules/b.yaml:10:5: warning: rule "B" can never decide [shadowed-rule]',
        'rules/b.yaml:2:5: info: rule "A" allows what "B" blocks [allow-before-block]',
        '',
      ],
    });
  });

  it('sarif: the document alone on stdout, the lines and the summary on stderr', async () => {
    const { stdout, stderr } = await streams(VALIDATE_OUTPUTS.sarif, validateReport({ ...project, apps: 1, fileWarnings: [], findings: [note] }, false));
    expect(JSON.parse(stdout.join('\n')).runs[0].results.map((r: { ruleId: string; level: string }) => [r.ruleId, r.level])).toEqual([['allow-before-block', 'note']]);
    expect(stderr).toEqual(['rules/b.yaml:2:5: info: rule "A" allows what "B" blocks [allow-before-block]', '3 files, 12 rules: valid', '']);
  });

  it('--strict: an analysis warning fails with its check, and nothing is shown as valid', async () => {
    const report = validateReport({ ...project, fileWarnings: [] }, true);
    expect(report.errors).toEqual([{ file: 'rules/b.yaml', line: 10, col: 5, message: 'rule "B" can never decide [shadowed-rule]' }]);
    expect(await streams(VALIDATE_OUTPUTS.text, report)).toEqual({ stdout: [''], stderr: [''] });
  });

  it('github: warnings as warnings, findings with their check as the title', () => {
    expect(validateAnnotations(validateReport(project, false))).toEqual([
      { level: 'warning', file: 'rules/a.yaml', line: 4, col: 7, message: 'method "PURGE" is uncommon' },
      { level: 'warning', file: 'rules/b.yaml', line: 10, col: 5, title: 'botrules shadowed-rule', message: 'rule "B" can never decide' },
      { level: 'notice', file: 'rules/b.yaml', line: 2, col: 5, title: 'botrules allow-before-block', message: 'rule "A" allows what "B" blocks' },
    ]);
  });
});

function result(name: string, passed: boolean, reasons: TestReason[] = []): TestResult {
  return { test: { name, request: {}, expect: { rule: 'none' }, source: { file: 'tests/a.yaml', line: 2, col: 5 } }, app: 'default', passed, decidedBy: undefined, actions: [], reasons } as unknown as TestResult;
}

describe('test', () => {
  const report: TestReport = { problems: [], results: [result('home', true), result('login\u001b[2J', false, [{ kind: 'decided', expected: undefined, decidedBy: 'B', actions: ['block' as Action] }])], showApps: false, against: 'the rule files' };

  it('text: one line per test, a failure with its place and reasons, the summary last', async () => {
    expect(await streams(TEST_OUTPUTS.text, report)).toEqual({
      stdout: [
        'Testing 2 requests against the rule files',
        'pass  "home"',
        'FAIL  "login\\u001b[2J" at tests/a.yaml:2:5',
        '      expected no rule, but "B" decided (block)',
        '2 tests: 1 passed, 1 failed',
        '',
      ],
      stderr: [''],
    });
  });

  it('junit: the document on stdout, the summary alone on stderr', async () => {
    const { stdout, stderr } = await streams(TEST_OUTPUTS.junit, report);
    expect(stdout[0]).toBe('<?xml version="1.0" encoding="UTF-8"?>');
    expect(stderr).toEqual(['2 tests: 1 passed, 1 failed', '']);
  });

  it('github: each failed test as an error on its line', () => {
    expect(testAnnotations(report.results)).toEqual([
      { level: 'error', file: 'tests/a.yaml', line: 2, col: 5, message: 'test "login\\u001b[2J" failed: expected no rule, but "B" decided (block)' },
    ]);
  });
});

describe('apply', () => {
  const plan = samplePlan();
  const steps = plan.apps[0]?.steps ?? [];
  const outcomes: StepOutcomeView[] = steps.map((step, i) => (i === 0 ? { state: 'applied', step } : { state: 'not-attempted', step }));
  const base: ApplyReportView = {
    target: 'the rule files', outcome: 'applied', interrupted: false,
    results: [{ app: 'default', passes: [outcomes], verified: false }],
    totals: { sent: 1, failed: 0, notAttempted: outcomes.length - 1 },
  };

  it('an interrupted apply: the steps never sent, the undo plan, the one closing line', async () => {
    const report: ApplyReportView = { ...base, interrupted: true, undo: { file: 'undo.json', chosen: 'default', undo: plan, unlisted: ['shop'] } };
    const { stdout, stderr } = await streams(APPLY_OUTPUTS.text, { report, signal: 'SIGINT' });
    expect(stdout).toEqual([
      '',
      ...outcomes.slice(1).map((o) => expect.stringMatching(new RegExp(`^- not attempted: .*"${o.step.name}"`)) as unknown as string),
      `Undo plan of what was applied written to undo.json (${plan.summary.patches} PATCH requests); run: botrules apply --plan undo.json`,
      `Apply interrupted (SIGINT): 1 applied, 0 failed, ${outcomes.length - 1} not attempted.`,
      '',
    ]);
    expect(stderr).toEqual(['warning: no undo plan for app shop: its live rules could not be listed after the apply', '']);
  });

  it('a verified apply of one request says so in the singular', async () => {
    const report: ApplyReportView = { ...base, results: [{ app: 'default', passes: [[{ state: 'applied', step: steps[0] as StepOutcomeView['step'] }]], verified: true }], totals: { sent: 1, failed: 0, notAttempted: 0 } };
    expect(await streams(APPLY_OUTPUTS.text, { report })).toEqual({
      stdout: ['', 'Verified: live rules of app default match the rule files.', 'Apply complete: 1 PATCH request, 0 failed.', ''],
      stderr: [''],
    });
  });

  it('a cancelled apply writes one line on stderr and nothing on stdout', async () => {
    expect(await streams(APPLY_OUTPUTS.text, { report: { ...base, outcome: 'cancelled' } })).toEqual({ stdout: [''], stderr: ['Apply cancelled.', ''] });
  });
});
