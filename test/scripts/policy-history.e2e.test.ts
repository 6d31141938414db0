// "Who approved what, when" from a real git history, through the real binary: an entry
// appended after a blank line is its appender's addition, and the entry above it keeps the one
// commit that added it. Author dates written with an offset are shown in UTC.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HtmlValidate } from 'html-validate';
import { sealSnapshot } from '../../src/scripts/chain.js';
import type { EvidencePack } from '../../src/scripts/evidence.js';
import { buildSnapshot } from '../../src/scripts/snapshot.js';
import { renderSnapshotJson } from '../../src/render/scripts/index.js';
import { runBinary } from '../helpers/binary.js';

const STRIPE = '  - pattern: "https://js.stripe.com/*"\n    justification: Card fields\n    owner: payments-team\n';
const ZENDESK = '  # The support widget, reviewed by support.\n  - vendor: Zendesk\n    justification: Support widget\n    owner: customer-support\n';
const HOTJAR = '  - pattern: "https://static.hotjar.com/*"\n    justification: Session recordings, masked\n    owner: web-analytics\n    expires: 2026-12-31\n';
let cwd: string;

function commit(message: string, who: string, date: string): void {
  const email = `${who.split(' ')[0]?.toLowerCase() ?? 'x'}@example.com`;
  const env = { ...process.env, GIT_AUTHOR_NAME: who, GIT_AUTHOR_EMAIL: email, GIT_AUTHOR_DATE: date, GIT_COMMITTER_NAME: who, GIT_COMMITTER_EMAIL: email, GIT_COMMITTER_DATE: date };
  execFileSync('git', ['add', 'scripts-policy.yaml'], { cwd, env });
  execFileSync('git', ['commit', '-q', '-m', message], { cwd, env });
}

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'botrules-policy-history-'));
  execFileSync('git', ['init', '-q'], { cwd });
  await writeFile(join(cwd, 'scripts-policy.yaml'), `approved:\n${STRIPE}`);
  commit('Approve Stripe', 'Alice Approver', '2026-01-05T10:00:00+02:00');
  await writeFile(join(cwd, 'scripts-policy.yaml'), `approved:\n${STRIPE}\n${ZENDESK}`);
  commit('Approve the support widget', 'Bob Support', '2026-01-12T09:30:00-05:00');
  await writeFile(join(cwd, 'scripts-policy.yaml'), `approved:\n${STRIPE}\n${ZENDESK}\n${HOTJAR}`);
  commit('Approve Hotjar until the end of the year', 'Carol Analytics', '2026-01-19T16:45:00Z');
  await mkdir(join(cwd, 'series'));
  const taken = Date.parse('2026-01-20T05:23:00Z');
  const snapshot = sealSnapshot(buildSnapshot({ query: { appId: ['app-demo'], tld: ['shop.example.com'], from: taken - 7 * 86_400_000, to: taken }, takenAt: taken, records: [], warnings: [] }), null);
  await writeFile(join(cwd, 'series', 'scripts-snapshot.json'), renderSnapshotJson(snapshot));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const EVIDENCE = ['scripts', 'evidence', 'series', '--from', '2026-01-20', '--to', '2026-01-20'];

it('names the one commit that added each entry, in UTC, and no change to the entries above an appended one', async () => {
  const result = await runBinary(cwd, ...EVIDENCE, '--format', 'json', '--out', 'pack.json');
  expect(result.stderr).toContain('Evidence 2026-01-20 to 2026-01-20');
  const pack = JSON.parse(await readFile(join(cwd, 'pack.json'), 'utf8')) as EvidencePack;
  expect(pack.approvals.git).toBe(true);
  expect(pack.approvals.entries.map((e) => [e.entry, e.line, e.history.map((c) => `${c.change} ${c.date} by ${c.author}: ${c.subject}`)])).toEqual([
    ['pattern: https://js.stripe.com/*', 2, ['added 2026-01-05T08:00:00.000Z by Alice Approver: Approve Stripe']],
    ['vendor: Zendesk', 7, ['added 2026-01-12T14:30:00.000Z by Bob Support: Approve the support widget']],
    ['pattern: https://static.hotjar.com/*', 11, ['added 2026-01-19T16:45:00.000Z by Carol Analytics: Approve Hotjar until the end of the year']],
  ]);
});

it('shows the same in the HTML pack', async () => {
  await runBinary(cwd, ...EVIDENCE, '--out', 'pack.html');
  const page = await readFile(join(cwd, 'pack.html'), 'utf8');
  const rows = [...page.replaceAll('<wbr>', '').matchAll(/<tr><td class="url">([^<]*)<\/td>(?:<td>[^<]*<\/td>){3}<td>([^<]*)<\/td><\/tr>/g)].map((m) => `${m[1] ?? ''}: ${(m[2] ?? '').replace(/ in [0-9a-f]{12} /, ' in COMMIT ')}`);
  expect(rows).toEqual([
    'pattern: https://js.stripe.com/*: added 2026-01-05T08:00:00.000Z by Alice Approver in COMMIT (Approve Stripe)',
    'vendor: Zendesk: added 2026-01-12T14:30:00.000Z by Bob Support in COMMIT (Approve the support widget)',
    'pattern: https://static.hotjar.com/*: added 2026-01-19T16:45:00.000Z by Carol Analytics in COMMIT (Approve Hotjar until the end of the year)',
  ]);
  const report = await new HtmlValidate({ extends: ['html-validate:recommended'] }).validateString(page);
  expect(report.results.flatMap((r) => r.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`))).toEqual([]);
});
