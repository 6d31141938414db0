// Runs `npm run demo` as a user would (the built CLI in child processes against the
// embedded emulator) and checks that every step ran with the exit code it documents, that the
// rules story comes first, that the output stays short, and that the files it says it keeps exist.
import { spawn } from 'node:child_process';
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
    expect(output).toContain('Demo complete. Kept:');
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
    expect(output.split('\n').length).toBeLessThan(150);
    for (const name of ['undo-plan.json', 'scripts-last-week.json', 'scripts-this-week.json']) {
      const file = path.join(keep, name);
      expect(output).toContain(`  ${file}\n`);
      expect(existsSync(file)).toBe(true);
    }
    expect(output).not.toMatch(/demo-(api-)?[0-9a-f]{24}/);
  });
});
