// `botrules github drift-issue` (the report job of drift.yml) against a fake GitHub API over
// HTTPS: one issue per app opened, updated and closed, and only an issue the workflow's bot
// opened with the label and the exact title is ever touched.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { startFakeGitHub, type FakeGitHub, type FakeIssue } from './fake-github.js';

let github: FakeGitHub;
let dir: string;

beforeEach(async () => {
  github = await startFakeGitHub();
  dir = tempDir('botrules-drift-issue-');
});

afterEach(() => github.close());

function keepReport(app: string, plan: string, hasChanges: boolean): void {
  const folder = path.join(dir, 'reports', `botrules-drift-${app}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'plan.md'), plan);
  writeFileSync(path.join(folder, 'has-changes'), `${hasChanges}\n`);
}

const report = () => runCli(['github', 'drift-issue', '--reports', 'reports', '--run-url', 'https://github.example/run/1'], { cwd: dir, env: github.env });
const issue = (number: number, extra: Partial<FakeIssue> = {}): FakeIssue => ({
  number, state: 'open', title: 'botrules drift: shop', body: 'old', user: { login: 'github-actions[bot]' }, labels: [{ name: 'botrules-drift' }], ...extra,
});

describe('botrules github drift-issue', () => {
  it('opens a labelled issue per drifting app, updates it on the next run, and closes it once the rules match', async () => {
    keepReport('shop', 'Plan: 1 to update\n', true);
    keepReport('blog', '', false);
    const first = await report();
    expect(first.stderr).toBe('');
    expect(first.stdout).toBe('No drift for app blog.\nOpened the drift issue #40 of app shop\n');
    expect(github.issues.map((i) => [i.number, i.title, i.labels])).toEqual([[40, 'botrules drift: shop', [{ name: 'botrules-drift' }]]]);
    expect(github.issues[0]?.body.split('\n')).toEqual([
      'The live rules of `shop` differ from git ([run](https://github.example/run/1)).',
      '',
      'Either bring the console back to git (run the apply workflow), or adopt the console edits:',
      'run `botrules import --update --app shop` locally, review `git diff`, and open a pull request',
      '(or use the drift pull-request workflow, drift-pr.yml, which does this every day).',
      '',
      'Plan: 1 to update',
    ]);
    keepReport('shop', 'Plan: 2 to update\n', true);
    expect((await report()).stdout).toBe('No drift for app blog.\nUpdated the drift issue #40 of app shop\n');
    expect(github.issues[0]?.body.split('\n').at(-1)).toBe('Plan: 2 to update');
    keepReport('shop', '', false);
    expect((await report()).stdout).toBe('No drift for app blog.\nClosed the drift issue #40 of app shop\n');
    expect([github.issues[0]?.state, github.issues[0]?.state_reason]).toEqual(['closed', 'completed']);
    expect(github.comments.get(40)?.map((c) => c.body)).toEqual(['The live rules of `shop` match git again ([run](https://github.example/run/1)).']);
  });

  it('never touches an issue someone else opened, one without the label, another title or a pull request', async () => {
    github.issues.push(
      issue(1, { user: { login: 'mallory' } }),
      issue(2, { labels: [] }),
      issue(3, { title: 'botrules drift: shop (copy)' }),
      issue(4, { pull_request: {} }),
    );
    keepReport('shop', 'Plan\n', true);
    expect((await report()).stdout).toBe('Opened the drift issue #44 of app shop\n');
    expect(github.issues.slice(0, 4).map((i) => i.body)).toEqual(['old', 'old', 'old', 'old']);
  });
});
