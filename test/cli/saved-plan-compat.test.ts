// A saved plan written by an earlier botrules (test/fixtures/saved-plan-main/plan.json: plan
// --out with --replay, a loosening, a lifetime and a checked order) is still read and applied by
// apply --plan: the file format is a contract (docs/behaviour.md, "Plan format"), whatever
// shape the Plan takes inside the tool.
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import type { NormalRule, Rule } from '../../src/semantics/model.js';
import { lettered, liveFields } from '../apply/fixtures.js';
import { emulatorProjectForEachTest } from '../helpers/emulator-project.js';

const project = emulatorProjectForEachTest({ seedRules: lettered(5) });
const NOW = '2030-01-01T00:00:00Z';

/** The rule with its lifetime right under its name, as the fixture's rule files had it. */
function timed(rule: Rule, lifetime: Record<string, string>): Rule {
  const { name, ...rest } = rule;
  return { name, ...lifetime, ...rest } as Rule;
}

function declared(): Rule[] {
  const [a, b, c, d, e] = lettered(5) as [NormalRule, NormalRule, NormalRule, NormalRule, NormalRule];
  return [d, { ...a, actions: ['allow'] }, timed(c, { expires: '2030-01-05T00:00:00Z' }), { ...b, description: 'moved and described' }, { ...e, status: 'paused' }];
}

describe('a plan saved by an earlier version', () => {
  it('is applied by apply --plan, showing what it loosens and the lifetimes it recorded', async () => {
    await project.writeRules(declared());
    await copyFile(path.resolve('test/fixtures/saved-plan-main/plan.json'), path.join(project.dir, 'plan.json'));
    await copyFile(path.resolve('test/fixtures/logs/requests.ndjson'), path.join(project.dir, 'requests.ndjson'));
    const result = await project.run(['apply', '--plan', 'plan.json', '--auto-approve', '--now', NOW]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('  ! "A" actions weakened from hardBlock to allow\n');
    expect(result.stdout).toContain('Verified: live rules of app default match the plan.');
    const [a, b, c, d, e] = lettered(5) as [NormalRule, NormalRule, NormalRule, NormalRule, NormalRule];
    expect(liveFields(project.emulator)).toEqual([d, { ...a, actions: ['allow'] }, c, { ...b, description: 'moved and described' }, { ...e, status: 'paused' }]);
  });
});
