// Safe transitions through the binary against the emulator (docs/behaviour.md, "Safe
// transitions"): a reorder whose planner order opens a window is sent in an order without one
// (the PATCHes in the emulator's log, the plan saying why), also from a saved plan; two rules
// that trade what they block open a window whatever the order: the plan shows it, apply exits
// 1 without --force and sends nothing, and so does apply of the undo plan of a forced apply.
import type { Leaf, Rule } from '../../src/semantics/model.js';
import { execFile } from 'node:child_process';
import { CLI_BINARY } from '../helpers/binary.js';
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

/** The real binary, as users call it (the emulator answers from this process). */
function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI_BINARY, ...argv], { cwd: project.dir, env: { ...emu.env, PATH: process.env.PATH, NO_COLOR: '1' } }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr }),
    );
  });
}

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
    expect(steps[0]).toMatch(/^~ "Allow API" \([0-9a-f-]+\): updates conditions$/);
    expect(steps[1]).toMatch(/^~ "Block python" \([0-9a-f-]+\): moves from position 1 to 4$/);

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
    const at = lines.indexOf('! Transitions: this order opens 1 window in the 1 state between the PATCH requests; apply refuses it without --force');
    expect(lines.slice(at + 1, at + 5)).toEqual([
      '  ! Window between PATCH 1 and PATCH 2: 1 class of requests let through',
      '    - requests with user agent containing "python"',
      '      before: "Tools" (hardBlock); during: no rule (not blocked); after: "Scripts" (hardBlock)',
      '      for example {"path":"/","method":"GET","userAgent":"python"}',
    ]);

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

  it('the undo plan of a forced apply trades them back through the same kind of window: checked and refused alike', async () => {
    expect((await run(['apply', '--auto-approve', '--force', '--undo-out', 'undo.json'])).code).toBe(0);
    expect(patches(emu.emulator)).toHaveLength(2);
    const undoRefused = await run(['apply', '--plan', 'undo.json', '--auto-approve']);
    expect(undoRefused.code).toBe(1);
    expect(undoRefused.stdout.split('\n')).toContain('! Transitions: this order opens 1 window in the 1 state between the PATCH requests; apply refuses it without --force');
    expect(undoRefused.stderr).toContain('opens a window in which requests that the live rules and the rule files both block or challenge get through');
    expect(patches(emu.emulator)).toHaveLength(2);
    expect((await run(['apply', '--plan', 'undo.json', '--auto-approve', '--force'])).code).toBe(0);
    expect(emu.emulator.rules().map((rule) => rule.conditions.children[0]?.children[0]?.value)).toEqual(['python', 'curl']);
  });

  it('plan --format json carries the window', async () => {
    const planned = await run(['plan', '--format', 'json']);
    const json = JSON.parse(planned.stdout) as { apps: { transitions: unknown }[] };
    expect(json.apps[0]?.transitions).toEqual({
      order: 'planner',
      plannerWindows: 1,
      unchecked: [],
      windows: [{
        opensAfter: 1,
        closesAt: 2,
        classes: [{
          requests: 'requests with user agent containing "python"',
          seenAfter: 1,
          witness: { method: 'GET', path: '/', userAgent: 'python' },
          before: '"Tools" (hardBlock)',
          during: 'no rule (not blocked)',
          after: '"Scripts" (hardBlock)',
        }],
      }],
    });
  });
});

describe('a window only one more PATCH avoids', () => {
  const tools: Leaf = { conditionType: 'userAgent', operator: '$in', value: ['curl', 'python'] };
  const challengeTools: Rule = {
    ...ruleOf('Challenge tools', ['blockWithChallenge'], tools),
    conditions: { operator: '$or', children: [{ operator: '$and', children: [tools, { conditionType: 'path', operator: '$ne', value: '/health' }] }] },
  };
  beforeEach(() => setUp(
    [challengeTools, allowApi, ruleOf('Block agents', ['hardBlock'], { conditionType: 'userAgent', operator: '$exists' })],
    [ruleOf('Block agents', ['hardBlock'], tools), allowApi, ruleOf('Challenge tools', ['blockWithChallenge'], python)],
  ));

  it('plan offers --safe-order and its cost; apply --safe-order sends the three PATCHes in that order', async () => {
    const planned = await run(['plan']);
    expect(planned.code).toBe(0);
    expect(planned.stdout.split('\n')).toContain('  An order free of windows exists with 1 more PATCH: botrules plan --safe-order shows it, botrules apply --safe-order applies it.');

    const safe = await run(['plan', '--safe-order']);
    expect(safe.code).toBe(0);
    // The built-in policies' findings ($in on the user agent, which the service's page does not list) come first.
    const lines = safe.stdout.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'Built-in policies: 1 finding',
      expect.stringMatching(/^ {2}rules\/010-rule\.yaml:2:5: warning: rule "Block agents": .*\[operator-matrix\]$/),
      '',
    ]);
    expect(lines[3]).toBe('Plan: 3 PATCH requests: 2 to update, 2 to move (1 does both); 2 rules change position; 0 blocked; 0 not in the files, kept');
    expect(lines).toContain("Transitions: no window, at the cost of 1 more PATCH (--safe-order sends one update-and-move as two requests); the planner's order opens 1 window");

    expect((await run(['apply', '--auto-approve'])).code).toBe(1);
    expect(patches(emu.emulator)).toHaveLength(0);
    const applied = await run(['apply', '--auto-approve', '--safe-order']);
    expect(applied.code).toBe(0);
    expect(patchedNames()).toEqual(['Block agents', 'Challenge tools', 'Block agents']);
    expect(emu.emulator.rules().map((rule) => rule.name)).toEqual(['Block agents', 'Allow API', 'Challenge tools']);
  });
});
