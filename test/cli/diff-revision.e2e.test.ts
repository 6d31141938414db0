// `botrules diff REV:DIR NEW` through the real binary: one side read from git at a revision
// (`main:rules`), as a reviewer compares a branch with its base without checking it out.
import { execFileSync } from 'node:child_process';
import type { NormalRule } from '../../src/semantics/model.js';
import { lettered, tempProject, writeRules, type Project } from '../apply/fixtures.js';
import { runBinary } from '../helpers/binary.js';

let project: Project;
const [a, b] = lettered(2) as [NormalRule, NormalRule];

function git(...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: project.dir, stdio: 'ignore' });
}

beforeEach(async () => {
  project = await tempProject();
  await writeRules(project.rulesDir, [a, b]);
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'rules');
});

afterEach(async () => {
  await project.close();
});

it('compares the rules of a revision with the working tree', async () => {
  await writeRules(project.rulesDir, [{ ...a, actions: ['allow'] }, b]);
  const result = await runBinary(project.dir, 'diff', 'main:rules', 'rules');
  expect(result.code).toBe(2);
  expect(result.stdout.split('\n')[0]).toBe('Comparing main:rules (2 rules) with rules (2 rules).');
  expect(result.stdout).toContain('now allowed: "A" (hardBlock) → "A" (allow)');
});

it('the same rules at the revision and on disk: no class decided differently, exit 0', async () => {
  const result = await runBinary(project.dir, 'diff', 'main:rules', 'rules');
  expect(result.code).toBe(0);
  expect(result.stdout.split('\n')[0]).toBe('Comparing main:rules (2 rules) with rules (2 rules).');
});

it('a revision that does not exist is an error naming it, exit 1', async () => {
  const result = await runBinary(project.dir, 'diff', 'nope:rules', 'rules');
  expect(result.code).toBe(1);
  expect(result.stderr.split('\n')[0]).toBe('error: the side "nope:rules" names revision "nope": cannot read the rule files at that revision (fatal: Not a valid object name nope)');
});

it('a rule file broken at the revision is reported at its line, prefixed by the revision', async () => {
  await writeRules(project.rulesDir, [a, { ...b, actions: [] } as NormalRule]);
  git('commit', '-q', '-a', '-m', 'broken');
  await writeRules(project.rulesDir, [a, b]);
  const result = await runBinary(project.dir, 'diff', 'HEAD:rules', 'rules');
  expect(result.code).toBe(1);
  expect(result.stderr.split('\n')[0]).toMatch(/^HEAD:rules\/020-rule\.yaml:\d+:\d+: /);
});

it('holds a rule file at a revision to the 1 MiB of a rule file on disk, without reading it (a 200 MB one was parsed whole)', async () => {
  const { rm, writeFile } = await import('node:fs/promises');
  await writeFile(`${project.rulesDir}/big.yaml`, `# ${'x'.repeat(2 * 1024 * 1024)}\nrules: []\n`);
  git('add', '-A');
  git('commit', '-q', '-m', 'big');
  await rm(`${project.rulesDir}/big.yaml`);
  const result = await runBinary(project.dir, 'diff', 'main:rules', 'rules');
  expect(result.stdout).toBe('');
  expect(result.stderr).toContain('main:rules/big.yaml:1:1: the file is too large: 2.0 MiB (2097165 bytes); the limit is 1.0 MiB (1048576 bytes)');
  expect(result.code).toBe(1);
});
