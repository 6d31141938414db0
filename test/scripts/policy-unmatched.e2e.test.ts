// A policy entry that matches no script approves nothing while it looks like an approval:
// `scripts report`, `scripts diff --policy` and `scripts evidence` warn about it, located as
// FILE:LINE:COL. The repository's example scripts-policy.yaml matches the emulator's records
// (no warning), and `scripts diff` says which added scripts are approved, by which entry.
// Through the real binary, against the emulator.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { HtmlValidate } from 'html-validate';
import type { ScriptRecord } from '../../src/scripts/model.js';
import { CLI_BINARY, type BinaryResult } from '../helpers/binary.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

const SCOPE = ['--app-id', 'app-demo', '--tld', 'shop.example.com'];
const TYPO = 'approved:\n  - vendor: Stripe\n    justification: Card fields\n    owner: payments-team\n  - pattern: "https://js.strpie.com/*"\n    justification: Card fields (typo)\n    owner: payments-team\n';
const TYPO_WARNING = 'warning: typo.yaml:5:5: approved entry "pattern: https://js.strpie.com/*" matches no script';
let test: TestEmulator;
let cwd: string;
let scripts: ScriptRecord[];

async function run(...args: string[]): Promise<BinaryResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI_BINARY, ...args], { cwd, env: { PATH: process.env.PATH ?? '', ...test.env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

beforeAll(async () => {
  test = await startTestEmulator({ generateScripts: 400, randomSeed: 35, scriptAppIds: ['app-demo'], scriptTlds: ['shop.example.com'] });
  scripts = test.emulator.scripts().map((s) => ({ ...s, first_seen: new Date(Date.now() - 3 * 86_400_000).toISOString(), last_seen: new Date().toISOString() }));
  test.emulator.replaceScripts(scripts);
  cwd = await mkdtemp(join(tmpdir(), 'botrules-unmatched-'));
  await copyFile(resolve('scripts-policy.yaml'), join(cwd, 'scripts-policy.yaml'));
  await writeFile(join(cwd, 'typo.yaml'), TYPO);
});
afterAll(async () => {
  await test.close();
  await rm(cwd, { recursive: true, force: true });
});

it('the example policy matches the emulator: every entry approves something, jQuery included', async () => {
  const result = await run('scripts', 'report', ...SCOPE, '--from', '7d', '--out', 'example.json');
  expect(result.code).toBe(0);
  expect(result.stderr).not.toContain('matches no script');
  const snapshot = JSON.parse(await readFile(join(cwd, 'example.json'), 'utf8')) as { records: { id: string; approvedBy?: string }[] };
  const jquery = snapshot.records.filter((r) => r.id.startsWith('https://cdn.jsdelivr.net/npm/jquery@3.7.1/'));
  expect(jquery.length).toBeGreaterThan(0);
  expect(new Set(jquery.map((r) => r.approvedBy))).toEqual(new Set(['pattern: https://cdn.jsdelivr.net/npm/jquery@3.7.1/dist/jquery.min.js*']));
});

it('scripts report warns about an entry that matches nothing, at its line', async () => {
  const result = await run('scripts', 'report', ...SCOPE, '--from', '7d', '--policy', 'typo.yaml', '--out', 'typo.json');
  expect(result.code).toBe(0);
  expect(result.stderr.split('\n').filter((line) => line.includes('matches no script'))).toEqual([
    `${TYPO_WARNING} in this report; check its pattern, or remove the entry`,
  ]);
});

it('scripts diff says which added scripts are approved and by which entry, and warns about the unmatched one', async () => {
  const stripe = scripts.filter((s) => s.vendor === 'Stripe');
  const other = scripts.find((s) => s.vendor !== 'Stripe' && s.vendor !== undefined) as ScriptRecord;
  test.emulator.replaceScripts(scripts.filter((s) => s !== other && !stripe.includes(s)));
  expect((await run('scripts', 'report', ...SCOPE, '--from', '7d', '--policy', 'typo.yaml', '--out', 'old.json')).code).toBe(0);
  test.emulator.replaceScripts(scripts);
  const result = await run('scripts', 'diff', 'old.json', 'typo.json', '--policy', 'typo.yaml', '--fail-on', 'unapproved');
  expect(result.code).toBe(3);
  const added = result.stdout.split('\n').filter((line) => line.startsWith('+ '));
  expect(added).toHaveLength(stripe.length + 1);
  for (const s of stripe) expect(added.find((line) => line.startsWith(`+ ${s.id ?? ''}  `))).toMatch(/ {2}approved by vendor: Stripe$/);
  expect(added.find((line) => line.startsWith(`+ ${other.id ?? ''}  `))).toMatch(/ {2}NOT approved$/);
  expect(result.stdout).toContain(`${stripe.length + 1} added (${stripe.length} approved, 1 not approved), 0 removed`);
  expect(result.stderr).toContain(`${TYPO_WARNING} in NEW; check its pattern, or remove the entry`);
});

it('scripts evidence warns about it on stderr and in the pack', async () => {
  await mkdir(join(cwd, 'series'));
  await copyFile(join(cwd, 'typo.json'), join(cwd, 'series', 'typo.json'));
  const result = await run('scripts', 'evidence', 'series', '--from', '1d', '--policy', 'typo.yaml', '--out', 'pack.html');
  expect(result.stderr).toContain(`${TYPO_WARNING} in the snapshots of the period; check its pattern, or remove the entry`);
  const page = await readFile(join(cwd, 'pack.html'), 'utf8');
  expect(page).toContain('<li>typo.yaml:5:5: approved entry &quot;pattern: https://js.strpie.com/*&quot; matches no script in the snapshots of the period; check its pattern, or remove the entry</li>');
  const report = await new HtmlValidate({ extends: ['html-validate:recommended'] }).validateString(page);
  expect(report.results.flatMap((r) => r.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`))).toEqual([]);
});
