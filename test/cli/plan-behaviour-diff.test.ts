// The exhaustive behaviour diff in `botrules plan` (docs/behaviour.md, "Exhaustive behaviour
// diff"): every class of requests the plan decides differently, risk first, with an example
// the evaluator confirmed, in text, Markdown and JSON; --no-behaviour-diff leaves it out.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decide } from '../../src/evaluate/evaluate.js';
import type { TestRequest } from '../../src/evaluate/request.js';
import type { NormalRule, Rule } from '../../src/semantics/model.js';
import { lettered } from '../apply/fixtures.js';
import { emulatorProjectForEachTest } from '../helpers/emulator-project.js';

const [a, b, c] = lettered(3) as [NormalRule, NormalRule, NormalRule];
// Declared: C first and allowing, then A, then B paused.
const declared: NormalRule[] = [{ ...c, actions: ['allow'] }, a, { ...b, status: 'paused' }];

const project = emulatorProjectForEachTest({ seedRules: lettered(3) });
beforeEach(async () => {
  await project.writeRules(declared);
});

const run = (argv: string[]) => project.run(argv);

const TEXT = [
  'Every request: 4 classes of requests are decided differently:',
  '  ! now allowed: "A" (hardBlock) → "C" (allow)',
  '      requests with user agent containing "C" and client address in "203.0.113.0/24" and user agent containing "A", for example path "/", method "GET", userAgent "C A", ip "203.0.113.0"',
  '  ! now allowed: "B" (hardBlock) → "C" (allow)',
  '      requests with user agent containing "C" and client address in "203.0.113.0/24" and user agent containing "B", for example path "/", method "GET", userAgent "C B", ip "203.0.113.0"',
  '  ! now allowed: "C" (hardBlock) → "C" (allow)',
  '      requests with user agent containing "C" and client address in "203.0.113.0/24", for example path "/", method "GET", userAgent "C", ip "203.0.113.0"',
  '  ! weaker: "B" (hardBlock) → no rule',
  '      requests with user agent containing "B" and client address in "203.0.113.0/24", for example path "/", method "GET", userAgent "B", ip "203.0.113.0"',
];

describe('plan: exhaustive behaviour diff', () => {
  it('lists every class of requests decided differently, risk first, with a confirmed example', async () => {
    const result = await run(['plan']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    const start = lines.indexOf(TEXT[0] as string);
    expect(lines.slice(start, start + TEXT.length + 1)).toEqual([...TEXT, '']);
  });

  it('puts the classes in the JSON plan, each example decided as it says under both rule sets', async () => {
    const result = await run(['plan', '--format', 'json', '--out', 'plan.json']);
    const plan = JSON.parse(result.stdout) as { behaviourDiff: { app: string; changes: { risk: string; before: { rule?: string }; after: { rule?: string }; classes: { example: TestRequest }[] }[]; unchecked: unknown[] }[] };
    expect(plan.behaviourDiff.map((diff) => diff.app)).toEqual(['default']);
    const [diff] = plan.behaviourDiff;
    expect(diff?.unchecked).toEqual([]);
    expect(diff?.changes.map((change) => change.risk)).toEqual(['allows', 'allows', 'allows', 'weakens']);
    for (const change of diff?.changes ?? []) {
      for (const { example } of change.classes) {
        expect(decide([a, b, c], example).rule?.name).toBe(change.before.rule);
        expect(decide(declared, example).rule?.name).toBe(change.after.rule);
      }
    }
    // The saved plan carries it too, and apply reads such a plan.
    expect(JSON.parse(await readFile(path.join(project.dir, 'plan.json'), 'utf8'))).toEqual(plan);
    expect((await run(['apply', '--plan', 'plan.json', '--auto-approve'])).code).toBe(0);
  });

  it('warns first in the Markdown plan, and groups the classes capped for the comment', async () => {
    const result = await run(['plan', '--format', 'markdown']);
    const lines = result.stdout.split('\n');
    expect(lines.slice(0, 10)).toContain('> - It allows, or blocks less strongly, 4 classes of requests (listed below).');
    const start = lines.indexOf('#### Every request: 4 classes of requests are decided differently:');
    expect(lines.slice(start, start + 4)).toEqual([
      '#### Every request: 4 classes of requests are decided differently:',
      '',
      '- **now allowed: &quot;A&quot; (hardBlock) → &quot;C&quot; (allow)**',
      '  - requests with user agent containing &quot;C&quot; and client address in &quot;203.0.113.0/24&quot; and user agent containing &quot;A&quot;, for example path &quot;/&quot;, method &quot;GET&quot;, userAgent &quot;C A&quot;, ip &quot;203.0.113.0&quot;',
    ]);
    // The classes are long: after the edits themselves (the table of rule changes, each diff).
    expect(start).toBeGreaterThan(lines.lastIndexOf('</details>'));
    expect(lines.indexOf('#### Rule changes (3 rules)')).toBeLessThan(12);
  });

  it('leaves it out with --no-behaviour-diff', async () => {
    const result = await run(['plan', '--no-behaviour-diff', '--format', 'json']);
    expect(JSON.parse(result.stdout)).not.toHaveProperty('behaviourDiff');
    expect((await run(['plan', '--no-behaviour-diff'])).stdout).not.toContain('Every request');
  });

  it('makes rule names from files safe in text', async () => {
    await project.writeRules([{ ...c, name: 'C\u001b[2J\u202e', ruleId: project.emulator.rules()[2]?.ruleId, actions: ['allow'] } as Rule, a, b]);
    const result = await run(['plan']);
    expect(result.stdout).toContain('\n  ! now allowed: "A" (hardBlock) → "C\\x1b[2J\\u202e" (allow)\n');
    expect(result.stdout).not.toContain('\u001b[2J');
  });
});
