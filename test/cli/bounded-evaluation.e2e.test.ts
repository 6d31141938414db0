// Evaluation in bounded time, through the real binary: a live rule `userAgent $re ["^(a+)+$"]`
// and a test request whose user agent is 36 `a`s and a `!` used to make `botrules test` and the
// behaviour diff of `botrules plan` run for minutes on V8's backtracking engine. The pattern is
// now decided by RE2 (the right answer, at once); a pattern only a backtracking engine can run
// (a lookahead) is interrupted, and the output names the rule and the pattern instead of
// hanging or guessing.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { CLI_BINARY } from '../helpers/binary.js';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { rule, tempProject, writeRules, type Project } from '../apply/fixtures.js';
import type { Rule } from '../../src/semantics/model.js';

const ATTACK = `${'a'.repeat(36)}!`;

function agentRule(name: string, pattern: string, overrides: Partial<Rule> = {}): Rule {
  return rule(name, {
    conditions: { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'userAgent', operator: '$re', value: [pattern] }] }] },
    ...overrides,
  });
}

const LIVE = [agentRule('Nested quantifier', '^(a+)+$'), agentRule('Lookahead', '(?=(a+)+$)')];

let emu: TestEmulator;
let project: Project;

beforeAll(async () => {
  emu = await startTestEmulator({ seedRules: LIVE });
  project = await tempProject();
  // Declared: the first rule challenges instead of blocking (a change, so the plan has a behaviour diff).
  await writeRules(project.rulesDir, [{ ...(LIVE[0] as Rule), actions: ['blockWithChallenge'] }, LIVE[1] as Rule]);
  await mkdir(path.join(project.dir, 'tests'));
  await writeFile(path.join(project.dir, 'tests', 'agents.yaml'), [
    'tests:',
    `  - name: attack\n    request: { userAgent: "${ATTACK}" }\n    expect: { rule: Nested quantifier }`,
    '  - name: plain\n    request: { userAgent: aaa }\n    expect: { rule: Nested quantifier }',
    '',
  ].join('\n'));
  const live = await runCli(['live', '--out', 'live.json'], { env: emu.env, cwd: project.dir });
  expect(live.code).toBe(0);
});

afterAll(async () => {
  await emu.close();
  await project.close();
});

/** The binary as a user runs it; killed (and the test failed) if it runs longer than 30 s. */
async function botrules(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI_BINARY, ...args], {
      cwd: project.dir, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' }, timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code?: number; killed?: boolean; stdout: string; stderr: string };
    if (failed.killed === true) throw new Error(`botrules ${args.join(' ')} ran longer than 30 s`, { cause: err });
    return { code: failed.code ?? -1, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('evaluation in bounded time', () => {
  it('test --live: decides the nested quantifier at once, and names the rule whose lookahead ran out of time', async () => {
    const result = await botrules('test', '--live', 'live.json');
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')).toEqual([
      'Testing 2 requests against the live snapshot "live.json"',
      'FAIL  "attack" at tests/agents.yaml:2:5',
      `      the outcome is unknown: rule "Lookahead" could not be decided: userAgent $re "(?=(a+)+$)" on "${ATTACK}" ran out of its time budget (1 s a match) on the backtracking engine the pattern needs`,
      'pass  "plain"',
      '2 tests: 1 passed, 1 failed',
      '',
    ]);
  });

  it('plan --live: the behaviour diff leaves the undecided test out and says so, naming the rule and the pattern', async () => {
    const result = await botrules('plan', '--live', 'live.json');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain([
      'Behaviour changes: the plan changes the outcome of 1 of the 1 test request:',
      '    ≠ "plain" (tests/agents.yaml:5:5): live → "Nested quantifier" (hardBlock); declared → "Nested quantifier" (blockWithChallenge)',
      '',
    ].join('\n'));
    expect(result.stderr.split('\n')).toContain(
      `warning: test "attack" (tests/agents.yaml:2:5) is left out of the behaviour diff: under the live rules, rule "Lookahead" could not be decided: userAgent $re "(?=(a+)+$)" on "${ATTACK}" ran out of its time budget (1 s a match) on the backtracking engine the pattern needs`,
    );
  });
});
