// The state file: written at start, kept up to date atomically, surviving a restart
// (rules, order, tokens, certificate); damaged files, --reset, and seeding from rule files.
import { mkdtemp, readFile, readdir, rm, stat, symlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UserError, ValidationError } from '../../src/errors.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { sharedCertificate } from '../helpers/emulator.js';
import { listRules, patchRule } from './https-request.js';

let dir: string;
let running: RunningEmulator[] = [];
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'botrules-emulator-state-'));
});
afterEach(async () => {
  await Promise.all(running.map((e) => e.stop()));
  running = [];
  await rm(dir, { recursive: true, force: true });
});

async function start(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emulator = await startEmulator({ statePath: path.join(dir, 'state.json'), certificate: await sharedCertificate(), ...options });
  running.push(emulator);
  return emulator;
}

test('PATCHed rules, their order and the tokens survive a restart', async () => {
  const first = await start({ generateRules: 4, generateScripts: 10 });
  const token = first.tokens.apps.default as string;
  const last = first.rules()[3]?.ruleId as string;
  expect((await patchRule(first, token, last, { priority: 0, status: 'paused' })).status).toBe(200);
  const expected = first.rules();
  await first.stop();

  const second = await start({ generateRules: 9 });
  expect([first.resumed, second.resumed]).toEqual([false, true]);
  expect(second.tokens).toEqual(first.tokens);
  expect(second.rules()).toEqual(expected);
  expect(second.rules()[0]).toMatchObject({ ruleId: last, status: 'paused' });
  expect(second.scripts()).toEqual(first.scripts());
  expect(await listRules(second, token)).toEqual(expected);
});

test('a change reaches the state file shortly, without waiting for stop()', async () => {
  const emulator = await start({ generateRules: 2 });
  const ruleId = emulator.rules()[0]?.ruleId as string;
  await patchRule(emulator, emulator.tokens.apps.default as string, ruleId, { description: 'saved early' });
  let text = '';
  for (let attempt = 0; attempt < 100 && !text.includes('saved early'); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    text = await readFile(emulator.statePath, 'utf8');
  }
  expect(text).toContain('saved early');
});

test('stop() leaves every change in the state file (mode 0600) and no temp files', async () => {
  const emulator = await start({ generateRules: 2 });
  const ruleId = emulator.rules()[1]?.ruleId as string;
  await patchRule(emulator, emulator.tokens.apps.default as string, ruleId, { name: 'Renamed' });
  await emulator.stop();
  const saved = JSON.parse(await readFile(emulator.statePath, 'utf8')) as { apps: { default: { rules: { name: string }[] } } };
  expect(saved.apps.default.rules[1]?.name).toBe('Renamed');
  expect((await stat(emulator.statePath)).mode & 0o777).toBe(0o600);
  expect((await readdir(dir)).sort()).toEqual(['emulator-ca.pem', 'emulator-private', 'state.json']);
});

test('tokens from the environment win over stored ones, are not stored; BOTRULES_TOKEN doubles as the API token', async () => {
  const first = await start();
  await first.stop();
  const second = await start({ env: { BOTRULES_TOKEN: 'tok-env-SECRET' } });
  expect(second.tokens).toEqual({ apps: { default: 'tok-env-SECRET' }, api: 'tok-env-SECRET' });
  expect(second.generatedTokens).toEqual({ apps: [], api: false });
  await second.stop();
  // A token that was given is never written to the state file, so it is not reused either.
  expect(await readFile(second.statePath, 'utf8')).not.toContain('tok-env-SECRET');
  const third = await start({ env: { BOTRULES_API_TOKEN: 'tok-api-SECRET' } });
  expect(third.tokens.api).toBe('tok-api-SECRET');
  expect(third.tokens.apps.default).toMatch(/^emu_/);
  expect(third.generatedTokens).toEqual({ apps: ['default'], api: false });
});

test('a damaged state file is a UserError; --reset starts afresh', async () => {
  await writeFile(path.join(dir, 'state.json'), '{"version": 1, "apps": ');
  await expect(start()).rejects.toThrow(UserError);
  await expect(start()).rejects.toThrow(/not valid JSON/);
  const fresh = await start({ reset: true, generateRules: 3 });
  expect(fresh.rules()).toHaveLength(3);
});

test('a key left beside the state by an earlier version is removed, and a CA certificate is replaced by a leaf', async () => {
  const { generate } = await import('selfsigned');
  const old = await generate([{ name: 'commonName', value: 'old' }], {
    keyType: 'ec', algorithm: 'sha256',
    extensions: [{ name: 'basicConstraints', cA: true }, { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  await writeFile(path.join(dir, 'emulator-ca.pem'), old.cert);
  await writeFile(path.join(dir, 'emulator-key.pem'), old.private);
  const emulator = await startEmulator({ statePath: path.join(dir, 'state.json') });
  running.push(emulator);
  expect(await readFile(emulator.caPath, 'utf8')).not.toBe(old.cert);
  expect((await readdir(dir)).sort()).toEqual(['emulator-ca.pem', 'emulator-private', 'state.json']);
});

test('without a given certificate one is generated next to the state and reused on restart', async () => {
  const first = await startEmulator({ statePath: path.join(dir, 'state.json') });
  running.push(first);
  expect(first.caPath).toBe(path.join(dir, 'emulator-ca.pem'));
  const pem = await readFile(first.caPath, 'utf8');
  // The key has a directory of its own (owner only) whose .gitignore keeps it out of any repository.
  const keyDir = path.join(dir, 'emulator-private');
  expect((await stat(path.join(keyDir, 'emulator-key.pem'))).mode & 0o777).toBe(0o600);
  expect((await stat(keyDir)).mode & 0o777).toBe(0o700);
  expect(await readFile(path.join(keyDir, '.gitignore'), 'utf8')).toMatch(/^\*$/m);
  await first.stop();
  const second = await startEmulator({ statePath: path.join(dir, 'state.json') });
  running.push(second);
  expect(await readFile(second.caPath, 'utf8')).toBe(pem);
  expect(await listRules(second, second.tokens.apps.default as string)).toEqual([]);
});

describe('seeding from a rules directory', () => {
  const leaf = '{ conditionType: path, operator: $eq, value: /x }';
  const file = (rules: string[]) => `rules:\n${rules.join('')}`;
  const ruleYaml = (name: string, ruleId?: string) =>
    `  - name: ${name}\n${ruleId ? `    ruleId: ${ruleId}\n` : ''}    actions: [allow]\n    conditions:\n      operator: $or\n      children:\n        - operator: $and\n          children:\n            - ${leaf}\n`;

  test('rules load in declared order, keep their ruleId, and precede the generated ones', async () => {
    await mkdir(path.join(dir, 'rules'));
    await writeFile(path.join(dir, 'rules', '20-b.yaml'), file([ruleYaml('Third'), ruleYaml('Fourth', 'kept-id-4')]));
    await writeFile(path.join(dir, 'rules', '10-a.yaml'), file([ruleYaml('First'), ruleYaml('Second')]));
    const emulator = await start({ seed: 'rules', cwd: dir, generateRules: 1 });
    const rules = emulator.rules();
    expect(rules.map((r) => r.name)).toEqual(['First', 'Second', 'Third', 'Fourth', expect.stringMatching(/^Generated rule 0001 — /)]);
    expect(rules[3]?.ruleId).toBe('kept-id-4');
    expect(rules[0]).toMatchObject({ description: '', status: 'active', actions: ['allow'], priority: 0 });
    expect(rules[0]).not.toHaveProperty('source');
  });

  test('invalid rule files stop start-up with their problems', async () => {
    await mkdir(path.join(dir, 'rules'));
    await writeFile(path.join(dir, 'rules', 'bad.yaml'), 'rules:\n  - name: Bad\n    actions: [explode]\n');
    await expect(start({ seed: 'rules', cwd: dir })).rejects.toThrow(ValidationError);
  });
});

test('a save never writes through a link planted at a temporary name (random, created exclusively)', async () => {
  // The name an earlier version used, predictable from the process id, as another user of the machine could plant it.
  const victim = path.join(dir, 'victim.txt');
  await writeFile(victim, 'untouched\n');
  await symlink(victim, path.join(dir, `state.json.${process.pid}.tmp`));
  const emulator = await start({ generateRules: 2 });
  await emulator.stop();
  expect(await readFile(victim, 'utf8')).toBe('untouched\n');
  expect(JSON.parse(await readFile(path.join(dir, 'state.json'), 'utf8'))).toHaveProperty('apps');
  expect((await readdir(dir)).filter((name) => name.endsWith('.tmp') && name !== `state.json.${process.pid}.tmp`)).toEqual([]);
});
