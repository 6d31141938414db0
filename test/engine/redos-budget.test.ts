// The redos-pattern check has one budget for all patterns of a command (issue #41: 60 rules took
// 39 s, each pattern with its own 3 s and none for the whole): a pattern asked after the budget ran
// out, or one the checker could not decide, is reported as not checked, never passed over as safe.
import { redosFindings, redosRun, REDOS_BUDGET_MS } from '../../src/engine/redos.js';
import { declared } from '../helpers/rules.js';

const withPattern = (name: string, pattern: string) => declared({
  name, description: '', status: 'active', actions: ['hardBlock'],
  conditions: { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'userAgent', operator: '$re', value: [pattern] }] }] },
});

it('reports every pattern left when the budget has run out, naming rule and pattern', async () => {
  const rules = [withPattern('one', '^(a+)+$'), withPattern('two', '(ab)+c')];
  const run = { ...redosRun(), deadline: Date.now() - 1 };
  const findings = await redosFindings(rules, run);
  expect(findings.map((finding) => [finding.check, finding.severity, finding.message])).toEqual([
    ['redos-pattern', 'warning', `rule "one": pattern "^(a+)+$" of userAgent $re was not checked for exponential time: the check's budget of ${REDOS_BUDGET_MS / 1000} s for all patterns ran out first`],
    ['redos-pattern', 'warning', `rule "two": pattern "(ab)+c" of userAgent $re was not checked for exponential time: the check's budget of ${REDOS_BUDGET_MS / 1000} s for all patterns ran out first`],
  ]);
});

it('shares one budget between the apps of a command: the clock starts once, at the first pattern', async () => {
  const run = redosRun();
  await redosFindings([withPattern('one', '^(a+)+$')], run);
  const started = run.deadline;
  expect(started).toBeDefined();
  await redosFindings([withPattern('two', '(ab)+c')], run);
  expect(run.deadline).toBe(started);
  expect([...run.verdicts.keys()]).toEqual(['^(a+)+$', '(ab)+c']);
}, 30_000);
