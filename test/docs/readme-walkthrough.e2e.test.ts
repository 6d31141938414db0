// The README's emulator walkthrough runs as pasted: its shell block is taken from README.md and
// run by bash in a scratch directory laid out like a clone (the rule files, and `npx botrules`
// resolving to this checkout's bin/botrules.js), against the emulator the block itself starts.
// A renamed option, a wrong path or a race in the README makes this test fail.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from '../helpers/temp.js';

const ROOT = path.join(import.meta.dirname, '..', '..');
const MARKER = '<!-- walkthrough:';

/** The first ```sh block after the walkthrough marker comment, exactly as the README shows it. */
function walkthroughBlock(readme: string): string {
  const start = readme.indexOf(MARKER);
  if (start < 0) throw new Error('README.md has no walkthrough marker');
  const match = /```sh\n([\s\S]*?)```/.exec(readme.slice(start));
  if (match === null) throw new Error('no ```sh block after the walkthrough marker');
  return match[1] as string;
}

/** A directory that looks like a clone to the walkthrough: rules/ and a node_modules with botrules. */
function cloneLikeDirectory(): string {
  const dir = tempDir('botrules-walkthrough-');
  cpSync(path.join(ROOT, 'rules'), path.join(dir, 'rules'), { recursive: true });
  mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(ROOT, path.join(dir, 'node_modules', 'botrules'));
  symlinkSync(path.join('..', 'botrules', 'bin', 'botrules.js'), path.join(dir, 'node_modules', '.bin', 'botrules'));
  return dir;
}

test('the README emulator walkthrough runs as pasted and leaves no emulator behind', async () => {
  const block = walkthroughBlock(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  expect(block).toContain('npx botrules emulator');
  const dir = cloneLikeDirectory();
  writeFileSync(path.join(dir, 'walkthrough.sh'), block);
  // Only what a fresh shell has: none of this run's tokens or URLs.
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, TMPDIR: process.env.TMPDIR ?? '' };
  // bash -e: any failing command fails the walkthrough. The run ends only when every process
  // holding its output has exited, so a lingering emulator would time the test out.
  const { stdout, stderr } = await promisify(execFile)('bash', ['-e', 'walkthrough.sh'], { cwd: dir, env, timeout: 150_000 });
  expect(stderr).toContain('emulator stopped; state saved');
  expect(stdout).toMatch(/^\d+ files, \d+ rules: valid$/m);
  expect(stdout).toContain('No changes. Live rules match the rule files.');
  // The add-a-rule story: blocked with the console steps, created paused, pinned, then only its fields.
  expect(stdout).toMatch(/^ {6}1\. In the console, create a rule named "Block scrapers" with status paused, at position 9 \(directly below "[^"]+"\)\.$/m);
  expect(stdout).toMatch(/^Created "Block scrapers" \([\w-]+\) at position 9, paused\.$/m);
  expect(stdout).toMatch(/^pinned rule "Block scrapers" to ruleId [\w-]+$/m);
  expect(stdout).toMatch(/^~ "Block scrapers" \([\w-]+\): updates status, actions, conditions$/m);
  expect(stdout).toMatch(/^Verified: live rules of app default match the rule files\.$/m);
  const live = JSON.parse(readFileSync(path.join(dir, 'live-rules.json'), 'utf8')) as { content: unknown[] };
  expect(live.content.length).toBeGreaterThan(20);
  // It worked on a copy: the example rules are exactly as in the clone, so `npm run demo` (which
  // adds "Block scrapers" itself) still runs afterwards.
  const files = (rulesDir: string): [string, string][] => readdirSync(rulesDir).sort().map((name) => [name, readFileSync(path.join(rulesDir, name), 'utf8')]);
  expect(files(path.join(dir, 'rules'))).toEqual(files(path.join(ROOT, 'rules')));
  expect(files(path.join(dir, 'walkthrough-rules')).map(([name]) => name)).toContain('90-block-scrapers.yaml');
  // The exports file goes away with the emulator, so the next run's wait cannot see a stale one.
  expect(existsSync(path.join(dir, 'emulator.env'))).toBe(false);
});
