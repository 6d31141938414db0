// A simulated quarter of weekly inventory runs against the emulator, as the scheduled
// workflow takes them: `scripts report --previous` every Monday at 05:23 UTC with the policy
// of the repository, with four things planted:
//  - the week of 2026-02-16 has no snapshot (a missed run);
//  - the approval of one script expires on 2026-02-20 (mid-period);
//  - a high-risk script appears from 2026-03-02 on, approved by nobody;
//  - after the quarter, the snapshot of 2026-02-02 is edited (a percentage changed).
// The policy file is committed to a git repository in two commits by two people.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScriptRecord, Snapshot } from '../../src/scripts/model.js';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator } from '../helpers/emulator.js';

export const WEEKS = ['2026-01-05', '2026-01-12', '2026-01-19', '2026-01-26', '2026-02-02', '2026-02-09', '2026-02-16', '2026-02-23', '2026-03-02', '2026-03-09', '2026-03-16', '2026-03-23', '2026-03-30'];
export const MISSED_WEEK = '2026-02-16';
export const EDITED_WEEK = '2026-02-02';
export const PLANTED_FROM = '2026-03-02';
export const EXPIRES = '2026-02-20';
export const PLANTED_URL = 'https://cdn.metrics-cache.example/skim.js?v=7';
export const SCOPE = ['--app-id', 'app-demo', '--tld', 'shop.example.com'];

export interface Quarter {
  /** The repository: scripts-policy.yaml, and series/<date>/scripts-snapshot.json. */
  cwd: string;
  /** The generated scripts, sorted by id; `expiring` is the one whose approval lapses. */
  scripts: ScriptRecord[];
  expiring: ScriptRecord;
  close(): Promise<void>;
}

export const at = (date: string) => Date.parse(`${date}T05:23:00Z`);

export async function simulateQuarter(): Promise<Quarter> {
  const test = await startTestEmulator({ generateScripts: 10, randomSeed: 29, scriptAppIds: ['app-demo'], scriptTlds: ['shop.example.com'] });
  const cwd = await mkdtemp(join(tmpdir(), 'botrules-evidence-'));
  let scripts: ScriptRecord[];
  try {
    // Every generated script runs through the whole quarter, at most medium risk, so the only
    // changes are the planted ones.
    scripts = test.emulator.scripts()
      .map((s) => ({ ...s, first_seen: '2025-11-01T00:00:00.000Z', last_seen: '2026-06-30T00:00:00.000Z', risk: { level: s.risk?.level === 'low' ? 'low' : 'medium', reason: 'generated' } }))
      .sort((a, b) => ((a.id ?? '') < (b.id ?? '') ? -1 : 1));
    test.emulator.replaceScripts(scripts);
    await commitPolicy(cwd, scripts);
    for (const week of WEEKS) {
      if (week === MISSED_WEEK) continue;
      if (week === PLANTED_FROM) test.emulator.replaceScripts([...scripts, planted()]);
      await mkdir(join(cwd, 'series', week), { recursive: true });
      const result = await runCli(['scripts', 'report', ...SCOPE, '--from', '7d', '--out', `series/${week}/scripts-snapshot.json`, '--previous', 'series'], { cwd, env: test.env, now: () => at(week) });
      if (result.code !== 0) throw new Error(`report of ${week} failed: ${result.stderr}`);
    }
    await editSnapshot(join(cwd, 'series', EDITED_WEEK, 'scripts-snapshot.json'));
  } catch (err) {
    await test.close();
    await rm(cwd, { recursive: true, force: true });
    throw err;
  }
  await test.close();
  return { cwd, scripts, expiring: scripts[0] as ScriptRecord, close: () => rm(cwd, { recursive: true, force: true }) };
}

function planted(): ScriptRecord {
  return {
    key: 'planted-skimmer-0001',
    id: PLANTED_URL,
    app_id: 'app-demo',
    host_domain: 'shop.example.com',
    type: 'unknown',
    vendor: 'Unknown',
    first_seen: '2026-03-01T10:00:00.000Z',
    last_seen: '2026-06-30T00:00:00.000Z',
    risk: { level: 'high', reason: 'Reads payment form fields' },
    page_types: ['checkout'],
  };
}

async function commitPolicy(cwd: string, scripts: readonly ScriptRecord[]): Promise<void> {
  const entry = (s: ScriptRecord, i: number, justification: string) =>
    [`  - id: ${JSON.stringify(s.id)}`, `    justification: ${JSON.stringify(justification)}`, `    owner: team-web`, ...(i === 0 ? [`    expires: ${EXPIRES}`] : [])].join('\n');
  const write = (second: string) => writeFile(join(cwd, 'scripts-policy.yaml'), `approved:\n${scripts.map((s, i) => entry(s, i, i === 1 ? second : `Needed on the shop (${s.vendor ?? ''})`)).join('\n')}\n`);
  const git = (args: string[], who: string, date: string) =>
    execFileSync('git', args, { cwd, env: { ...process.env, GIT_AUTHOR_NAME: who, GIT_AUTHOR_EMAIL: `${who.split(' ')[0]?.toLowerCase() ?? 'x'}@example.com`, GIT_AUTHOR_DATE: date, GIT_COMMITTER_NAME: who, GIT_COMMITTER_EMAIL: 'ci@example.com', GIT_COMMITTER_DATE: date } });
  git(['init', '-q'], 'Alice Approver', '2025-12-15T10:00:00Z');
  await write('Needed on the shop (first version)');
  git(['add', 'scripts-policy.yaml'], 'Alice Approver', '2025-12-15T10:00:00Z');
  git(['commit', '-q', '-m', 'Approve the shop scripts'], 'Alice Approver', '2025-12-15T10:00:00Z');
  await write('Checkout needs it for fraud checks');
  git(['commit', '-q', '-am', 'Say why the second script is needed'], 'Bob Reviewer', '2026-01-20T09:00:00Z');
}

/** Changes one figure and leaves every digest as it was: what an after-the-fact edit looks like. */
async function editSnapshot(file: string): Promise<void> {
  const snapshot = JSON.parse(await readFile(file, 'utf8')) as Snapshot;
  const record = snapshot.records[0] as ScriptRecord;
  record.users_affected_percentage = (record.users_affected_percentage ?? 0) + 1;
  await writeFile(file, `${JSON.stringify(snapshot, null, 2)}\n`);
}
