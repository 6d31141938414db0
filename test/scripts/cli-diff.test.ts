// `scripts diff` and the report's checks that come before any request, through the real CLI.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import type { SnapshotRecord } from '../../src/scripts/model.js';
import { buildSnapshot } from '../../src/scripts/snapshot.js';
import { renderSnapshotJson } from '../../src/render/scripts/index.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'botrules-scripts-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeSnapshot(name: string, records: SnapshotRecord[], options: { tld?: string; policy?: boolean } = {}): Promise<string> {
  const snapshot = buildSnapshot({
    query: { appId: ['app-1'], tld: [options.tld ?? 'shop.example'], from: Date.UTC(2025, 5, 1), to: Date.UTC(2025, 5, 8) },
    takenAt: Date.UTC(2025, 5, 8),
    records,
    warnings: [],
    ...(options.policy ? { policyFile: 'scripts-policy.yaml' } : {}),
  });
  await writeFile(join(dir, name), renderSnapshotJson(snapshot));
  return name;
}

const stripe: SnapshotRecord = { key: 's', id: 'https://js.stripe.com/v3/', vendor: 'Stripe', risk: { level: 'low' }, page_types: ['checkout'] };
const gtm: SnapshotRecord = { key: 'g', id: 'https://www.googletagmanager.com/gtm.js', vendor: 'Google', risk: { level: 'medium' }, page_types: ['home'] };
const skimmer: SnapshotRecord = { key: 'x', id: 'https://cdn.evil.example/x.js', vendor: 'Unknown', risk: { level: 'critical', reason: 'reads card fields' }, page_types: ['checkout'] };

describe('botrules scripts diff', () => {
  let oldFile: string;
  let newFile: string;
  beforeAll(async () => {
    oldFile = await writeSnapshot('old.json', [stripe, gtm]);
    newFile = await writeSnapshot('new.json', [
      { ...stripe, approved: true, approvedBy: 'pattern: https://js.stripe.com/*' },
      { ...gtm, risk: { level: 'high' }, approved: true, approvedBy: 'vendor: Google' },
      { ...skimmer, approved: false },
    ], { policy: true });
  });

  it('prints added and changed scripts as text and exits 0 without --fail-on', async () => {
    const result = await runCli(['scripts', 'diff', oldFile, newFile], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // NEW's marks say whether the added script is approved.
    expect(result.stdout).toContain('+ https://cdn.evil.example/x.js  (Unknown, risk critical, pages checkout)  NOT approved\n');
    expect(result.stdout).toContain('~ https://www.googletagmanager.com/gtm.js  risk medium → high (up)');
    expect(result.stdout).toContain('1 added (0 approved, 1 not approved), 0 removed, 1 changed, 1 unchanged');
  });

  it.each([
    ['new', ['fail-on new: 1 script', '  https://cdn.evil.example/x.js']],
    ['risk-up', ['fail-on risk-up: 1 script', '  https://www.googletagmanager.com/gtm.js']],
    ['high-risk', ['fail-on high-risk: 2 scripts']],
    ['unapproved', ['fail-on unapproved: 1 script', '  https://cdn.evil.example/x.js']],
  ])('exits 3 on --fail-on %s, listing what matched', async (condition, lines) => {
    const result = await runCli(['scripts', 'diff', oldFile, newFile, '--fail-on', condition], { cwd: dir });
    expect(result.code).toBe(3);
    for (const line of lines) expect(result.stderr.split('\n')).toContain(line);
  });

  it('exits 0 when no named condition matches', async () => {
    const result = await runCli(['scripts', 'diff', oldFile, oldFile, '--fail-on', 'new,risk-up,high-risk'], { cwd: dir });
    expect(result).toMatchObject({ code: 0, stderr: '' });
  });

  it('includes the fail-on matches in json output', async () => {
    const result = await runCli(['scripts', 'diff', oldFile, newFile, '--format', 'json', '--fail-on', 'new', '--fail-on', 'risk-up'], { cwd: dir });
    expect(result.code).toBe(3);
    const value = JSON.parse(result.stdout) as { failOn: { condition: string }[]; summary: unknown };
    expect(value.failOn.map((m) => m.condition)).toEqual(['new', 'risk-up']);
    expect(value.summary).toEqual({ added: 1, removed: 0, changed: 1, unchanged: 1 });
  });

  it('renders markdown', async () => {
    const result = await runCli(['scripts', 'diff', oldFile, newFile, '--format', 'markdown'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^# Script inventory diff: app-1 on shop\.example/);
    expect(result.stdout).toContain('## Added (1)');
  });

  it('re-checks approvals against --policy instead of the marks in NEW', async () => {
    await writeFile(join(dir, 'strict-policy.yaml'), 'approved:\n  - vendor: Stripe\n    justification: payments\n    owner: payments\n');
    const result = await runCli(['scripts', 'diff', oldFile, newFile, '--fail-on', 'unapproved', '--policy', 'strict-policy.yaml'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('fail-on unapproved: 2 scripts');
  });

  it('refuses --fail-on unapproved when NEW carries no approval marks and no --policy is given', async () => {
    const result = await runCli(['scripts', 'diff', oldFile, oldFile, '--fail-on', 'unapproved'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--fail-on unapproved: the NEW snapshot carries no approval marks');
  });

  it('refuses snapshots of different domains', async () => {
    const other = await writeSnapshot('other.json', [stripe], { tld: 'other.example' });
    const result = await runCli(['scripts', 'diff', oldFile, other], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: the snapshots cover different apps or domains and cannot be compared');
    expect(result.stderr).toContain('NEW: appId app-1, tld other.example');
  });

  it('says which argument is not a snapshot', async () => {
    await writeFile(join(dir, 'plan.json'), '{"formatVersion": 1, "apps": []}');
    await writeFile(join(dir, 'broken.json'), '{"formatVersion": ');
    const notSnapshot = await runCli(['scripts', 'diff', oldFile, 'plan.json'], { cwd: dir });
    expect(notSnapshot.code).toBe(1);
    expect(notSnapshot.stderr).toContain('error: NEW snapshot ');
    expect(notSnapshot.stderr).toContain('is not a botrules snapshot');
    expect(notSnapshot.stderr).toContain('unknown key "apps" in the top level');
    const broken = await runCli(['scripts', 'diff', 'broken.json', oldFile], { cwd: dir });
    expect(broken.stderr).toMatch(/error: OLD snapshot .*broken\.json is not JSON/);
    const missing = await runCli(['scripts', 'diff', 'nope.json', oldFile], { cwd: dir });
    expect(missing.stderr).toMatch(/error: OLD snapshot .*nope\.json: no such file/);
  });

  it('refuses unknown --fail-on conditions', async () => {
    const result = await runCli(['scripts', 'diff', oldFile, newFile, '--fail-on', 'new,everything'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--fail-on: unknown condition everything');
  });
});

describe('botrules scripts (before any request)', () => {
  it('needs an action', async () => {
    const result = await runCli(['scripts'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: Name an action: report, diff, verify or evidence\n');
  });

  it('lists its actions in help', async () => {
    const result = await runCli(['scripts', '--help'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('botrules scripts report');
    expect(result.stdout).toContain('botrules scripts diff <old> <new>');
  });

  it('refuses a report without --app-id or --tld as a usage error, before checking the environment', async () => {
    const result = await runCli(['scripts', 'report', '--tld', 'shop.example'], { cwd: dir, env: {} });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('missing required option --app-id');
    expect(result.stderr).not.toContain('BOTRULES');
    const empty = await runCli(['scripts', 'report', '--app-id', ',', '--tld', 'shop.example'], { cwd: dir, env: {} });
    expect(empty.stderr).toContain('--app-id needs at least one value');
  });

  it('refuses --from after --to', async () => {
    const result = await runCli(['scripts', 'report', '--app-id', 'a', '--tld', 't', '--from', '2025-06-02', '--to', '2025-06-01'], { cwd: dir, env: {} });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: --from (2025-06-02T00:00:00.000Z) is after --to (2025-06-01T00:00:00.000Z)');
  });

  it('refuses a bad page size or format', async () => {
    const size = await runCli(['scripts', 'report', '--app-id', 'a', '--tld', 't', '--page-size', '0'], { cwd: dir, env: {} });
    expect(size.stderr).toContain('--page-size must be a whole number from 1 to 10000, not 0');
    const format = await runCli(['scripts', 'report', '--app-id', 'a', '--tld', 't', '--format', 'xml'], { cwd: dir, env: {} });
    expect(format.code).toBe(1);
    expect(format.stderr).toBe('error: --format must be one of "json", "ndjson", "csv", "markdown", not "xml"\n');
  });

  it('names the missing gateway variable before any request', async () => {
    const result = await runCli(['scripts', 'report', '--app-id', 'a', '--tld', 't'], { cwd: dir, env: {} });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('BOTRULES_GATEWAY_URL is not set');
  });

  it('reports an invalid policy file with FILE:LINE:COL before any request', async () => {
    const sub = await mkdtemp(join(dir, 'policy-'));
    await writeFile(join(sub, 'scripts-policy.yaml'), 'approved:\n  - vendor: Acme\n    owner: web\n');
    const result = await runCli(['scripts', 'report', '--app-id', 'a', '--tld', 't'], { cwd: sub, env: {} });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('scripts-policy.yaml:2:5: missing "justification" in approved entry 1');
  });
});
