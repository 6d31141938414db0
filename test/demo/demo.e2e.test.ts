// Runs `npm run demo` as a user would (the built CLI in child processes against the
// embedded emulator) and checks that every step ran with the exit code it documents, that the
// rules story comes first, that the output stays short, and that the files it says it keeps exist.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers/temp.js';

function runDemo(keep: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/demo.js'], { env: { ...process.env, NO_COLOR: '1', BOTRULES_DEMO_DIR: keep } });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('npm run demo', () => {
  it('tells the rules story, then the inventory in short, keeps its files and exits 0', async () => {
    // A directory that does not exist yet: the demo makes it.
    const keep = path.join(tempDir('botrules-demo-test-'), 'kept', 'here');
    const { code, output } = await runDemo(keep);
    expect(output).toContain(`Demo complete. Kept in ${keep}:`);
    expect(code).toBe(0);
    const headings = output.split('\n').filter((l) => l.startsWith('=== ')).map((l) => l.slice(4));
    expect(headings).toEqual([
      'Validate the rule files',
      'Plan: what would change (exit 2 = changes present)',
      'Apply the plan, keeping the plan that undoes it',
      'Plan again: the live rules now match the files',
      'Add a rule: declared in a new file, it is blocked until it exists live (exit 1)',
      'Replay a day of synthetic traffic (botrules emulator --write-traffic) against the plan: who would be blocked',
      'Script inventory: last week and this week as JSON snapshots (audit evidence)',
      'What changed since last week, in short (exit 3 would say a --fail-on condition matched)',
    ]);
    expect(output).toMatch(/=== Plan again[^\n]*\n[^\n]*\n(?:.*\n)*?\(exit 0\)/);
    expect(output).toMatch(/^\d+ new \(\d+ of them high risk\), \d+ gone, \d+ changed, \d+ unchanged scripts\.$/m);
    // The add-a-rule story: the console steps, the placeholder created paused where they say, its ruleId pinned, the rest applied.
    expect(output).toMatch(/^ {6}1\. In the console, create a rule named "Block scrapers" with status paused, at position (\d+) \(directly below "[^"]+"\)\.$/m);
    expect(output).toMatch(/^Created "Block scrapers" \([\w-]+\) at position \d+, paused\.$/m);
    expect(output).toMatch(/^pinned rule "Block scrapers" to ruleId [\w-]+$/m);
    expect(output).toMatch(/^✓ updated "Block scrapers" \(status, actions, conditions\)$/m);
    // The README promises under 100 lines.
    expect(output.split('\n').length).toBeLessThan(100);
    expect(output).toContain('\n  traffic.ndjson, undo-plan.json, scripts-last-week.json, scripts-this-week.json (delete the directory when you are done with them)\n');
    for (const name of ['traffic.ndjson', 'undo-plan.json', 'scripts-last-week.json', 'scripts-this-week.json']) expect(existsSync(path.join(keep, name))).toBe(true);
    // The replay warns that apply refuses beyond the traffic limit: the demo says why it accepts
    // it, and applies with the same traffic and --force (not silently without --replay).
    expect(output).toMatch(/^warning: plan for app default would newly block or challenge (\d+) of the 20000 replayed requests .*; apply will refuse it without --force$/m);
    expect(output).toMatch(/^The \d+ newly blocked requests are the curl\/ scrapers this rule is for: apply with the same traffic, and --force to accept them\.\n\$ botrules apply --auto-approve --dir "\$DEMO"\/rules --replay "\$DEMO"\/traffic\.ndjson --force --no-color$/m);
    // Every echoed command can be pasted into a shell: the rule's name stays one argument.
    const create = /^\$ botrules (emulator console create .*)$/m.exec(output)?.[1] ?? '';
    const words = await new Promise<string>((resolve, reject) => execFile('bash', ['-c', `printf '%s\\n' ${create}`], (error, stdout) => (error ? reject(error) : resolve(stdout))));
    expect(words.split('\n')).toEqual(['emulator', 'console', 'create', 'Block scrapers', '--paused', '--position', expect.stringMatching(/^\d+$/), '']);
    expect(output).not.toMatch(/demo-(api-)?[0-9a-f]{24}/);
  });
});
