// The done-when of the evidence pack: a simulated quarter of weekly reports from the emulator
// (evidence-series.ts) with one missed week, one snapshot edited afterwards, one approval
// that expires mid-period and one high-risk script added. The pack, in JSON and HTML, shows
// exactly those, and `scripts verify` names the edited snapshot.
import { Ajv } from 'ajv';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HtmlValidate } from 'html-validate';
import type { EvidencePack } from '../../src/scripts/evidence.js';
import { runCli } from '../helpers/cli.js';
import { at, EXPIRES, PLANTED_URL, simulateQuarter, type Quarter } from './evidence-series.js';

const AFTER_QUARTER = () => Date.parse('2026-04-06T08:00:00Z');
const EVIDENCE = ['scripts', 'evidence', 'series', '--from', '2026-01-05', '--to', '2026-04-05'];
const file = (week: string) => `series/${week}/scripts-snapshot.json`;
let quarter: Quarter;
let pack: EvidencePack;
let page: string;

beforeAll(async () => {
  quarter = await simulateQuarter();
  const json = await runCli([...EVIDENCE, '--format', 'json', '--out', 'pack.json'], { cwd: quarter.cwd, now: AFTER_QUARTER });
  expect(json.code).toBe(2);
  pack = JSON.parse(await readFile(join(quarter.cwd, 'pack.json'), 'utf8')) as EvidencePack;
  const html = await runCli([...EVIDENCE, '--out', 'pack.html'], { cwd: quarter.cwd, now: AFTER_QUARTER });
  expect(html.code).toBe(2);
  page = await readFile(join(quarter.cwd, 'pack.html'), 'utf8');
});
afterAll(async () => {
  await quarter.close();
});

describe('scripts verify on the quarter', () => {
  it('names the edited snapshot as the first break and exits 2', async () => {
    const result = await runCli(['scripts', 'verify', 'series'], { cwd: quarter.cwd });
    expect(result.code).toBe(2);
    const lines = result.stdout.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'Chain of appId app-demo; tld shop.example.com: 12 snapshots, broken (1 break)',
      `  the chain starts at ${file('2026-01-05')}`,
      `  first break: ${file('2026-02-02')} altered`,
      `  altered: ${file('2026-02-02')} (taken 2026-02-02T05:23:00.000Z): its content no longer matches the digest it recorded when it was written`,
    ]);
    expect(lines[4]).toMatch(/^ {2}newest: series\/2026-03-30\/scripts-snapshot\.json sha256:[0-9a-f]{64}$/);
  });
});

describe('the evidence pack of the quarter (JSON)', () => {
  it('matches its schema', async () => {
    const schema = JSON.parse(await readFile('schemas/scripts-evidence.schema.json', 'utf8')) as object;
    const validate = new Ajv({ strict: true, allErrors: true }).compile(schema);
    expect(validate(pack) ? [] : validate.errors).toEqual([]);
  });

  it('fails for exactly the planted reasons', () => {
    expect(pack.verdict).toEqual({
      pass: false,
      reasons: [
        { code: 'coverage-gap', message: 'no snapshot in the interval 2026-02-16 to 2026-02-22: 14 days without one, from 2026-02-09T05:23:00.000Z to 2026-02-23T05:23:00.000Z, 7 days over the 7-day interval' },
        { code: 'chain-broken', message: `the chain is broken: ${file('2026-02-02')} altered (1 break)` },
        { code: 'unapproved-scripts', message: '2 scripts are not approved at the end of the period' },
      ],
    });
  });

  it('has one gap, the missed week, and one empty week in the calendar', () => {
    expect(pack.coverage.gaps).toEqual([{
      intervals: { from: '2026-02-16T00:00:00.000Z', to: '2026-02-23T00:00:00.000Z', count: 1 },
      from: '2026-02-09T05:23:00.000Z', to: '2026-02-23T05:23:00.000Z', durationMs: 14 * 86_400_000, overMs: 7 * 86_400_000,
      after: { file: file('2026-02-09'), takenAt: '2026-02-09T05:23:00.000Z' },
      before: { file: file('2026-02-23'), takenAt: '2026-02-23T05:23:00.000Z' },
    }]);
    expect(pack.coverage.buckets.filter((b) => b.snapshots === 0).map((b) => b.from)).toEqual(['2026-02-16T00:00:00.000Z']);
    expect(pack.coverage.buckets.filter((b) => b.state !== 'covered').map((b) => [b.from, b.state])).toEqual([['2026-02-16T00:00:00.000Z', 'missed']]);
    expect(pack.snapshots).toHaveLength(12);
  });

  it('lists exactly the planted changes, each with the snapshot that first showed it', () => {
    const end = Date.parse('2026-04-06T00:00:00Z');
    expect(pack.changes.map(({ kind, label, snapshot, unapproved }) => ({ kind, label, snapshot: snapshot.file, unapproved }))).toEqual([
      // Unapproved from the end of its expires day, not from the snapshot that first saw it lapsed.
      { kind: 'approval-lapsed', label: quarter.expiring.id, snapshot: file('2026-02-23'), unapproved: { since: '2026-02-21T00:00:00.000Z', resolution: 'open', durationMs: end - Date.parse('2026-02-21T00:00:00Z') } },
      { kind: 'added', label: PLANTED_URL, snapshot: file('2026-03-02'), unapproved: { since: '2026-03-02T05:23:00.000Z', resolution: 'open', durationMs: end - at('2026-03-02') } },
    ]);
  });

  it('puts the unapproved script first and the expired approval second, with their entries', () => {
    const [first, second, ...rest] = pack.inventory.scripts;
    expect(first).toMatchObject({ label: PLANTED_URL, status: 'unapproved', risk: { level: 'high' }, pageTypes: ['checkout'], firstSnapshot: { file: file('2026-03-02') } });
    expect(first?.approval).toBeUndefined();
    expect(second).toMatchObject({ label: quarter.expiring.id, status: 'expired', approval: { owner: 'team-web', expires: EXPIRES }, firstSnapshot: { file: file('2026-01-05') } });
    expect(rest.map((s) => s.status)).toEqual(Array(rest.length).fill('approved'));
    expect(rest).toHaveLength(quarter.scripts.length - 1);
  });

  it('says who approved each entry and who changed one, from git', () => {
    expect(pack.approvals.git).toBe(true);
    const people = pack.approvals.entries.map((e) => e.history.map((c) => `${c.change} by ${c.author} on ${c.date.slice(0, 10)}: ${c.subject}`));
    expect(people[0]).toEqual(['added by Alice Approver on 2025-12-15: Approve the shop scripts']);
    expect(people[1]).toEqual(['changed by Bob Reviewer on 2026-01-20: Say why the second script is needed', 'added by Alice Approver on 2025-12-15: Approve the shop scripts']);
    expect(pack.approvals.entries[0]).toMatchObject({ entry: `id: ${quarter.expiring.id ?? ''}`, owner: 'team-web', expires: EXPIRES });
  });

  it('carries the chain state with the one break', () => {
    expect(pack.chain.breaks.map((b) => [b.kind, b.file])).toEqual([['altered', file('2026-02-02')]]);
  });
});

describe('the evidence pack of the quarter (HTML)', () => {
  it('is valid HTML', async () => {
    const report = await new HtmlValidate({ extends: ['html-validate:recommended'] }).validateString(page);
    expect(report.results.flatMap((r) => r.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`))).toEqual([]);
  });

  it('is self-contained: no script, no external resource', () => {
    expect(page).not.toMatch(/<script|<link|<img|<iframe|\bsrc=|\bhref=|url\(|@import/i);
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
  });

  it('shows the verdict, the gap, the break, the changes and the unapproved scripts first', () => {
    expect(page).toContain('<h1>Verdict: FAIL</h1>');
    expect(page).toContain('<h2>Gaps in coverage (1)</h2><ul><li>no snapshot in the interval 2026-02-16 to 2026-02-22: 14 days without one, from 2026-02-09T05:23:00.000Z to 2026-02-23T05:23:00.000Z, 7 days over the 7-day interval</li></ul>');
    // A script location wraps only between its parts: after each separator, never inside a token.
    expect(page).toContain('<tr><td class="url">https://<wbr>cdn.metrics-cache.example/<wbr>skim.js?<wbr>v=<wbr>7</td><td class="risk high">high</td><td>unapproved</td></tr>');
    expect(page).not.toContain('break-all');
    const text = page.replaceAll('<wbr>', '');
    expect(text).toContain(`<tr><td class="url">${quarter.expiring.id ?? ''}</td><td class="risk medium">medium</td><td>approval expired ${EXPIRES}</td></tr>`);
    expect(page).toContain(`<li>altered: ${file('2026-02-02')} (taken 2026-02-02T05:23:00.000Z): its content no longer matches the digest it recorded when it was written</li>`);
    expect(text).toContain(`<tr><td>added</td><td class="url">${PLANTED_URL}</td><td>high</td><td>2026-03-02T05:23:00.000Z (${file('2026-03-02')})</td><td>34 days 19 hours from 2026-03-02T05:23:00.000Z, still unapproved at the end</td></tr>`);
    expect(text).toContain(`<tr><td>approval lapsed</td><td class="url">${quarter.expiring.id ?? ''}</td><td>medium</td><td>2026-02-23T05:23:00.000Z (${file('2026-02-23')})</td><td>44 days from 2026-02-21T00:00:00.000Z, still unapproved at the end</td></tr>`);
    expect(page.indexOf('id="verdict"')).toBeLessThan(page.indexOf('id="gaps"'));
    // What the pack does not prove, on the first screen and in the JSON.
    const headers = 'Security-impacting HTTP headers of the payment pages (which PCI DSS 11.6.1 also covers) are outside this pack: it proves the script inventory only, so monitor and evidence headers separately.';
    expect(page).toContain(`<p class="limits">Not covered: ${headers}</p></header>`);
    expect(pack.limitations).toEqual([headers]);
    expect(page).toContain('<footer>All times are UTC.');
    expect(page.indexOf('id="unapproved"')).toBeLessThan(page.indexOf('id="coverage"'));
  });
});
