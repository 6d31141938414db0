// Hostile input files cost a stat or one linear pass, and end in a message that names the
// file: a size cap on every JSON file botrules reads (live snapshots, saved plans, script
// inventory snapshots), a depth cap checked before parsing (five million nested brackets),
// and no second reading as YAML of a large snapshot on the error path.
import { spawnSync } from 'node:child_process';
import { open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { writeTree } from '../rules/tree.js';

const DEEP = 5_000_000;
const deep = () => `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`;

/** A sparse file of `bytes` bytes: its size is all a capped reader may look at. */
async function sparseFile(file: string, bytes: number): Promise<void> {
  const handle = await open(file, 'w');
  await handle.truncate(bytes);
  await handle.close();
}

const SNAPSHOT_HEAD = '{"formatVersion":1,"takenAt":"2026-01-01T00:00:00.000Z","apps":[{"app":"default","fingerprint":"sha256:' + '0'.repeat(64) + '","rules":[';
const liveRule = (description: string) => `{"ruleId":"a","name":"x","description":${description},"status":"active","actions":["allow"],"conditions":{"operator":"$or","children":[]},"priority":0}`;

describe('size caps on the JSON files botrules reads', () => {
  const cwd = writeTree({ 'rules/a.yaml': 'rules: []\n' });
  const big = 64 * 1024 * 1024 + 1;

  it.each([
    [['plan', '--live', 'big.json', '--allow-empty'], 'error: big.json is 64.0 MiB, more than the 64 MiB botrules reads in a live snapshot'],
    [['apply', '--plan', 'big.json', '--auto-approve'], 'error: the plan file big.json is 64.0 MiB, more than the 64 MiB botrules reads in a plan'],
    [['scripts', 'diff', 'big.json', 'big.json'], `error: OLD snapshot ${path.join(cwd, 'big.json')} is 64.0 MiB, more than the 64 MiB botrules reads in a script inventory snapshot`],
  ])('%j refuses a file over the cap, naming the file and the cap', async (argv, line) => {
    await sparseFile(path.join(cwd, 'big.json'), big);
    const result = spawnSync(process.execPath, [path.resolve('bin/botrules.js'), ...argv], {
      cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', BOTRULES_CONSOLE_URL: 'https://127.0.0.1:1/api', BOTRULES_TOKEN: 'x' }, timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.split('\n')).toContain(line);
  });
});

describe('depth caps', () => {
  it('a live snapshot nesting five million levels in a description: a located message', async () => {
    const text = `${SNAPSHOT_HEAD}${liveRule(deep())}]}]}`;
    const cwd = writeTree({ 'rules/a.yaml': 'rules: []\n', 'live.json': text });
    const result = spawnSync(process.execPath, [path.resolve('bin/botrules.js'), 'plan', '--live', 'live.json', '--allow-empty'], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' }, timeout: 60_000 });
    expect(result.status).toBe(1);
    // Five levels lead to the rule (object, apps, app, rules, rule): the 60th bracket of the description is the 65th level.
    const col = text.indexOf('[[') + 59 + 1;
    expect(result.stderr.split('\n')).toEqual([
      `live.json:1:${col}: the snapshot nests more than 64 levels deep; no file botrules writes comes near that`,
      'error: 1 problem found',
      '',
    ]);
  });

  it('a saved plan and a script snapshot nesting five million levels: located messages', async () => {
    const cwd = writeTree({ 'plan.json': `{"formatVersion":2,"apps":[{"app":"default","steps":[{"description":${deep()}}]}]}`, 'snap.json': `{"records":[{"id":${deep()}}]}` });
    const plan = await runCli(['apply', '--plan', 'plan.json', '--auto-approve'], { cwd, env: { BOTRULES_CONSOLE_URL: 'https://127.0.0.1:1/api', BOTRULES_TOKEN: 'x' } });
    expect(plan.stderr.split('\n')[0]).toBe('error: plan.json:1:128: the plan nests more than 64 levels deep; no file botrules writes comes near that');
    const diff = await runCli(['scripts', 'diff', 'snap.json', 'snap.json'], { cwd });
    expect(diff.stderr.split('\n')[0]).toBe(`error: OLD snapshot ${path.join(cwd, 'snap.json')}:1:80: the snapshot nests more than 64 levels deep; no file botrules writes comes near that`);
  });

  it('a rule file nesting 50,000 levels in a description: a located message, not an internal error', async () => {
    const n = 50_000;
    const cwd = writeTree({ 'rules/a.yaml': `rules:\n  - name: x\n    description: ${'['.repeat(n)}${']'.repeat(n)}\n` });
    const result = await runCli(['validate'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^rules\/a\.yaml:3:\d+: /);
    expect(result.stderr).not.toContain('internal error');
  });
});

describe('the error path of a large snapshot', () => {
  it('names the JSON path instead of reading a 2 MB snapshot again as YAML', async () => {
    const rules = Array.from({ length: 4000 }, (_, i) => liveRule(JSON.stringify(`rule ${i} ${'d'.repeat(400)}`)).replace('"ruleId":"a"', `"ruleId":"r${i}"`));
    rules[3999] = rules[3999]?.replace('"status":"active"', '"status":"on"') ?? '';
    const cwd = writeTree({ 'rules/a.yaml': 'rules: []\n' });
    await writeFile(path.join(cwd, 'live.json'), `${SNAPSHOT_HEAD}${rules.join(',')}]}]}`);
    const result = spawnSync(process.execPath, [path.resolve('bin/botrules.js'), 'plan', '--live', 'live.json', '--allow-empty'], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' }, timeout: 60_000 });
    expect(result.status).toBe(1);
    expect(result.stderr.split('\n')).toContain('live.json:1:1: must be one of "active", "paused" (at apps[0].rules[3999].status)');
  });
});
