// Rules with a lifetime (docs/behaviour.md, "Rules with a lifetime"), end to end against the
// emulator: `--now` rehearses a moment, so no test sleeps or patches a clock. An expired rule is
// paused by the next apply and then plans clean; before its expiry the same files plan clean;
// plan names what changes within seven days; validate warns about long-expired rules; bad
// dates are FILE:LINE:COL errors with no request sent; import --update does not write back a
// pause that a lifetime made.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { NormalRule, Rule } from '../../src/semantics/model.js';
import { lettered, patches } from '../apply/fixtures.js';
import { emulatorProjectForEachTest } from '../helpers/emulator-project.js';
import { matrixCoverageLine } from '../helpers/operator-matrix.js';

const [A, B] = lettered(2) as [NormalRule, NormalRule];
const project = emulatorProjectForEachTest({ seedRules: [A, B] });

const EXPIRES = '2026-06-01T00:00:00Z';
const BEFORE = '2026-05-29T12:00:00Z';
const AFTER = '2026-06-01T00:00:00Z';

/** The rule with its lifetime keys written right under its name (line 3 of its file, and on). */
function timed(rule: Rule, lifetime: Record<string, string>): Rule {
  const { name, ...rest } = rule;
  return { name, ...lifetime, ...rest } as Rule;
}

/** A expires at EXPIRES; B is as live. */
async function declareExpiry(): Promise<void> {
  await project.writeRules([timed(A, { expires: EXPIRES }), B]);
}

describe('rules with a lifetime', () => {
  it('before the expiry the files plan clean and the plan names the expiry to come', async () => {
    await declareExpiry();
    const result = await project.run(['plan', '--detailed-exitcode', '--now', BEFORE]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe([
      'No changes. Live rules match the rule files.',
      '',
      'Rule lifetimes:',
      '  - "A" expires in 2 days, at 2026-06-01 00:00 UTC: the first apply after that pauses it (rules/010-rule.yaml:3:14)',
      '',
      matrixCoverageLine('rules/010-rule.yaml:2:5', 'socketIps', 2, 'A'),
      '',
    ].join('\n'));
  });

  it('an expired rule is paused by the next apply, which then plans clean', async () => {
    await declareExpiry();
    const plan = await project.run(['plan', '--now', AFTER, '--no-behaviour-diff']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('  - "A" expired at 2026-06-01 00:00 UTC: this plan pauses it (rules/010-rule.yaml:3:14)\n');
    const apply = await project.run(['apply', '--auto-approve', '--now', AFTER]);
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain(`\n\n${matrixCoverageLine('rules/010-rule.yaml:2:5', 'socketIps', 2, 'A')}\n`);
    expect(patches(project.emulator).map((entry) => entry.body)).toEqual([{ status: 'paused' }]);
    expect(project.emulator.rules().map((rule) => [rule.name, rule.status])).toEqual([['A', 'paused'], ['B', 'active']]);
    const after = await project.run(['plan', '--detailed-exitcode', '--now', AFTER]);
    expect(after.code).toBe(0);
    expect(after.stdout).toBe(`No changes. Live rules match the rule files.\n\n${matrixCoverageLine('rules/010-rule.yaml:2:5', 'socketIps', 2, 'A')}\n`);
  });

  it('the JSON plan carries the moment and the events, and a saved plan made before the expiry is stale after it', async () => {
    await declareExpiry();
    const plan = await project.run(['plan', '--format', 'json', '--now', BEFORE, '--out', 'plan.json']);
    expect(plan.code).toBe(0);
    expect(JSON.parse(plan.stdout).lifetimes).toEqual({
      evaluatedAt: '2026-05-29T12:00:00.000Z',
      events: [{ app: 'default', name: 'A', kind: 'expires', at: '2026-06-01T00:00:00.000Z', source: { file: 'rules/010-rule.yaml', line: 3, col: 14 } }],
    });
    const stale = await project.run(['apply', '--plan', 'plan.json', '--auto-approve', '--now', AFTER]);
    expect(stale.code).toBe(1);
    expect(patches(project.emulator)).toHaveLength(0);
  });

  it('a rule before its activeFrom is declared paused, and plan names its activation within seven days', async () => {
    await project.writeRules([A, timed(B, { activeFrom: '2026-06-03T08:00:00+02:00' })]);
    const result = await project.run(['plan', '--format', 'json', '--now', BEFORE]);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed.apps[0].steps.map((step: { name: string; body: object }) => [step.name, step.body])).toEqual([['B', { status: 'paused' }]]);
    expect(printed.lifetimes.events.map((e: { name: string; kind: string; at: string }) => [e.name, e.kind, e.at])).toEqual([['B', 'pending', '2026-06-03T06:00:00.000Z']]);
    const later = await project.run(['plan', '--format', 'json', '--now', '2026-05-28T00:00:00Z']);
    expect(JSON.parse(later.stdout).lifetimes.events.map((e: { kind: string }) => e.kind)).toEqual(['pending']);
    const inside = await project.run(['plan', '--detailed-exitcode', '--now', '2026-06-03T06:00:00Z']);
    expect(inside.code).toBe(0);
  });

  it('validate warns about a rule expired more than 30 days ago, and not about one expired 30 days ago', async () => {
    await declareExpiry();
    const thirty = await project.run(['validate', '--now', '2026-07-01T00:00:00Z']);
    expect(thirty.code).toBe(0);
    expect(thirty.stderr).not.toContain('expired');
    const later = await project.run(['validate', '--now', '2026-07-02T00:00:00Z']);
    expect(later.code).toBe(0);
    expect(later.stderr).toContain('rules/010-rule.yaml:3:14: warning: rule "A" expired on 2026-06-01T00:00:00.000Z (31 days ago) and stays paused: delete it from the rule files, or move expires to keep it');
    const strict = await project.run(['validate', '--strict', '--now', '2026-07-02T00:00:00Z']);
    expect(strict.code).toBe(1);
  });

  it.each([
    ['a date-time without an offset', { expires: '2026-06-01T00:00:00' },
      'rules/010-rule.yaml:3:14: expires must be an ISO 8601 date-time with an offset, such as 2026-12-01T00:00:00Z or 2026-12-01T09:00:00+01:00, not "2026-06-01T00:00:00" (without an offset the instant would depend on the machine\'s time zone)'],
    ['a date alone', { activeFrom: '2026-06-01' },
      'rules/010-rule.yaml:3:17: activeFrom must be an ISO 8601 date-time with an offset, such as 2026-12-01T00:00:00Z or 2026-12-01T09:00:00+01:00, not "2026-06-01" (without an offset the instant would depend on the machine\'s time zone)'],
    ['no such day', { expires: '2026-02-30T00:00:00Z' },
      'rules/010-rule.yaml:3:14: expires "2026-02-30T00:00:00Z" is not a real date and time (check the day of the month and the clock)'],
    ['expires before activeFrom', { activeFrom: '2026-06-02T00:00:00Z', expires: '2026-06-01T00:00:00Z' },
      'rules/010-rule.yaml:4:14: expires (2026-06-01T00:00:00Z) is not after activeFrom (2026-06-02T00:00:00Z): the rule would never be active; fix the dates, or write status: paused'],
  ])('%s is a FILE:LINE:COL error, and plan sends no request', async (_what, lifetime, message) => {
    await project.writeRules([timed(A, lifetime), B]);
    const validate = await project.run(['validate']);
    expect(validate.code).toBe(1);
    expect(validate.stderr.split('\n')).toContain(message);
    const before = project.emulator.log.length;
    const plan = await project.run(['plan']);
    expect(plan.code).toBe(1);
    expect(plan.stderr.split('\n')).toContain(message);
    expect(project.emulator.log.length).toBe(before);
  });

  it('--now that is not an instant is a usage error naming what it takes', async () => {
    await declareExpiry();
    const result = await project.run(['plan', '--now', '2026-06-01T00:00:00']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--now takes an ISO 8601 date-time with an offset (2026-12-01T09:00:00Z) or epoch milliseconds, not "2026-06-01T00:00:00"');
    expect(project.emulator.log).toHaveLength(0);
  });

  it('import --update writes back no status for a rule its lifetime pauses, before or after apply carried the pause out', async () => {
    // import reads lifetimes at the time it runs (the drift pull request's daily run): long
    // expired. The file leaves status to its default, active, so a status written back would show.
    const { status: _active, ...unstated } = timed(A, { expires: '2020-01-01T00:00:00Z' });
    await project.writeRules([unstated as Rule, B]);
    expect((await project.run(['import', '--update', '--pin'])).code).toBe(0);
    const file = path.join(project.rulesDir, '010-rule.yaml');
    const pinned = await readFile(file, 'utf8');
    expect(pinned).not.toContain('status');
    const before = await project.run(['import', '--update']);
    expect(before.code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(pinned);
    expect((await project.run(['apply', '--auto-approve'])).code).toBe(0);
    expect(project.emulator.rules().map((rule) => rule.status)).toEqual(['paused', 'active']);
    const after = await project.run(['import', '--update']);
    expect(after.code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(pinned);
    // A console edit to another field of the rule is still brought back.
    await writeFile(file, pinned.replace('description: ""', 'description: edited'));
    const edited = await project.run(['import', '--update']);
    expect(edited.code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(pinned);
  });
});
