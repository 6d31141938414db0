// The release workflow's steps, run here as the runner would run them (README, "Using the
// workflows"): in a clone of this repository whose `origin` is a bare repository standing for
// GitHub, `npm run bundle`, then the step that commits the bundle and pushes the tags. Then the
// action runs from the tag's commit, as `uses: <owner>/botrules@<that SHA>` fetches it: its
// own shell step and its bundle, against the emulator. What a team adopting the workflows does,
// but for GitHub itself.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startTestEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/temp.js';
import { lettered } from '../apply/fixtures.js';
import { isMap, mapAt, readYamlFile, REPO_ROOT, type YamlMap } from './workflow-files.js';
import { runBash, runJob } from './workflow-run.js';

const RELEASE = readYamlFile('.github/workflows/release.yml');
const VERSION = '1.2.3';

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' } });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

/** What each step of the release job is, for the log of what ran and what stood in for it. */
function label(step: YamlMap): string {
  if (typeof step.name === 'string') return step.name;
  if (typeof step.uses === 'string') return step.uses.replace(/@.*/, '');
  return String(step.run);
}

/**
 * Runs the release job's steps in `work`: checkout and setup-node are the clone and this Node,
 * `npm ci` is this checkout's node_modules (linked), the bundle's tests are the CI bundle job's
 * (they are this test's siblings); every other step runs as written.
 */
async function runRelease(work: string, summary: string): Promise<string[]> {
  const steps = mapAt(mapAt(RELEASE.data, 'jobs'), 'release').steps;
  if (!Array.isArray(steps)) throw new Error('release.yml: the release job has no steps');
  const log: string[] = [];
  for (const step of steps.filter(isMap)) {
    const name = label(step);
    if (typeof step.uses === 'string' && /^actions\/(checkout|setup-node)@/.test(step.uses)) {
      log.push(`stand-in: ${name}`);
    } else if (typeof step.run === 'string' && step.run.startsWith('npm ci ')) {
      symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(work, 'node_modules'));
      log.push(`stand-in: ${name}`);
    } else if (name === 'Test the bundle') {
      log.push(`not run: ${name}`);
    } else if (typeof step.run === 'string') {
      const env = { VERSION, GH_TOKEN: 'not-a-real-token', ...Object.fromEntries(Object.entries(mapAt(step, 'env')).filter(([key]) => key !== 'VERSION' && key !== 'GH_TOKEN')) };
      const result = await runBash(step.run, work, {
        PATH: process.env.PATH ?? '', HOME: work, GIT_CONFIG_NOSYSTEM: '1', GITHUB_STEP_SUMMARY: summary, ...env,
      });
      if (result.status !== 0) throw new Error(`release step "${name}" failed (${String(result.status)}):\n${result.stdout}\n${result.stderr}`);
      log.push(`ran: ${name}`);
    } else {
      throw new Error(`no stand-in for the release step ${name}`);
    }
  }
  return log;
}

describe('the release workflow, run locally, and the action from its tag', () => {
  let root: string;
  let origin: string;
  let released: string;
  let tip: string;
  let log: string[];
  let summary: string;

  beforeAll(async () => {
    root = tempDir('botrules-release-');
    origin = path.join(root, 'origin.git');
    const work = path.join(root, 'work');
    git(root, 'clone', '--quiet', '--bare', '--no-local', REPO_ROOT, origin);
    git(root, 'clone', '--quiet', origin, work);
    tip = git(work, 'rev-parse', 'HEAD');
    summary = path.join(root, 'summary.md');
    writeFileSync(summary, '');
    log = await runRelease(work, summary);
    released = git(origin, 'rev-parse', `refs/tags/v${VERSION}^{commit}`);
  });

  it('runs every step of the release job, or says what stood in for it', () => {
    expect(log).toEqual([
      'stand-in: actions/checkout',
      'stand-in: actions/setup-node',
      'stand-in: npm ci --ignore-scripts --no-audit --no-fund',
      'ran: npm run bundle',
      'not run: Test the bundle',
      'ran: Commit the bundle and tag it',
    ]);
  });

  it('tags a commit on top of the default branch that adds the bundle and nothing else', () => {
    expect(git(origin, 'rev-parse', `refs/tags/v${VERSION.split('.')[0] ?? ''}^{commit}`)).toBe(released);
    expect(git(origin, 'rev-parse', `${released}^`)).toBe(tip);
    expect(git(origin, 'diff', '--name-status', tip, released)).toBe('A\tdist-action/botrules.mjs');
    // The default branch itself never carries the bundle.
    expect(git(origin, 'ls-tree', '--name-only', 'HEAD', 'dist-action/')).toBe('');
    expect(readFileSync(summary, 'utf8')).toBe(`Released v${VERSION} as ${released}: pin uses: to that SHA\n`);
  });

  it('runs the action from the tag\'s commit: its bundle imports, plans and reports against the emulator', async () => {
    // `uses: <owner>/botrules@<SHA>` gives the runner that commit's files, and nothing else.
    const action = path.join(root, 'action');
    git(root, 'clone', '--quiet', '--no-checkout', origin, action);
    git(action, 'checkout', '--quiet', '--detach', released);
    expect(existsSync(path.join(action, 'node_modules'))).toBe(false);
    const rulesRepo = path.join(root, 'rules-repository');
    const runnerTemp = path.join(root, 'runner-temp');
    mkdirSync(rulesRepo);
    mkdirSync(runnerTemp);
    const pin = `your-org/botrules@${released}`;
    const emu = await startTestEmulator({ seedRules: lettered(3) });
    try {
      const records = await runJob([
        { id: 'import', uses: pin, with: { command: 'import' }, env: { BOTRULES_TOKEN: '${{ secrets.BOTRULES_TOKEN }}' } },
        { id: 'plan', uses: pin, with: { command: 'plan' }, env: { BOTRULES_TOKEN: '${{ secrets.BOTRULES_TOKEN }}' } },
      ], {
        cwd: rulesRepo,
        actionPath: action,
        context: { 'secrets.BOTRULES_TOKEN': emu.env.BOTRULES_TOKEN ?? '' },
        env: {
          PATH: process.env.PATH ?? '',
          HOME: root,
          RUNNER_TEMP: runnerTemp,
          BOTRULES_CONSOLE_URL: emu.env.BOTRULES_CONSOLE_URL ?? '',
          NODE_EXTRA_CA_CERTS: emu.env.NODE_EXTRA_CA_CERTS ?? '',
        },
        otherAction: () => false,
      });
      expect(records.map((r) => [r.id, r.result?.status, r.outputs.exitcode, r.outputs['has-changes']])).toEqual([
        ['import', 0, '0', 'false'],
        ['plan', 0, '0', 'false'],
      ]);
      expect(readdirSync(path.join(rulesRepo, 'rules'))).toHaveLength(3);
      expect(records[1]?.result?.stdout).toContain('No changes');
      expect(emu.emulator.log.filter((entry) => entry.method === 'PATCH')).toEqual([]);
    } finally {
      await emu.close();
    }
  });
});
