// A weekly schedule passes a weekly interval. Four runs of the weekly job, each a few seconds
// later than a week after the one before (a scheduler never starts on the second), then the
// evidence pack of those four weeks through the real binary: the verdict passes, the calendar
// shows four weeks with a snapshot and the gap list agrees. A week without a run fails and
// its message says by how much the interval was exceeded.
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HtmlValidate } from 'html-validate';
import type { EvidencePack } from '../../src/scripts/evidence.js';
import { runBinary } from '../helpers/binary.js';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator } from '../helpers/emulator.js';

const SCOPE = ['--app-id', 'app-demo', '--tld', 'shop.example.com'];
const FIRST_RUN = Date.parse('2026-01-05T05:23:00Z');
const WEEK_MS = 7 * 86_400_000;
/** Each run starts this much later than a week after the one before. */
const LATE_MS = 7_000;
const runAt = (k: number) => FIRST_RUN + k * (WEEK_MS + LATE_MS);
const EVIDENCE = ['scripts', 'evidence', 'series', '--from', '2026-01-05', '--to', '2026-02-01', '--interval', '7d'];

let cwd: string;

beforeAll(async () => {
  const test = await startTestEmulator({ generateScripts: 4, randomSeed: 7, scriptAppIds: ['app-demo'], scriptTlds: ['shop.example.com'] });
  cwd = await mkdtemp(join(tmpdir(), 'botrules-weekly-'));
  try {
    // Seen all along, so every run's window holds every script; the service writes times with
    // the offset of wherever it saw them, and the pack in UTC.
    test.emulator.replaceScripts(test.emulator.scripts().map((s) => ({ ...s, first_seen: '2025-11-01T05:30:00.000+05:30', last_seen: '2026-06-29T19:00:00.000-05:00' })));
    await writeFile(join(cwd, 'scripts-policy.yaml'), 'approved:\n  - pattern: "*"\n    justification: Every script of the test shop\n    owner: team-web\n');
    for (const k of [0, 1, 2, 3]) {
      const dir = `series/run-${k}`;
      await mkdir(join(cwd, dir), { recursive: true });
      const result = await runCli(['scripts', 'report', ...SCOPE, '--from', '7d', '--out', `${dir}/scripts-snapshot.json`, '--previous', 'series'], { cwd, env: test.env, now: () => runAt(k) });
      if (result.code !== 0) throw new Error(`run ${k} failed: ${result.stderr}`);
    }
  } finally {
    await test.close();
  }
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe('four weekly runs, each a few seconds late', () => {
  it('pass a 7d interval, and the stderr summary says so', async () => {
    const result = await runBinary(cwd, ...EVIDENCE, '--out', 'pack.html');
    expect(result.stderr.split('\n')[0]).toBe('Evidence 2026-01-05 to 2026-02-01: PASS (4 snapshots, 0 gaps, 0 changes, chain intact)');
    expect(result.code).toBe(0);
  });

  it('show four covered weeks in the calendar, and no gap beside them', async () => {
    await runBinary(cwd, ...EVIDENCE, '--out', 'pack.html');
    const page = await readFile(join(cwd, 'pack.html'), 'utf8');
    expect(page).toContain('<h1>Verdict: PASS</h1>');
    expect(page).toContain('<h2>Gaps in coverage (0)</h2>');
    const cells = [...page.matchAll(/<rect class="(\w+)"[^>]*><title>([^<]*)<\/title><\/rect>/g)].map((m) => `${m[1] ?? ''} ${m[2] ?? ''}`);
    expect(cells).toEqual([
      'ok 2026-01-05 to 2026-01-11: 1 snapshot',
      'ok 2026-01-12 to 2026-01-18: 1 snapshot',
      'ok 2026-01-19 to 2026-01-25: 1 snapshot',
      'ok 2026-01-26 to 2026-02-01: 1 snapshot',
    ]);
    const report = await new HtmlValidate({ extends: ['html-validate:recommended'] }).validateString(page);
    expect(report.results.flatMap((r) => r.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`))).toEqual([]);
  });

  it('fail when a week has no run, saying by how much the interval was exceeded', async () => {
    await cp(join(cwd, 'series'), join(cwd, 'missed'), { recursive: true });
    await rm(join(cwd, 'missed', 'run-2'), { recursive: true });
    const result = await runBinary(cwd, ...EVIDENCE.map((arg) => (arg === 'series' ? 'missed' : arg)), '--format', 'json', '--out', 'missed.json');
    expect(result.code).toBe(2);
    const pack = JSON.parse(await readFile(join(cwd, 'missed.json'), 'utf8')) as EvidencePack;
    const gaps = pack.verdict.reasons.filter((r) => r.code === 'coverage-gap').map((r) => r.message);
    expect(gaps).toEqual([
      'no snapshot in the interval 2026-01-19 to 2026-01-25: 14 days without one, from 2026-01-12T05:23:07.000Z to 2026-01-26T05:23:21.000Z, 7 days over the 7-day interval',
    ]);
    expect(pack.coverage.buckets.map((b) => b.snapshots)).toEqual([1, 1, 0, 1]);
    expect(pack.inventory.scripts.length).toBeGreaterThan(0);
    expect(new Set(pack.inventory.scripts.map((e) => `${e.firstSeen ?? ''} ${e.lastSeen ?? ''}`))).toEqual(new Set(['2025-11-01T00:00:00.000Z 2026-06-30T00:00:00.000Z']));
    expect(result.stderr).toContain('FAIL (3 snapshots, 1 gap,');
    expect(pack.verdict.reasons.find((r) => r.code === 'chain-broken')?.message)
      .toBe('the chain is broken: the snapshot taken at 2026-01-19T05:23:14.000Z is missing, between missed/run-1/scripts-snapshot.json and missed/run-3/scripts-snapshot.json (1 break)');
  });

  it('name the missing middle run in scripts verify, not the run after it', async () => {
    const result = await runBinary(cwd, 'scripts', 'verify', 'missed');
    expect(result.code).toBe(2);
    expect(result.stdout.split('\n').slice(0, 4)).toEqual([
      'Chain of appId app-demo; tld shop.example.com: 3 snapshots, broken (1 break)',
      '  the chain starts at missed/run-0/scripts-snapshot.json',
      '  first break: the snapshot taken at 2026-01-19T05:23:14.000Z is missing, between missed/run-1/scripts-snapshot.json and missed/run-3/scripts-snapshot.json',
      '  removed: missed/run-3/scripts-snapshot.json (taken 2026-01-26T05:23:21.000Z): links to a snapshot taken at 2026-01-19T05:23:14.000Z, which is missing between missed/run-1/scripts-snapshot.json and it',
    ]);
  });
});
