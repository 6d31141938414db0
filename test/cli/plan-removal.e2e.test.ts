// Deleting a rule file, through the real binary against the emulator: the service cannot
// delete rules, so the rule stays live, and every plan format names it with what happens to
// it; `--detailed-exitcode` exits 2 while it stays active (docs/behaviour.md, "Removed rules").
// git and the binary spawned several times a test (14.6 s at a load average of 22): the slow
// tier, with a 120 s limit.
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { CLI_BINARY } from '../helpers/binary.js';
import { matrixCoverageLine } from '../helpers/operator-matrix.js';
import { lettered, patches, tempProject, writeConfig, writeRules, type Project } from '../apply/fixtures.js';

let emu: TestEmulator;
let project: Project;
let idOfC: string;

const GIT_ENV = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_NOSYSTEM: '1' };

function run(file: string, argv: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, argv, { cwd: project.dir, env: { ...emu.env, PATH: process.env.PATH, HOME: project.dir, NO_COLOR: '1', ...GIT_ENV, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr }),
    );
  });
}

const botrules = (argv: string[]) => run(process.execPath, [CLI_BINARY, ...argv]);

async function git(argv: string[]): Promise<void> {
  const result = await run('git', argv);
  if (result.code !== 0) throw new Error(`git ${argv.join(' ')}: ${result.stderr}`);
}

beforeEach(async () => {
  emu = await startTestEmulator({ seedRules: lettered(3) });
  project = await tempProject();
  idOfC = emu.emulator.rules().find((rule) => rule.name === 'C')?.ruleId ?? '';
  await writeRules(project.rulesDir, lettered(3));
});

afterEach(async () => {
  await emu.close();
  await project.close();
});

/** Commits A, B and C as files, then deletes C's file: the pull request that "removes rule C". */
async function removeC(): Promise<void> {
  await git(['init', '-q']);
  await git(['add', '.']);
  await git(['commit', '-qm', 'rules A, B and C']);
  await rm(path.join(project.rulesDir, '030-rule.yaml'));
}

const REMOVED = 'removed from the files: stays live and ACTIVE — the service cannot delete rules';

/** What operator-matrix did not check, after the plan (the rules' socketIps leaves). */
const COVERAGE = matrixCoverageLine('rules/010-rule.yaml:2:5', 'socketIps', 2, 'A');

describe('a rule file deleted', () => {
  it('is named in text, JSON and Markdown, and plan --detailed-exitcode exits 2', async () => {
    await removeC();
    const summary = 'Plan: 0 PATCH requests: 0 to update, 0 to move; 0 rules change position; 0 blocked; 1 not in the files, kept (1 removed from the files, left ACTIVE)';

    const text = await botrules(['plan', '--detailed-exitcode']);
    expect(text.code).toBe(2);
    expect(text.stdout.split('\n')).toEqual([
      summary,
      '',
      'Not in the rule files (1 live rule):',
      `  ! "C" (${idOfC}): ${REMOVED}; to stop it, keep its file with status: paused, or set unmanaged: pause`,
      '',
      summary,
      '',
      COVERAGE,
      '',
    ]);

    const json = await botrules(['plan', '--format', 'json']);
    expect(json.code).toBe(0);
    const plan = JSON.parse(json.stdout);
    expect(plan.apps[0].unmanaged).toEqual([{ ruleId: idOfC, name: 'C', status: 'active', removedFromFiles: true, fate: 'stays live and ACTIVE' }]);
    expect(plan.summary).toMatchObject({ patches: 0, unmanaged: 1, removed: 1, removedActive: 1 });

    const markdown = (await botrules(['plan', '--format', 'markdown'])).stdout.split('\n');
    expect(markdown.slice(0, 7)).toEqual([
      '### botrules plan',
      '',
      '> [!CAUTION]',
      "> **Needs a reviewer's attention: what this plan loosens or leaves active, and what it changes**",
      '>',
      `> - **C** ${REMOVED}`,
      '',
    ]);
    expect(markdown).toContain(`| **C** | <code>${idOfC}</code> | ${REMOVED}; to stop it, keep its file with status: paused, or set unmanaged: pause |`);
    expect(markdown).not.toContain('No changes. Live rules match the rule files.');
    expect(patches(emu.emulator)).toHaveLength(0);
  });

  it('under unmanaged: pause, removal means pausing: the plan pauses it, and apply does', async () => {
    await writeConfig(project.dir, { unmanaged: 'pause', apps: [{ name: 'default', rulesDir: 'rules' }] });
    await removeC();
    const text = await botrules(['plan', '--detailed-exitcode']);
    expect(text.code).toBe(2);
    expect(text.stdout.split('\n')).toContain(`  - "C" (${idOfC}): removed from the files: paused by this plan (unmanaged: pause) — the service cannot delete rules`);
    expect(text.stdout.split('\n')).toContain(`~ "C" (${idOfC}): pauses it (no rule file declares it)`);
    expect((await botrules(['apply', '--auto-approve'])).code).toBe(0);
    const after = await botrules(['plan', '--detailed-exitcode']);
    expect(after.code).toBe(0);
    expect(after.stdout.split('\n')).toEqual([
      'No changes. Live rules match the rule files.',
      'Not in the rule files (1 live rule):',
      `  - "C" (${idOfC}): removed from the files: stays live, paused — the service cannot delete rules`,
      '',
      COVERAGE,
      '',
    ]);
  });

  it('outside a git repository, every undeclared rule is still named, and the plan says why removals cannot be told', async () => {
    await rm(path.join(project.rulesDir, '030-rule.yaml'));
    const text = await botrules(['plan', '--detailed-exitcode']);
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')).toEqual([
      'No changes. Live rules match the rule files.',
      'Not in the rule files (1 live rule):',
      `  - "C" (${idOfC}): declared in no rule file: stays live and ACTIVE`,
      '',
      'Rules removed from the files cannot be told apart from rules never declared: the rules directory is not in a git repository (or git is not installed).',
      '',
      COVERAGE,
      '',
    ]);
  });
});
