// Creates and deletes through the CLI, in-process, against an emulator with both capabilities
// (docs/behaviour.md, "Creating and deleting rules"): what plan shows (text, Markdown, JSON), a
// saved plan with create and delete steps applied with apply --plan (and refused once stale),
// and the limit of deletes that needs --force or a maxDeletes.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { conditionsFor, lettered, rule } from '../apply/fixtures.js';
import { emulatorProjectOnDemand } from '../helpers/emulator-project.js';
import type { Rule } from '../../src/semantics/model.js';

const { start: startProject, current: project } = emulatorProjectOnDemand();
const NEW = rule('Block scrapers', { description: 'new in the pull request', actions: ['hardBlock'], conditions: conditionsFor('scrapy') });

async function start(count: number, config: Record<string, unknown> = {}): Promise<Rule[]> {
  await startProject({ seedRules: lettered(count), capabilities: ['create', 'delete'] });
  await project.writeConfig({ service: { create: true, delete: true }, unmanaged: 'delete', apps: [{ name: 'default', rulesDir: 'rules' }], ...config });
  return lettered(count);
}

describe('plan and apply with service.create and service.delete', () => {
  it('shows creates and deletes in text, Markdown (as cautions first) and JSON; a saved plan applies with apply --plan', async () => {
    const [a, b, c] = (await start(3)) as [Rule, Rule, Rule];
    await project.writeRules([a, NEW, c]);
    const text = await project.run(['plan']);
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toBe('Plan: 2 requests: 0 to update, 0 to move, 1 to create, 1 to delete; 0 rules change position; 0 blocked; 0 not in the files, kept');
    const bId = project.emulator.rules().find((r) => r.name === 'B')?.ruleId ?? '';
    expect(lines).toContain(`- "B" (${bId}): deletes it from position 2 (DELETE; no rule file declares it)`);
    expect(lines).toContain('+ "Block scrapers" (new rule, new-1 in the plan): creates it at position 2 (POST; the service gives it its ruleId)');
    expect(lines).toContain('    +description: new in the pull request');
    expect(lines).toContain(`  - "B" (${bId}): declared in no rule file: deleted by this plan (unmanaged: delete)`);

    const markdown = (await project.run(['plan', '--format', 'markdown'])).stdout;
    const firstScreen = markdown.slice(0, markdown.indexOf('**Plan:'));
    expect(firstScreen).toContain('> [!CAUTION]');
    expect(firstScreen).toContain(`> - **B** <code>${bId}</code> is deleted by this plan; its undo creates it again under a new ruleId`);
    expect(firstScreen).toContain('> - **Block scrapers** is a new active rule that blocks requests (hardBlock) from position 2');
    expect(markdown).toContain('#### Rules created and deleted (2 requests)');

    expect((await project.run(['plan', '--out', 'plan.json'])).code).toBe(0);
    const saved = JSON.parse(await readFile(path.join(project.dir, 'plan.json'), 'utf8')) as { apps: { steps: Record<string, unknown>[] }[]; summary: Record<string, number> };
    expect(saved.summary).toMatchObject({ patches: 2, creates: 1, deletes: 1 });
    // In the order the transition check chose: a POST and a DELETE are state changes like any other.
    const byKind = [...(saved.apps[0]?.steps ?? [])].sort((x, y) => String(x.kind).localeCompare(String(y.kind)));
    expect(byKind).toEqual([
      {
        ruleId: 'new-1', name: 'Block scrapers', kind: 'create', position: 1, changes: [],
        body: { name: 'Block scrapers', description: 'new in the pull request', status: 'active', actions: ['hardBlock'], conditions: NEW.conditions, priority: expect.any(Number) },
      },
      { ruleId: bId, name: 'B', kind: 'delete', position: 1, changes: [] },
    ]);
    const applied = await project.run(['apply', '--plan', 'plan.json', '--auto-approve']);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(project.emulator.rules().map((r) => r.name)).toEqual(['A', 'Block scrapers', 'C']);
    // Applied once, the same plan is refused, and said to be applied (the created rule has the id the service gave it).
    const createdId = project.emulator.rules().find((r) => r.name === 'Block scrapers')?.ruleId ?? '';
    const again = await project.run(['apply', '--plan', 'plan.json', '--auto-approve']);
    expect(again.code).toBe(1);
    expect(again.stderr.split('\n')).toEqual([
      `error: this plan was already applied: the live rules of app default are exactly what its 2 steps make them (the service gave the rule it created its ruleId: "Block scrapers" (${createdId})).`,
      'Nothing was sent, and nothing is left to do: botrules plan shows what, if anything, the rule files still change.',
      '',
    ]);
    void b;
  });

  it('says a saved plan of deletes, moves and updates was already applied, and names what changed once it is not exactly its result', async () => {
    const [a, b, c, d, e] = (await start(5)) as [Rule, Rule, Rule, Rule, Rule];
    await project.writeRules([e, a, { ...c, description: 'reviewed' }, d]);
    expect((await project.run(['plan', '--out', 'plan.json'])).code).toBe(0);
    expect((await project.run(['apply', '--plan', 'plan.json', '--auto-approve'])).code).toBe(0);
    expect(project.emulator.rules().map((r) => r.name)).toEqual(['E', 'A', 'C', 'D']);
    const again = await project.run(['apply', '--plan', 'plan.json', '--auto-approve']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error: this plan was already applied: the live rules of app default are exactly what its 3 steps make them\.\n/);
    // In the console: D is paused. The rules are no longer the plan's result, and D is named.
    const dId = project.emulator.rules().find((r) => r.name === 'D')?.ruleId ?? '';
    project.emulator.replaceRules(project.emulator.rules().map(({ priority: _p, ...r }) => (r.name === 'D' ? { ...r, status: 'paused' as const } : r)));
    const changed = await project.run(['apply', '--plan', 'plan.json', '--auto-approve']);
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain('the live rules of app default changed since the plan was made');
    expect(changed.stderr).toContain(`"D" (${dId}) changed`);
    expect(changed.stderr).not.toContain('already applied');
    void b;
  });

  it('undoes a delete whose rule name another rule took over: the deleted rule is created again', async () => {
    const [a, b, c] = (await start(3)) as [Rule, Rule, Rule];
    const bId = project.emulator.rules().find((r) => r.name === 'B')?.ruleId ?? '';
    // B is renamed "A" (pinned by its ruleId); the old A, declared no more, is deleted.
    await project.writeRules([{ ...b, name: 'A', ruleId: bId }, c]);
    const applied = await project.run(['apply', '--auto-approve', '--undo-out', 'undo.json']);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(project.emulator.rules().map((r) => [r.name, r.ruleId === bId])).toEqual([['A', true], ['C', false]]);
    const undone = await project.run(['apply', '--plan', 'undo.json', '--auto-approve']);
    expect(undone.stderr).toBe('');
    expect(undone.code).toBe(0);
    const restored = project.emulator.rules();
    expect(restored.map(({ ruleId: _id, priority: _p, ...fields }) => fields)).toEqual([a, b, c]);
    expect(restored[1]?.ruleId).toBe(bId);
  });

  it('refuses a saved plan whose create step was edited', async () => {
    const [a] = (await start(2)) as [Rule, Rule];
    await project.writeRules([a, NEW]);
    await project.run(['plan', '--out', 'plan.json']);
    const file = path.join(project.dir, 'plan.json');
    const text = await readFile(file, 'utf8');
    await import('node:fs/promises').then((fs) => fs.writeFile(file, text.replace('"actions": [\n              "hardBlock"\n            ]', '"actions": [\n              "allow"\n            ]')));
    const refused = await project.run(['apply', '--plan', 'plan.json', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is not what re-planning app default from the rule files against the live rules gives/);
    expect(project.emulator.log.filter((entry) => entry.method !== 'GET')).toEqual([]);
  });

  it('refuses to delete more than 30 % of an app of at least 10 rules without --force; maxDeletes sets another limit', async () => {
    const rules = await start(10);
    await project.writeRules(rules.slice(0, 6));
    const refused = await project.run(['apply', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('plan for app default deletes 4 of its 10 live rules (40 %), more than the default limit of 30 % (for apps with at least 10)');
    expect(project.emulator.log.filter((entry) => entry.method !== 'GET')).toEqual([]);
    await project.writeConfig({ service: { create: true, delete: true }, unmanaged: 'delete', maxDeletes: '40%', apps: [{ name: 'default', rulesDir: 'rules' }] });
    const allowed = await project.run(['apply', '--auto-approve']);
    expect(allowed.code).toBe(0);
    expect(project.emulator.rules().map((r) => r.name)).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
  });

  it('a count of maxDeletes per app is a limit too, and --force goes past it', async () => {
    const rules = await start(4, {});
    await project.writeConfig({ service: { create: true, delete: true }, apps: [{ name: 'default', rulesDir: 'rules', unmanaged: 'delete', maxDeletes: 1 }] });
    await project.writeRules(rules.slice(0, 2));
    const refused = await project.run(['apply', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('plan for app default deletes 2 of its 4 live rules (50 %), more than maxDeletes 1 allows');
    expect((await project.run(['apply', '--auto-approve', '--force'])).code).toBe(0);
    expect(project.emulator.rules().map((r) => r.name)).toEqual(['A', 'B']);
  });
});
