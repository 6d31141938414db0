// apply and the policies (docs/behaviour.md, "Policies and apply"), through the real binary
// against the emulator, with the example project's rules and policies: the live rules are
// the example rules, which hold every policy. A planted rule that hard-blocks the cloud
// networks first breaks the error-level policies: apply (and apply --plan of a saved plan)
// refuses before any change is sent — the emulator's request log holds the one list request
// per run and nothing else. Live rules that already break a policy are the past: apply says so
// and goes on. --force applies anyway and says so; the fix (the planted rule after the allow
// rules) applies without a word about policies.
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runBinaryWith, type BinaryResult } from '../helpers/binary.js';
import type { Rule } from '../../src/semantics/model.js';
import { exampleProject, PLANTED, ROOT } from './example-project.js';

let emu: TestEmulator;
let dir: string;

/** The example rules in their files' order, as the live rules the emulator starts with. */
function exampleRules(): Rule[] {
  const rulesDir = path.join(ROOT, 'rules');
  return readdirSync(rulesDir).sort().flatMap((file) => (parse(readFileSync(path.join(rulesDir, file), 'utf8')) as { rules: Partial<Rule>[] }).rules)
    .map((rule) => ({ ...rule, description: rule.description ?? '', status: rule.status ?? 'active' }) as Rule);
}

function botrules(...argv: string[]): Promise<BinaryResult> {
  return runBinaryWith({ cwd: dir, env: { ...emu.env, NO_COLOR: '1' } }, ...argv);
}

/** The methods of the requests the emulator logged, in order. */
function methods(): string[] {
  return emu.emulator.log.map((entry) => entry.method);
}

async function start(seed: Rule[]): Promise<void> {
  emu = await startTestEmulator({ seedRules: seed, capabilities: ['create'] });
}

beforeEach(() => {
  dir = exampleProject('botrules-apply-policies-');
  writeFileSync(path.join(dir, 'botrules.yaml'), 'service: { create: true }\n');
});

afterEach(async () => {
  await emu.close();
});

const REFUSAL = 'apply refuses: 3 error-level policies are not proved to hold for the rules as this apply would leave them, and the live rules do not already break it; nothing was sent';

it('refuses a planted rule that breaks the error-level policies before any change, and --force applies it', async () => {
  await start(exampleRules());
  writeFileSync(path.join(dir, 'rules', '05-block-cloud.yaml'), PLANTED);

  const refused = await botrules('apply', '--auto-approve');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(REFUSAL);
  expect(refused.stderr).toContain('policies/trusted-traffic.yaml:31:5: Policy violated: "Verified Googlebot is never blocked" for app default: for example the request');
  expect(refused.stderr).toContain('--force applies anyway');
  // The verdicts come first on stdout, each said to be this plan's doing.
  expect(refused.stdout).toContain('Policies: 3 checks, 0 hold, 3 violated, 0 unchecked');
  expect(refused.stdout).toContain('(the live rules hold it: this plan breaks it)');
  expect(methods()).toEqual(['GET']);

  const forced = await botrules('apply', '--auto-approve', '--force');
  expect(forced.stdout).toContain('--force: applying although 3 error-level policies are not proved to hold');
  expect(forced.code).toBe(0);
  expect(methods().filter((method) => method !== 'GET')).toEqual(['POST']);
});

it('refuses a saved plan whose resulting rules break an error-level policy, re-proving it at apply time', async () => {
  await start(exampleRules());
  writeFileSync(path.join(dir, 'rules', '05-block-cloud.yaml'), PLANTED);
  const planned = await botrules('plan', '--out', 'plan.json');
  expect(planned.code).toBe(1);
  // An edited file cannot hide the violation: the verdict is never read from the plan.
  const saved = JSON.parse(readFileSync(path.join(dir, 'plan.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(path.join(dir, 'plan.json'), JSON.stringify({ ...saved, policies: [] }));

  const refused = await botrules('apply', '--plan', 'plan.json', '--auto-approve');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(REFUSAL);
  expect(methods()).toEqual(['GET', 'GET']);
});

it('says a violation the live rules already have is the past and applies; the fix applies with every policy holding', async () => {
  const planted = parse(PLANTED) as { rules: Omit<Rule, 'status' | 'description'>[] };
  await start([...planted.rules.map((rule) => ({ ...rule, description: '', status: 'active' as const })), ...exampleRules()]);
  writeFileSync(path.join(dir, 'rules', '05-block-cloud.yaml'), PLANTED.replace('    actions:', '    description: kept for now\n    actions:'));

  const past = await botrules('apply', '--auto-approve');
  expect(past.stdout).toContain('(the live rules already violate it: not new in this plan)');
  expect(past.stderr).not.toContain('apply refuses');
  expect(past.code).toBe(0);
  expect(methods().filter((method) => method !== 'GET')).toEqual(['PATCH']);

  // The fix the README gives: the planted rule after the allow rules.
  renameSync(path.join(dir, 'rules', '05-block-cloud.yaml'), path.join(dir, 'rules', '25-block-cloud.yaml'));
  const fixed = await botrules('apply', '--auto-approve');
  expect(fixed.code).toBe(0);
  expect(fixed.stdout).toContain('Policies: 3 checks, 3 hold, 0 violated, 0 unchecked');
  expect(fixed.stdout).not.toContain('Policy violated');
});

it('refuses a bad policy file at its FILE:LINE:COL before any request', async () => {
  await start(exampleRules());
  const file = path.join(dir, 'policies', 'trusted-traffic.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('      outcome: [allow]\n', '      outcome: [allow, deny]\n'));
  const refused = await botrules('apply', '--auto-approve');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/^policies\/trusted-traffic\.yaml:\d+:\d+: outcome "deny" is not one of allow, challenge, block, none$/m);
  expect(methods()).toEqual([]);
});
