// `scripts evidence` away from the happy path: no git, no policy, several scopes, bad options.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sealSnapshot } from '../../src/scripts/chain.js';
import type { Snapshot } from '../../src/scripts/model.js';
import { buildSnapshot } from '../../src/scripts/snapshot.js';
import { renderSnapshotJson } from '../../src/render/scripts/index.js';
import type { EvidencePack } from '../../src/scripts/evidence.js';
import { runCli } from '../helpers/cli.js';

const DAY = 86_400_000;
const START = Date.parse('2026-01-05T05:23:00Z');
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'botrules-evidence-edges-'));
  let previous: Snapshot | null = null;
  for (let week = 0; week < 3; week++) {
    const snapshot: Snapshot = sealSnapshot(buildSnapshot({
      query: { appId: ['app-demo'], tld: ['shop.example.com'], from: START + (week - 1) * 7 * DAY, to: START + week * 7 * DAY },
      takenAt: START + week * 7 * DAY,
      records: [{ key: 'k1', id: 'https://cdn.example/a.js', vendor: 'A', risk: { level: 'low' } }],
      warnings: [],
    }), previous);
    await writeFile(join(dir, `week-${week}.json`), renderSnapshotJson(snapshot));
    previous = snapshot;
  }
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const evidence = (args: string[]) => runCli(['scripts', 'evidence', '.', '--from', '2026-01-05', '--to', '2026-01-19', '--format', 'json', ...args], { cwd: dir, env: {} });

it('judges approvals by the policy when the snapshots carry no marks, and says there is no git history', async () => {
  await writeFile(join(dir, 'scripts-policy.yaml'), 'approved:\n  - vendor: A\n    justification: Needed\n    owner: team-web\n');
  const result = await evidence([]);
  expect(result.code).toBe(0);
  const pack = JSON.parse(result.stdout) as EvidencePack;
  expect(pack.verdict).toEqual({ pass: true, reasons: [] });
  expect(pack.inventory.scripts.map((s) => [s.label, s.status, s.approval?.entry])).toEqual([['https://cdn.example/a.js', 'approved', 'vendor: A']]);
  expect(pack.inventory.approvalSource).toBe("scripts-policy.yaml, judged at each snapshot's time (the snapshots carry no approval marks)");
  expect(pack.approvals).toMatchObject({ git: false, note: 'scripts-policy.yaml is not in a git repository (or git is not installed): no record of who approved what, when' });
  expect(result.stderr).toBe('Evidence 2026-01-05 to 2026-01-19: PASS (3 snapshots, 0 gaps, 0 changes, chain intact)\n');
});

it('without a policy, approvals are unknown, said to be, and fail the verdict', async () => {
  const result = await evidence([]);
  expect(result.code).toBe(2);
  const pack = JSON.parse(result.stdout) as EvidencePack;
  expect(pack.verdict.reasons).toEqual([{ code: 'unapproved-scripts', message: '1 script has no approval record: no policy marked or judged it' }]);
  expect(pack.inventory.scripts.map((s) => s.status)).toEqual(['unknown']);
  expect(pack.approvals.note).toBe('no policy file: scripts-policy.yaml is absent and --policy was not given');
});

it('a period with no snapshot fails with one gap over the whole period', async () => {
  const result = await runCli(['scripts', 'evidence', '.', '--from', '2026-03-01', '--to', '2026-03-31', '--format', 'json'], { cwd: dir, env: {} });
  expect(result.code).toBe(2);
  const pack = JSON.parse(result.stdout) as EvidencePack;
  expect(pack.verdict.reasons.map((r) => r.code)).toEqual(['no-snapshots', 'coverage-gap']);
  expect(pack.coverage.gaps).toHaveLength(1);
});

it('asks for a scope when the directory holds several', async () => {
  await writeFile(join(dir, 'other.json'), renderSnapshotJson(sealSnapshot(buildSnapshot({ query: { appId: ['app-2'], tld: ['t.example'], from: 0, to: START }, takenAt: START, records: [], warnings: [] }), null)));
  const result = await evidence([]);
  expect(result).toEqual({
    code: 1,
    stdout: '',
    stderr: 'error: . holds snapshots of 2 different scopes; choose one with --app-id and --tld\n  appId app-2; tld t.example\n  appId app-demo; tld shop.example.com\n',
  });
  const chosen = await evidence(['--app-id', 'app-demo', '--tld', 'shop.example.com']);
  expect((JSON.parse(chosen.stdout) as EvidencePack).scope).toEqual({ appId: ['app-demo'], tld: ['shop.example.com'] });
});

it('refuses an interval it cannot read, and a period that ends before it starts', async () => {
  expect((await evidence(['--interval', 'weekly'])).stderr).toBe('error: --interval weekly: write a length of at least 1h, such as 7d (the default: weekly, as PCI DSS 11.6.1 asks), 1d or 2w\n');
  const backwards = await runCli(['scripts', 'evidence', '.', '--from', '2026-02-01', '--to', '2026-01-01'], { cwd: dir, env: {} });
  expect(backwards).toMatchObject({ code: 1, stderr: 'error: --from (2026-02-01T00:00:00.000Z) is not before --to (2026-01-02T00:00:00.000Z)\n' });
});

it('counts a lapsed approval as unapproved from the end of its expires day, judged by the policy', async () => {
  await writeFile(join(dir, 'scripts-policy.yaml'), 'approved:\n  - vendor: A\n    justification: Needed\n    owner: team-web\n    expires: 2026-01-13\n');
  const result = await evidence([]);
  expect(result.code).toBe(2);
  const pack = JSON.parse(result.stdout) as EvidencePack;
  expect(pack.changes.map((c) => [c.kind, c.snapshot.takenAt, c.unapproved])).toEqual([
    ['approval-lapsed', '2026-01-19T05:23:00.000Z', { since: '2026-01-14T00:00:00.000Z', resolution: 'open', durationMs: Date.parse('2026-01-20T00:00:00Z') - Date.parse('2026-01-14T00:00:00Z') }],
  ]);
});

it('counts unreadable files in words: "1 file", not "1 file(s)"', async () => {
  await writeFile(join(dir, 'scripts-policy.yaml'), 'approved:\n  - vendor: A\n    justification: Needed\n    owner: team-web\n');
  await writeFile(join(dir, 'broken.json'), '{"tool":{"name":"botrules"},"query":{},"records":"none"}');
  const result = await evidence([]);
  expect(result.code).toBe(2);
  const pack = JSON.parse(result.stdout) as EvidencePack;
  expect(pack.verdict.reasons).toEqual([{ code: 'unreadable-files', message: '1 file in the directory could not be read as snapshots' }]);
});
