// `botrules github plan-comment` against a fake GitHub API over HTTPS: one comment per app,
// created once and then updated in place; only a comment written by exactly the workflow's
// bot and starting with the app's marker is ever edited.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';

let github: FakeGitHub;
let dir: string;

beforeEach(async () => {
  github = await startFakeGitHub();
  dir = tempDir('botrules-plan-comment-');
});

afterEach(() => github.close());

function keepPlan(app: string, plan: string, exitCode: string): void {
  mkdirSync(path.join(dir, 'plans', `botrules-plan-${app}`), { recursive: true });
  writeFileSync(path.join(dir, 'plans', `botrules-plan-${app}`, 'plan.md'), plan);
  writeFileSync(path.join(dir, 'plans', `botrules-plan-${app}`, 'exitcode'), `${exitCode}\n`);
}

const comment = (extra: Record<string, string> = {}) =>
  runCli(['github', 'plan-comment', '--pr', '7', '--plans', 'plans', '--run-url', 'https://github.example/run/1'], { cwd: dir, env: { ...github.env, ...extra } });

describe('botrules github plan-comment', () => {
  it('creates one comment per app, then updates the same comments', async () => {
    keepPlan('shop', '## Plan\n\n1 to update\n', '2');
    keepPlan('blog', 'No changes.\n', '0');
    const first = await comment();
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('Created the plan comment of app blog (9001)\nCreated the plan comment of app shop (9002)\n');
    expect(github.comments.get(7)?.map((c) => c.body)).toEqual([
      '<!-- botrules-plan:blog -->\nNo changes.\n\nApp `blog`: no changes. [Run log](https://github.example/run/1)',
      '<!-- botrules-plan:shop -->\n## Plan\n\n1 to update\n\nApp `shop`: changes will be applied on merge. [Run log](https://github.example/run/1)',
    ]);
    keepPlan('shop', 'broken\n', '1');
    const second = await comment();
    expect(second.stdout).toBe('Updated the plan comment of app blog (9001)\nUpdated the plan comment of app shop (9002)\n');
    expect(github.comments.get(7)?.map((c) => c.body.split('\n').at(-1))).toEqual([
      'App `blog`: no changes. [Run log](https://github.example/run/1)',
      'App `shop`: plan failed: see the run log. [Run log](https://github.example/run/1)',
    ]);
    expect(new Set(github.authorizations)).toEqual(new Set(['Bearer workflow-token-7f3a']));
    // Exit 1 after the plan printed itself: refused as it stands (a new rule), not a failure.
    keepPlan('shop', '### botrules plan\n\n> [!WARNING]\n> 1 declared rule does not exist live\n', '1');
    await comment();
    expect(github.comments.get(7)?.[1]?.body.split('\n').at(-1)).toBe('App `shop`: the plan cannot be applied as it stands: the warnings above say why. [Run log](https://github.example/run/1)');
  });

  it('never edits a comment someone else wrote with the marker, nor a bot comment that only mentions it', async () => {
    github.comments.set(7, [
      { id: 1, body: '<!-- botrules-plan:shop -->\nplanted', user: { login: 'mallory', type: 'User' } },
      { id: 2, body: '<!-- botrules-plan:shop -->\nplanted', user: { login: 'github-actions[bot]', type: 'User' } },
      { id: 3, body: 'quoted: <!-- botrules-plan:shop -->', user: { login: 'github-actions[bot]', type: 'Bot' } },
      { id: 4, body: '<!-- botrules-plan:shop-eu -->\nanother app', user: { login: 'github-actions[bot]', type: 'Bot' } },
    ]);
    keepPlan('shop', 'plan\n', '0');
    const result = await comment();
    expect(result.stdout).toBe('Created the plan comment of app shop (9001)\n');
    expect(github.comments.get(7)?.slice(0, 4).map((c) => c.body)).toEqual([
      '<!-- botrules-plan:shop -->\nplanted', '<!-- botrules-plan:shop -->\nplanted', 'quoted: <!-- botrules-plan:shop -->', '<!-- botrules-plan:shop-eu -->\nanother app',
    ]);
  });

  it('finds its comment on a later page of a long conversation', async () => {
    const others = Array.from({ length: 150 }, (_, i) => ({ id: i + 1, body: `comment ${i}`, user: { login: 'someone', type: 'User' } }));
    github.comments.set(7, [...others, { id: 500, body: '<!-- botrules-plan:shop -->\nold', user: { login: 'github-actions[bot]', type: 'Bot' } }]);
    keepPlan('shop', 'new plan\n', '2');
    expect((await comment()).stdout).toBe('Updated the plan comment of app shop (500)\n');
  });

  it('cuts a plan over the comment limit on a character, with a note', async () => {
    keepPlan('shop', `${'a'.repeat(64_999)}😀${'b'.repeat(10)}`, '2');
    await comment();
    const body = github.comments.get(7)?.[0]?.body ?? '';
    expect(body.length).toBeLessThan(65_536);
    expect(body).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(body.split('\n').slice(1, 4)).toEqual(['a'.repeat(64_999), '', '…truncated: see the run log.']);
  });

  it('refuses a plan file larger than any plan botrules writes, before reading it', async () => {
    keepPlan('shop', 'x'.repeat(1024 * 1024 + 1), '2');
    const result = await comment();
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/the plan of app shop \(.*plan\.md\) is 1048577 bytes, more than the 1048576 it may have/);
    expect(github.comments.get(7)).toBeUndefined();
  });

  it('says so when no plan job kept a plan', async () => {
    const result = await comment();
    expect(result.stdout).toBe('No plans to comment on.\n');
    expect(github.requests).toEqual([]);
  });
});
