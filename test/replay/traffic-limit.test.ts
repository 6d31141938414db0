// The safety limit measured in traffic, through the CLI against the emulator: a plan that
// newly blocks or challenges more of the replayed requests than maxNewlyBlocked allows makes
// `plan --replay` warn, and `apply --replay` (or apply of a plan saved with its replay
// verdict) refuse without --force, naming the share, the rules and examples; nothing is sent.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { patches, tempProject, writeConfig, writeRules, type Project } from '../apply/fixtures.js';
import { DECLARED, LIVE, NDJSON } from './fixtures.js';

let emu: TestEmulator;
let project: Project;

beforeEach(async () => {
  // Live: checkout is paused; declared: it challenges, and login blocks instead of challenging.
  emu = await startTestEmulator({ seedRules: LIVE.map(({ priority: _priority, ...rule }) => rule) });
  project = await tempProject();
  await writeRules(project.rulesDir, DECLARED);
  await writeFile(path.join(project.dir, 'a.ndjson'), NDJSON);
});

afterEach(async () => {
  await emu.close();
  await project.close();
});

const run = (...argv: string[]) => runCli(argv, { env: emu.env, cwd: project.dir });

/** Of the 6 requests read, one (checkout) had no outcome and is challenged: 1 in 6 is newly blocked. */
const OVER_DEFAULT = [
  'plan for app default would newly block or challenge 1 of the 6 replayed requests (16.7%) that had no blocking outcome, more than the default maxNewlyBlocked of 1% allows',
];
const DETAILS = [
  'app default: 1 by "Challenge checkout"',
  'app default: e.g. a.ndjson:3 {"path":"/checkout/pay","method":"GET","userAgent":"Mozilla/5.0","asn":"13335"}',
];

describe('plan --replay', () => {
  it('warns on stderr, naming the share, the rules and examples, and still prints the plan', async () => {
    const planned = await run('plan', '--replay', 'a.ndjson');
    expect(planned.code).toBe(0);
    expect(planned.stderr.split('\n')).toEqual([
      `warning: ${OVER_DEFAULT[0]}; apply will refuse it without --force`,
      ...DETAILS.map((line) => `  ${line}`),
      '',
    ]);
  });

  it('says nothing within a configured limit', async () => {
    await writeConfig(project.dir, { maxNewlyBlocked: '20%', apps: [{ name: 'default', rulesDir: 'rules' }] });
    const planned = await run('plan', '--replay', 'a.ndjson');
    expect(planned.stderr).toBe('');
  });
});

describe('apply --replay', () => {
  it('refuses without --force, sending nothing, and applies with it', async () => {
    const refused = await run('apply', '--auto-approve', '--replay', 'a.ndjson');
    expect(refused.code).toBe(1);
    expect(refused.stderr.split('\n')).toEqual([
      `error: ${OVER_DEFAULT[0]}; review it and use --force to apply anyway; nothing was sent`,
      ...DETAILS,
      '',
    ]);
    expect(refused.stdout.split('\n')[0]).toBe('Replay for app default of 1 log: 1 of 6 requests (16.7%) had no blocking outcome and would be blocked or challenged.');
    expect(patches(emu.emulator)).toHaveLength(0);

    const forced = await run('apply', '--auto-approve', '--force', '--replay', 'a.ndjson');
    expect(forced.code).toBe(0);
    expect(patches(emu.emulator)).toHaveLength(2);
  });

  it('a per-app maxNewlyBlocked replaces the default, in both directions', async () => {
    await writeConfig(project.dir, { maxNewlyBlocked: 0.5, apps: [{ name: 'default', rulesDir: 'rules', maxNewlyBlocked: '10%' }] });
    const refused = await run('apply', '--auto-approve', '--replay', 'a.ndjson');
    expect(refused.stderr.split('\n')[0]).toBe('error: plan for app default would newly block or challenge 1 of the 6 replayed requests (16.7%) that had no blocking outcome, more than maxNewlyBlocked 10% allows; review it and use --force to apply anyway; nothing was sent');
    await writeConfig(project.dir, { apps: [{ name: 'default', rulesDir: 'rules', maxNewlyBlocked: 0.2 }] });
    expect((await run('apply', '--auto-approve', '--replay', 'a.ndjson')).code).toBe(0);
    expect(patches(emu.emulator)).toHaveLength(2);
  });

  it('without --replay, apply has no traffic to compare and applies as before', async () => {
    expect((await run('apply', '--auto-approve')).code).toBe(0);
  });
});

describe('a saved plan carries its replay verdict to apply', () => {
  it('plan --replay --out records it, and apply --plan refuses it without --force', async () => {
    expect((await run('plan', '--replay', 'a.ndjson', '--out', 'plan.json')).code).toBe(0);
    const saved = JSON.parse(await readFile(path.join(project.dir, 'plan.json'), 'utf8')) as { apps: { replay: unknown }[] };
    expect(saved.apps[0]?.replay).toEqual({
      logs: ['a.ndjson'], evaluated: 6, newlyBlocked: 1,
      rules: [{ name: 'Challenge checkout', count: 1 }],
      examples: ['a.ndjson:3 {"path":"/checkout/pay","method":"GET","userAgent":"Mozilla/5.0","asn":"13335"}'],
    });
    const refused = await run('apply', '--plan', 'plan.json', '--auto-approve');
    expect(refused.code).toBe(1);
    expect(refused.stderr.split('\n')).toEqual([`error: ${OVER_DEFAULT[0]}; review it and use --force to apply anyway; nothing was sent`, ...DETAILS, '']);
    expect(patches(emu.emulator)).toHaveLength(0);
    expect((await run('apply', '--plan', 'plan.json', '--auto-approve', '--force')).code).toBe(0);
    expect(patches(emu.emulator)).toHaveLength(2);
  });
});

describe('a saved replay verdict is never trusted from the file', () => {
  async function editedPlan(): Promise<void> {
    expect((await run('plan', '--replay', 'a.ndjson', '--out', 'plan.json')).code).toBe(0);
    const saved = JSON.parse(await readFile(path.join(project.dir, 'plan.json'), 'utf8')) as { apps: { replay: { newlyBlocked: number; rules: unknown[]; examples: unknown[] } }[] };
    // Someone hides the newly blocked traffic from the limit.
    Object.assign(saved.apps[0]?.replay ?? {}, { newlyBlocked: 0, rules: [], examples: [] });
    await writeFile(path.join(project.dir, 'plan.json'), JSON.stringify(saved));
  }

  it('apply --plan replays the logs the plan names again: an edited verdict still meets the limit, nothing sent', async () => {
    await editedPlan();
    const refused = await run('apply', '--plan', 'plan.json', '--auto-approve');
    expect(refused.code).toBe(1);
    expect(refused.stderr.split('\n')).toEqual([`error: ${OVER_DEFAULT[0]}; review it and use --force to apply anyway; nothing was sent`, ...DETAILS, '']);
    expect(patches(emu.emulator)).toHaveLength(0);
  });

  it('logs that cannot be read at apply are an error, nothing sent', async () => {
    await editedPlan();
    await rm(path.join(project.dir, 'a.ndjson'));
    const refused = await run('apply', '--plan', 'plan.json', '--auto-approve');
    expect(refused.code).toBe(1);
    expect(refused.stderr.split('\n')[0]).toMatch(/^error: plan\.json records a replay verdict, which apply does not take from the file but replays again, and its logs cannot be read here: /);
    expect(patches(emu.emulator)).toHaveLength(0);
  });
});

it('a maxNewlyBlocked that is not a share is a problem at its line', async () => {
  await writeFile(path.join(project.dir, 'botrules.yaml'), 'apps:\n  - name: default\n    rulesDir: rules\n    maxNewlyBlocked: 150%\n');
  const result = await run('validate');
  expect(result.code).toBe(1);
  expect(result.stderr.split('\n').slice(0, 2)).toEqual([
    'botrules.yaml:4:22: maxNewlyBlocked "150%" must be a share of the replayed requests: a percentage such as "0.5%" (0 to 100), or a fraction from 0 to 1',
    'error: 1 problem found',
  ]);
});
