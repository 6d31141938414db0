// git runs with none of the repository's own commands (docs/security.md, "git"): a checkout
// whose .git/config names a file-system monitor, a pager and a text conversion that each write
// a marker file; `plan` (which reads the rules' history) and `scripts evidence` (which reads
// the policy's history with git log and git status) through the real binary create none of
// them. And no token of the environment reaches git: a `git` first on PATH records what it got.
import { execFile } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { runCli } from '../helpers/cli.js';
import { CLI_BINARY } from '../helpers/binary.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { lettered, tempProject, writeRules, type Project } from '../apply/fixtures.js';

const run = promisify(execFile);
const GIT_IDENTITY = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
const MARKERS = ['fsmonitor-ran', 'pager-ran', 'textconv-ran', 'gpg-ran', 'filter-ran'];

let emu: TestEmulator;
let project: Project;

beforeEach(async () => {
  // A live rule in no file (D) makes plan read the rules' history to tell whether it was removed.
  emu = await startTestEmulator({ seedRules: lettered(4), generateScripts: 5 });
  project = await tempProject();
  await writeRules(project.rulesDir, lettered(3));
  await writeFile(path.join(project.dir, 'scripts-policy.yaml'), 'approved:\n  - vendor: Example\n    justification: test\n    owner: test-team\n');
  const snapshot = await runCli(['scripts', 'report', '--app-id', 'app-demo', '--tld', 'shop.example.com', '--from', '30d', '--out', 'snaps/s.json'], { env: emu.env, cwd: await snapshotsDir() });
  expect(snapshot.code).toBe(0);
  await hostileRepository();
});

afterEach(async () => {
  await emu.close();
  await project.close();
});

async function snapshotsDir(): Promise<string> {
  await mkdir(path.join(project.dir, 'snaps'), { recursive: true });
  return project.dir;
}

/** A committed repository whose config names three commands, each of which writes its marker. */
async function hostileRepository(): Promise<void> {
  const git = (args: string[]) => run('git', args, { cwd: project.dir, env: { PATH: process.env.PATH, HOME: project.dir, GIT_CONFIG_NOSYSTEM: '1', ...GIT_IDENTITY } });
  await writeFile(path.join(project.dir, '.gitattributes'), '*.yaml diff=evil filter=evil\n');
  await git(['init', '-q']);
  await git(['add', '.']);
  await git(['commit', '-qm', 'rules and policy']);
  await signedHead(git);
  await writeFile(path.join(project.dir, 'scripts-policy.yaml'), 'approved:\n  - vendor: Example\n    justification: changed\n    owner: test-team\n');
  // The same rules written again: a new modification time makes git read them (through the clean filter).
  await writeRules(project.rulesDir, lettered(3));
  const marker = (name: string) => `touch ${JSON.stringify(path.join(project.dir, name))}`;
  await git(['config', 'core.fsmonitor', `${marker('fsmonitor-ran')}; false`]);
  await git(['config', 'core.pager', `${marker('pager-ran')}; cat`]);
  await git(['config', 'diff.evil.textconv', `${marker('textconv-ran')}; cat`]);
  // git status runs the clean filter of a changed file to compare it with the index.
  await git(['config', 'filter.evil.clean', `${marker('filter-ran')}; cat`]);
  // With log.showSignature, git log verifies a signed commit by running gpg.program.
  const gpg = path.join(project.dir, '.gpg.sh');
  await writeFile(gpg, `#!/bin/sh\n${marker('gpg-ran')}\nexit 1\n`);
  await chmod(gpg, 0o755);
  await git(['config', 'log.showSignature', 'true']);
  await git(['config', 'gpg.program', gpg]);
}

/** HEAD replaced by the same commit with a (bogus) signature header, so git log has one to verify. */
async function signedHead(git: (args: string[]) => Promise<{ stdout: string }>): Promise<void> {
  const commit = (await git(['cat-file', 'commit', 'HEAD'])).stdout;
  const signed = commit.replace('\n\n', '\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n AAAA\n -----END PGP SIGNATURE-----\n\n');
  const file = path.join(project.dir, '.signed-commit');
  await writeFile(file, signed);
  const id = (await git(['hash-object', '-t', 'commit', '-w', file])).stdout.trim();
  await git(['update-ref', 'HEAD', id]);
}

/** A `git` first on PATH that appends the names of the tokens it was given to a log, then runs git. */
async function recordingGit(): Promise<{ path: string; log: string }> {
  const bin = path.join(project.dir, '.bin');
  await mkdir(bin);
  const log = path.join(project.dir, '.git-env.log');
  const real = (await run('sh', ['-c', 'command -v git'])).stdout.trim();
  const shim = `#!/bin/sh\nenv | grep -E '^(GH_TOKEN|GITHUB_TOKEN|BOTRULES_[A-Z_]*TOKEN)=' | cut -d= -f1 >> ${JSON.stringify(log)}\necho call >> ${JSON.stringify(log)}\nexec ${JSON.stringify(real)} "$@"\n`;
  await writeFile(path.join(bin, 'git'), shim);
  await chmod(path.join(bin, 'git'), 0o755);
  return { path: `${bin}:${process.env.PATH ?? ''}`, log };
}

async function binary(args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run(process.execPath, [CLI_BINARY, ...args], { cwd: project.dir, env: { ...emu.env, HOME: project.dir, ...env } });
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { code: failed.code ?? -1, stderr: failed.stderr ?? '' };
  }
}

async function markersLeft(): Promise<string[]> {
  return (await readdir(project.dir)).filter((name) => MARKERS.includes(name));
}

it.each([
  ['plan', ['plan'], 0],
  ['scripts evidence', ['scripts', 'evidence', 'snaps', '--from', '30d'], 2],
] as const)('%s runs none of the commands the repository configures, and gives git no token', async (_name, args, exitCode) => {
  const git = await recordingGit();
  const result = await binary([...args], { PATH: git.path, GH_TOKEN: 'gh-token-for-the-push-only', GITHUB_TOKEN: 'another-token' });
  expect(result.stderr).not.toMatch(/internal error/);
  expect(result.code).toBe(exitCode);
  const calls = (await readFile(git.log, 'utf8')).split('\n').filter((line) => line !== '');
  // git did run (history was read), and it never saw a token.
  expect(calls.filter((line) => line === 'call').length).toBeGreaterThan(0);
  expect(calls.filter((line) => line !== 'call')).toEqual([]);
  expect(await markersLeft()).toEqual([]);
});
