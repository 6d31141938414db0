// The refusal of a stale saved plan says what happened (docs/behaviour.md, "Saved plans"): a plan
// applied a second time is called "already applied", and otherwise the rules whose fields
// changed are named while rules that only shifted position are counted.
import { type CliResult } from '../helpers/cli.js';
import { lettered, patches } from '../apply/fixtures.js';
import type { Rule } from '../../src/semantics/model.js';
import { emulatorProjectForEachTest } from '../helpers/emulator-project.js';

const project = emulatorProjectForEachTest({ seedRules: lettered(26) });
beforeEach(async () => {
  // The last rule moves to the top (every other rule shifts down one) and B gets a description.
  const rules = lettered(26);
  const last = rules.pop() as Rule;
  await project.writeRules([last, ...rules.map((r) => (r.name === 'B' ? { ...r, description: 'reviewed' } : r))]);
});

const run = (argv: string[]): Promise<CliResult> => project.run(argv);

it('says a plan was already applied when the live rules are exactly its result', async () => {
  expect((await run(['plan', '--out', 'plan.json'])).code).toBe(0);
  expect((await run(['apply', '--plan', 'plan.json', '--auto-approve'])).code).toBe(0);
  const again = await run(['apply', '--plan', 'plan.json', '--auto-approve']);
  expect(again.code).toBe(1);
  expect(again.stderr.split('\n')).toEqual([
    'error: this plan was already applied: the live rules of app default are exactly what its 2 steps make them.',
    'Nothing was sent, and nothing is left to do: botrules plan shows what, if anything, the rule files still change.',
    '',
  ]);
  expect(patches(project.emulator)).toHaveLength(2);
});

it('names the rules that changed and counts the rules that only moved', async () => {
  expect((await run(['plan', '--out', 'plan.json'])).code).toBe(0);
  // In the console: M is dragged to the top (25 rules shift) and Q is paused.
  const live = project.emulator.rules().map(({ priority: _p, ...r }) => (r.name === 'Q' ? { ...r, status: 'paused' as const } : r));
  const m = live.findIndex((r) => r.name === 'M');
  project.emulator.replaceRules([live[m] as Rule, ...live.slice(0, m), ...live.slice(m + 1)]);
  const q = project.emulator.rules().find((r) => r.name === 'Q');
  const result = await run(['apply', '--plan', 'plan.json', '--auto-approve']);
  expect(result.code).toBe(1);
  expect(result.stderr.split('\n')).toEqual([
    `error: the live rules of app default changed since the plan was made: "Q" (${q?.ruleId}) changed, 13 other rules only moved.`,
    'Run botrules plan again, review it, and apply the new plan.',
    '',
  ]);
  expect(patches(project.emulator)).toHaveLength(0);
});
