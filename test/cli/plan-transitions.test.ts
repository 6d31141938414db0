// Safe transitions through the binary against the emulator (docs/behaviour.md, "Safe
// transitions"): a reorder whose planner order opens a window is sent in an order without one
// (the PATCHes in the emulator's log, the plan saying why), also from a saved plan; two rules
// that trade what they block open a window whatever the order: the plan shows it, apply exits
// 1 without --force and sends nothing.
import type { Leaf, Rule } from '../../src/rules/model.js';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { patches, tempProject, writeConfig, writeRules, type Project } from '../apply/fixtures.js';

function ruleOf(name: string, actions: Rule['actions'], leaf: Leaf): Rule {
  return { name, description: '', status: 'active', actions, conditions: { operator: '$or', children: [{ operator: '$and', children: [leaf] }] } };
}

const python: Leaf = { conditionType: 'userAgent', operator: '$contains', value: 'python' };
const curl: Leaf = { conditionType: 'userAgent', operator: '$contains', value: 'curl' };
const blockPython = ruleOf('Block python', ['hardBlock'], python);
const allowApi = ruleOf('Allow API', ['allow'], { conditionType: 'path', operator: '$startsWith', value: '/api' });
const publicApi = ruleOf('Allow API', ['allow'], { conditionType: 'path', operator: '$startsWith', value: '/api/public' });
const challengeFrance = ruleOf('Challenge FR', ['blockWithChallenge'], { conditionType: 'country', operator: '$in', value: ['FR'] });
const blockAdmin = ruleOf('Block admin', ['hardBlock'], { conditionType: 'path', operator: '$startsWith', value: '/admin' });

let emu: TestEmulator;
let project: Project;

async function setUp(live: Rule[], declared: Rule[]): Promise<void> {
  emu = await startTestEmulator({ seedRules: live });
  project = await tempProject();
  await writeConfig(project.dir, { apps: [{ name: 'default', rulesDir: 'rules' }] });
  await writeRules(project.rulesDir, declared);
}

afterEach(async () => {
  await emu.close();
  await project.close();
});

const run = (argv: string[]) => runCli(argv, { env: emu.env, cwd: project.dir });

/** The rules the PATCHes went to, by name, in the order they arrived. */
function patchedNames(): string[] {
  const names = new Map(emu.emulator.rules().map((rule) => [rule.ruleId, rule.name]));
  return patches(emu.emulator).map((entry) => names.get(decodeURIComponent(entry.path.split('/').pop() ?? '')) ?? entry.path);
}

describe('a reorder whose planner order opens a window', () => {
  beforeEach(() => setUp([blockPython, allowApi, challengeFrance, blockAdmin], [publicApi, challengeFrance, blockAdmin, blockPython]));

  it('plan says botrules chose another order, and apply sends the narrowing before the move', async () => {
    const planned = await run(['plan']);
    expect(planned.code).toBe(0);
    const lines = planned.stdout.split('\n');
    expect(lines).toContain("Transitions: no window; botrules chose this order because the planner's order opens 1 window (1 state between the PATCH requests checked)");
    const steps = lines.filter((line) => line.startsWith('~ '));
    expect(steps[0]).toMatch(/^~ "Allow API" \(.+\): update conditions$/);
    expect(steps[1]).toMatch(/^~ "Block python" \(.+\): move .+$/);

    const applied = await run(['apply', '--auto-approve']);
    expect(applied.code).toBe(0);
    expect(patchedNames()).toEqual(['Allow API', 'Block python']);
    expect(emu.emulator.rules().map((rule) => rule.name)).toEqual(['Allow API', 'Challenge FR', 'Block admin', 'Block python']);
  });

  it('a saved plan keeps the order, and apply --plan sends it so', async () => {
    expect((await run(['plan', '--out', 'plan.json'])).code).toBe(0);
    const applied = await run(['apply', '--plan', 'plan.json', '--auto-approve']);
    expect(applied.code).toBe(0);
    expect(patchedNames()).toEqual(['Allow API', 'Block python']);
  });
});

describe('two rules that trade what they block', () => {
  beforeEach(() => setUp(
    [ruleOf('Tools', ['hardBlock'], python), ruleOf('Scripts', ['hardBlock'], curl)],
    [ruleOf('Tools', ['hardBlock'], curl), ruleOf('Scripts', ['hardBlock'], python)],
  ));

  it('plan shows the window with its witness; apply exits 1 without --force and sends nothing', async () => {
    const planned = await run(['plan']);
    expect(planned.code).toBe(0);
    const lines = planned.stdout.split('\n');
    expect(lines).toContain('! Transitions: this order opens 1 window in the 1 state between the PATCH requests; apply refuses it without --force');
    expect(lines).toContain('      before: "Tools" (hardBlock); during: no rule (not blocked); after: "Scripts" (hardBlock)');
    expect(lines.some((line) => /^ {6}for example \{.*"userAgent":"[^"]*python[^"]*".*\}$/.test(line))).toBe(true);

    const refused = await run(['apply', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr.split('\n')).toContain(
      'error: plan for app default opens a window in which requests that the live rules and the rule files both block or challenge get through between its PATCH requests; review it and use --force to apply anyway; nothing was sent',
    );
    expect(patches(emu.emulator)).toHaveLength(0);

    const savedRefused = await run(['plan', '--out', 'plan.json']).then(() => run(['apply', '--plan', 'plan.json', '--auto-approve']));
    expect(savedRefused.code).toBe(1);
    expect(patches(emu.emulator)).toHaveLength(0);

    const forced = await run(['apply', '--auto-approve', '--force']);
    expect(forced.code).toBe(0);
    expect(patches(emu.emulator)).toHaveLength(2);
  });

  it('plan --format json carries the window', async () => {
    const planned = await run(['plan', '--format', 'json']);
    const json = JSON.parse(planned.stdout) as { apps: { transitions: { windows: { opensAfter: number; closesAt: number; before: string; during: string; after: string }[] } }[] };
    expect(json.apps[0]?.transitions.windows).toEqual([
      expect.objectContaining({ opensAfter: 1, closesAt: 2, before: '"Tools" (hardBlock)', during: 'no rule (not blocked)', after: '"Scripts" (hardBlock)' }),
    ]);
  });
});
