// The behaviour diff of `botrules plan`: with test files, the plan says which test requests
// change outcome between the live rules and the rules as they will be after apply, in text
// and Markdown; without tests it says nothing; bad test files stop it before any request.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { lettered, rule } from '../apply/fixtures.js';
import { emulatorProjectForEachTest } from '../helpers/emulator-project.js';

const project = emulatorProjectForEachTest({ seedRules: lettered(4) });
beforeEach(async () => {
  const [a, b, c, d] = lettered(4) as [ReturnType<typeof rule>, ReturnType<typeof rule>, ReturnType<typeof rule>, ReturnType<typeof rule>];
  // Declared: D first, B paused, C allows instead of blocking.
  await project.writeRules([d, a, { ...b, status: 'paused' }, { ...c, actions: ['allow'] }]);
});

const run = (argv: string[]) => project.run(argv);
const request = (agent: string) => `{ userAgent: "${agent}", ip: 203.0.113.7 }`;

async function writeTests(body: string, dir = 'tests'): Promise<void> {
  await mkdir(path.join(project.dir, dir), { recursive: true });
  await writeFile(path.join(project.dir, dir, 'traffic.yaml'), body);
}

const TESTS = [
  'tests:',
  `  - name: agent A\n    request: ${request('A')}\n    expect: { rule: A }`,
  `  - name: agent B\n    request: ${request('B')}\n    expect: { rule: none }`,
  `  - name: agent C\n    request: ${request('C')}\n    expect: { rule: C, actions: [allow] }`,
  `  - name: agents A and D\n    request: ${request('A D')}\n    expect: { rule: D }`,
  '',
].join('\n');

describe('plan: behaviour diff', () => {
  it('lists each test request whose deciding rule or actions change, in text', async () => {
    await writeTests(TESTS);
    const result = await run(['plan']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain([
      'Behaviour changes: the plan changes the outcome of 3 of the 4 test requests:',
      '    ≠ "agent B" (tests/traffic.yaml:5:5): live → "B" (hardBlock); declared → no rule',
      '    ≠ "agent C" (tests/traffic.yaml:8:5): live → "C" (hardBlock); declared → "C" (allow)',
      '    ≠ "agents A and D" (tests/traffic.yaml:11:5): live → "A" (hardBlock); declared → "D" (hardBlock)',
      '',
    ].join('\n'));
    expect(result.stdout).not.toContain('"agent A"');
  });

  it('predicts what the live rules decide once the plan is applied', async () => {
    // The tests expect the declared outcomes: the live rules fail exactly the changed ones now…
    await writeTests(TESTS);
    expect((await run(['live', '--out', 'before.json'])).code).toBe(0);
    const before = await run(['test', '--live', 'before.json']);
    expect(before.stdout).toContain('4 tests: 1 passed, 3 failed');
    // …and pass them all after apply, when the plan has nothing more to change.
    expect((await run(['apply', '--auto-approve'])).code).toBe(0);
    expect((await run(['live', '--out', 'after.json'])).code).toBe(0);
    expect((await run(['test', '--live', 'after.json'])).stdout).toContain('4 tests: 4 passed, 0 failed');
    expect((await run(['plan'])).stdout).not.toContain('Behaviour');
  });

  it('puts the same list in the Markdown plan, before the rule changes', async () => {
    await writeTests(TESTS);
    const result = await run(['plan', '--format', 'markdown']);
    expect(result.code).toBe(0);
    const behaviour = result.stdout.indexOf('\n#### Behaviour changes: the plan changes the outcome of 3 of the 4 test requests:\n');
    expect(behaviour).toBeGreaterThan(0);
    // Said first, with the other things a reviewer must judge.
    expect(result.stdout.split('\n').slice(0, 8)).toContain('> - It changes the outcome of 3 of the 4 test requests (listed below).');
    // Quotes are HTML-escaped like all text from files; GitHub shows them as quotes.
    expect(result.stdout).toContain('- &quot;agent B&quot; (tests/traffic.yaml:5:5): live → &quot;B&quot; (hardBlock); declared → no rule\n');
    expect(behaviour).toBeLessThan(result.stdout.indexOf('<details>'));
  });

  it('says so in one line when no test request changes outcome', async () => {
    await writeTests(`tests:\n  - name: agent A\n    request: ${request('A')}\n    expect: { rule: A }\n`);
    const result = await run(['plan']);
    expect(result.stdout).toContain('\nBehaviour: the plan changes the outcome of none of the 1 test request.\n');
  });

  it('says nothing without a tests directory, and reads another one with --tests', async () => {
    expect((await run(['plan'])).stdout).not.toContain('Behaviour');
    await writeTests(TESTS, 'checks');
    const result = await run(['plan', '--tests', 'checks']);
    expect(result.stdout).toContain('3 of the 4 test requests');
    const missing = await run(['plan', '--tests', 'nowhere']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('tests directory "nowhere" does not exist');
  });

  it('refuses bad test files at their line before any request', async () => {
    await writeTests('tests:\n  - name: x\n    request: { path: /a }\n    expect: { rule: A }\n    bogus: 1\n');
    const result = await run(['plan']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^tests\/traffic\.yaml:5:5: /m);
    expect(project.emulator.log).toHaveLength(0);
  });

  it('neutralises test names in both formats', async () => {
    await writeTests(`tests:\n  - name: "evil \\e[2J @team ![x](https://e.example/x.png)"\n    request: ${request('B')}\n    expect: { rule: none }\n`);
    const text = await run(['plan']);
    expect(text.stdout).toContain('"evil \\x1b[2J @team ![x](https://e.example/x.png)"');
    expect(text.stdout).not.toContain('\u001b[2J');
    const markdown = await run(['plan', '--format', 'markdown']);
    expect(markdown.stdout.replace(/`[^`\n]*`|<code>.*?<\/code>/g, '')).not.toContain('@team');
    expect(markdown.stdout).not.toContain('![x]');
  });
});
