// Runs `npm run demo` as a user would (the built CLI in child processes against the
// embedded emulator) and checks that every step ran with the exit code it documents.
import { spawn } from 'node:child_process';

function runDemo(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/demo.js'], { env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('npm run demo', () => {
  it('runs validate, plan, apply, a clean plan, a script report and a diff, and exits 0', async () => {
    const { code, output } = await runDemo();
    expect(output).toContain('Demo complete.');
    expect(code).toBe(0);
    const headings = output.split('\n').filter((l) => l.startsWith('=== ')).map((l) => l.slice(4));
    expect(headings).toEqual([
      'Validate the rule files',
      'Plan: what would change (exit 2 = changes present)',
      'Apply the plan',
      'Plan again: the live rules now match the files',
      'Script inventory snapshot of last week',
      'Script inventory snapshot of this week',
      "This week's inventory as Markdown (for $GITHUB_STEP_SUMMARY)",
      'What changed since last week (exit 3 = a --fail-on condition matched)',
    ]);
    expect(output).toMatch(/=== Plan again[^\n]*\n[^\n]*\n(?:.*\n)*?\(exit 0\)/);
    expect(output).not.toMatch(/demo-(api-)?[0-9a-f]{24}/);
  }, 90_000);
});
