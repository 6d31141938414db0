// `botrules live` and `plan --live` through the CLI: the snapshot file, the three plan
// formats saying when it was taken, several apps, and a snapshot file that cannot be
// trusted (bad JSON, wrong shape, edited rules) refused at its line and column.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { distinctiveToken, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { lettered, patches, rule, tempProject, writeConfig, writeRules, type Project } from '../apply/fixtures.js';

let emu: TestEmulator;
let project: Project;
const shopToken = distinctiveToken('shop');
const blogToken = distinctiveToken('blog');

beforeEach(async () => {
  emu = await startTestEmulator({ apps: [{ name: 'shop', token: shopToken }, { name: 'blog', token: blogToken }], seedRules: lettered(3) });
  emu.emulator.replaceRules(lettered(3), 'blog');
  project = await tempProject();
  await writeConfig(project.dir, {
    apps: [
      { name: 'shop', rulesDir: 'rules', tokenEnv: 'BOTRULES_TOKEN_SHOP' },
      { name: 'blog', rulesDir: 'rules', tokenEnv: 'BOTRULES_TOKEN_BLOG' },
    ],
  });
  const [a, b, c] = lettered(3) as [ReturnType<typeof rule>, ReturnType<typeof rule>, ReturnType<typeof rule>];
  await writeRules(project.rulesDir, [c, a, { ...b, description: 'changed' }]);
});

afterEach(async () => {
  await emu.close();
  await project.close();
});

const env = (): Record<string, string> => ({ ...emu.env, BOTRULES_TOKEN_SHOP: shopToken, BOTRULES_TOKEN_BLOG: blogToken });
const offline = (argv: string[]) => runCli(argv, { env: {}, cwd: project.dir });

async function snapshotText(): Promise<string> {
  const result = await runCli(['live', '--out', 'live.json'], { env: env(), cwd: project.dir });
  expect(result.code).toBe(0);
  expect(result.stderr).toContain('Live snapshot of 2 apps (6 rules) saved to live.json');
  return readFile(path.join(project.dir, 'live.json'), 'utf8');
}

describe('botrules live', () => {
  it('writes every app with its fingerprint and rules in priority order, and never a token', async () => {
    const text = await snapshotText();
    const snapshot = JSON.parse(text);
    expect(snapshot).toMatchObject({ formatVersion: 2, takenAt: expect.stringMatching(/Z$/), integrity: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    expect(Object.keys(snapshot)).toEqual(['formatVersion', 'takenAt', 'apps', 'integrity']);
    expect(snapshot.apps.map((app: { app: string }) => app.app)).toEqual(['shop', 'blog']);
    expect(snapshot.apps[0].fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(snapshot.apps[0].rules.map((r: { name: string; priority: number }) => [r.name, r.priority])).toEqual([['A', 0], ['B', 1], ['C', 2]]);
    expect(text).not.toContain(shopToken);
    expect(text).not.toContain(blogToken);
  });

  it('--app writes one app; without --out the snapshot goes to stdout', async () => {
    const result = await runCli(['live', '--app', 'blog'], { env: env(), cwd: project.dir });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).apps.map((app: { app: string }) => app.app)).toEqual(['blog']);
  });

  it('names a missing token before any request', async () => {
    const result = await runCli(['live', '--out', 'live.json'], { env: { ...emu.env, BOTRULES_TOKEN_SHOP: shopToken }, cwd: project.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('BOTRULES_TOKEN_BLOG is not set');
    expect(emu.emulator.log).toHaveLength(0);
  });
});

describe('botrules plan --live', () => {
  it('says when the snapshot was taken, in text and Markdown, and marks the JSON plan', async () => {
    const takenAt = JSON.parse(await snapshotText()).takenAt as string;
    const text = await offline(['plan', '--live', 'live.json']);
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe(`Planned against the live rules as they were at ${takenAt} (live snapshot), not as they are now.`);
    expect(text.stdout.split('\n')[1]).toBe('Plan: 4 PATCH requests: 2 to update, 2 to move; 6 rules change position; 0 blocked; 0 not in the files, kept');
    const markdown = await offline(['--live', 'live.json', 'plan', '--format', 'markdown']);
    expect(markdown.stdout).toContain(`_Planned against the live rules as they were at ${takenAt}`);
    const json = await offline(['plan', '--live', 'live.json', '--format', 'json', '--detailed-exitcode']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).snapshot).toEqual({ takenAt });
  });

  it('saves a plan that apply refuses, sending nothing', async () => {
    const takenAt = JSON.parse(await snapshotText()).takenAt as string;
    const saved = await offline(['plan', '--live', 'live.json', '--out', 'plan.json']);
    expect(saved.stderr).toContain('for review only');
    const logged = emu.emulator.log.length;
    const applied = await runCli(['apply', '--plan', 'plan.json', '--auto-approve'], { env: env(), cwd: project.dir });
    expect(applied.code).toBe(1);
    expect(applied.stderr).toBe([
      `error: plan.json was planned against a snapshot of the live rules taken at "${takenAt}" (plan --live), not against the live rules themselves; such a plan is for review and can never be applied`,
      'Nothing was sent. Apply from a trusted job: botrules plan --out FILE against the live rules, then botrules apply --plan FILE.',
      '',
    ].join('\n'));
    expect(patches(emu.emulator)).toHaveLength(0);
    // Refused from the file alone: not even a LIST.
    expect(emu.emulator.log.slice(logged)).toEqual([]);
  });

  it('refuses a snapshot without the app being planned, naming the apps it has', async () => {
    await runCli(['live', '--app', 'blog', '--out', 'live.json'], { env: env(), cwd: project.dir });
    const result = await offline(['plan', '--live', 'live.json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('live.json holds no snapshot of app "shop"');
    expect(result.stderr).toContain('It has "blog"');
  });

  it('refuses a missing file and a file that is not JSON', async () => {
    expect((await offline(['plan', '--live', 'nowhere.json'])).stderr).toContain('cannot read the live snapshot nowhere.json (ENOENT)');
    await writeFile(path.join(project.dir, 'bad.json'), '{\n  "formatVersion": 1,\n  oops\n}\n');
    const result = await offline(['plan', '--live', 'bad.json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^bad\.json:3:3: not valid JSON/m);
  });

  it('refuses a snapshot of the wrong shape at the offending line and column', async () => {
    const text = await snapshotText();
    const broken = text.replace('"status": "active"', '"status": "on"').replace('"formatVersion": 2', '"formatVersion": 9');
    await writeFile(path.join(project.dir, 'live.json'), broken);
    const result = await offline(['plan', '--live', 'live.json']);
    expect(result.code).toBe(1);
    const statusLine = broken.split('\n').findIndex((line) => line.includes('"on"')) + 1;
    expect(result.stderr.split('\n')).toContain('live.json:2:20: must be 2 (this botrules reads live snapshots of formatVersion 2; take a new one with botrules live)');
    expect(result.stderr).toMatch(new RegExp(`live\\.json:${statusLine}:\\d+: must be one of "active", "paused"`));
  });

  it('refuses rules edited after the snapshot was taken (the fingerprint no longer matches)', async () => {
    const text = await snapshotText();
    await writeFile(path.join(project.dir, 'live.json'), text.replace('"description": ""', '"description": "changed"'));
    const result = await offline(['plan', '--live', 'live.json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/live\.json:\d+:\d+: the fingerprint of app "shop" does not match its rules: the snapshot was edited or damaged/);
    expect(result.stdout).toBe('');
  });

  /** The line and column of the integrity value in the snapshot text, as the error names them. */
  const integrityAt = (text: string) => {
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('"integrity"')) + 1;
    return `${line}:${(lines[line - 1] ?? '').indexOf('"sha256:') + 1}`;
  };
  const integrityRefusal = (text: string) =>
    `live.json:${integrityAt(text)}: the integrity value of live.json does not match its contents (formatVersion, takenAt, apps): the snapshot was edited or damaged; take a new one with botrules live`;

  it('refuses a snapshot whose takenAt was changed: the integrity value covers it', async () => {
    const text = await snapshotText();
    const takenAt = JSON.parse(text).takenAt as string;
    const moved = text.replace(`"takenAt": "${takenAt}"`, '"takenAt": "2099-01-01T00:00:00.000Z"');
    await writeFile(path.join(project.dir, 'live.json'), moved);
    const result = await offline(['plan', '--live', 'live.json']);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toContain(integrityRefusal(moved));
    expect(result.stdout).toBe('');
  });

  it('refuses rules replaced together with their fingerprint (a forged snapshot) unless the integrity value is recomputed too', async () => {
    const text = await snapshotText();
    const snapshot = JSON.parse(text);
    // The forger copies the blog app's rules and fingerprint over the shop app's: both apps
    // still match their fingerprints, only the integrity value gives it away.
    snapshot.apps[0] = { ...snapshot.apps[1], app: 'shop' };
    const forged = `${JSON.stringify(snapshot, null, 2)}\n`;
    await writeFile(path.join(project.dir, 'live.json'), forged);
    const result = await offline(['plan', '--live', 'live.json']);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toContain(integrityRefusal(forged));
  });

  it('refuses a snapshot without an integrity value (formatVersion 1), saying to take a new one', async () => {
    const snapshot = JSON.parse(await snapshotText());
    delete snapshot.integrity;
    snapshot.formatVersion = 1;
    await writeFile(path.join(project.dir, 'live.json'), `${JSON.stringify(snapshot, null, 2)}\n`);
    const result = await offline(['plan', '--live', 'live.json']);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toEqual(expect.arrayContaining([
      'live.json:2:20: must be 2 (this botrules reads live snapshots of formatVersion 2; take a new one with botrules live)',
      'live.json:1:1: missing property "integrity"',
    ]));
  });
});
