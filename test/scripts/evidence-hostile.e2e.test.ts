// Every string in the evidence report comes from the inventory, the policy or git: script
// URLs, vendors, risk levels and reasons, page types, owners, commit subjects. None of them
// can add markup to the page, end an attribute or reach the SVG as anything but text.
import fc from 'fast-check';
import { HtmlValidate } from 'html-validate';
import { buildEvidence } from '../../src/scripts/evidence.js';
import { sealSnapshot, snapshotDigest } from '../../src/scripts/chain.js';
import type { SnapshotRecord } from '../../src/scripts/model.js';
import type { Policy } from '../../src/scripts/policy-match.js';
import { buildSnapshot } from '../../src/scripts/snapshot.js';
import { verifyChain } from '../../src/scripts/verify.js';
import type { SeriesMember } from '../../src/scripts/series.js';
import { renderEvidenceHtml } from '../../src/render/scripts/evidence-html.js';

const DAY = 86_400_000;
const START = Date.parse('2026-01-05T05:23:00Z');
const HOSTILE = [
  '"><script>alert(1)</script>',
  "'/><svg onload=alert(1)>",
  '</text><script>alert(2)</script><text>',
  '</title></svg><img src=x onerror=alert(3)>',
  'javascript:alert(4)',
  '\u202egnp.exe\u0007\u001b[31m',
  '<!--', ']]>', '&amp;&lt;', '`${x}`',
];

function pageFor(strings: readonly string[]): string {
  const s = (i: number) => strings[i % strings.length] ?? '';
  const records: SnapshotRecord[] = strings.map((_, i) => ({
    key: `k${i}`, id: `https://cdn.example/${s(i)}`, vendor: s(i + 1), type: s(i + 2),
    risk: { level: i % 2 === 0 ? s(i + 3) : 'high', reason: s(i + 4) }, page_types: [s(i + 5)],
    approved: i % 3 === 0, ...(i % 3 === 0 ? { approvedBy: `id: ${s(i)}` } : { approvalNote: s(i + 6) }),
  }));
  const members: SeriesMember[] = [0, 2].map((week, n) => {
    const snapshot = sealSnapshot(buildSnapshot({
      query: { appId: [s(7)], tld: [s(8)], from: START + (week - 1) * 7 * DAY, to: START + week * 7 * DAY },
      takenAt: START + week * 7 * DAY, records: n === 0 ? records.slice(1) : records, warnings: [], policyFile: 'p.yaml',
    }), null);
    return { file: `${s(9)}/${n}.json`, snapshot, digest: snapshotDigest(snapshot), copies: [] };
  });
  const policy: Policy = { file: 'p.yaml', entries: strings.map((str, i) => ({ id: `https://cdn.example/${str}`, justification: s(i + 1), owner: s(i + 2), expires: '2026-01-10', source: { file: 'p.yaml', line: i + 1, col: 3 } })) };
  const pack = buildEvidence({
    members, scope: { appId: [s(7)], tld: [s(8)] }, period: { from: START - DAY, to: START + 21 * DAY }, interval: { text: '7d', ms: 7 * DAY },
    policy, history: { git: true, note: s(3), entries: strings.map((str, i) => [{ commit: 'a'.repeat(40), author: str, date: '2026-01-01T00:00:00Z', subject: s(i + 1), change: 'added' as const }]) },
    chain: verifyChain(s(0), members), unreadable: [{ file: s(1), reason: s(2) }], now: START + 22 * DAY,
  });
  return renderEvidenceHtml(pack);
}

/** Strings made mostly of the characters markup is made of, and some of anything. */
const markupish = fc.oneof(
  fc.string({ unit: fc.constantFrom('<', '>', '"', "'", '&', '`', '/', '=', ' ', '!', '-', 'a', 's', 'script', 'svg', '\u202e', '\n'), minLength: 1, maxLength: 20 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }),
);
// <wbr> is the one element text adds by design: a break opportunity after each URL separator
// (breakableUrl), so how many there are depends on the text; every other tag must not.
const tags = (page: string) => [...page.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => m[1]).filter((tag) => tag !== 'wbr');
const safeTwin = (text: string) => Buffer.from(text, 'utf8').toString('hex');

describe('hostile text in the evidence report', () => {
  const page = pageFor(HOSTILE);

  it('stays text: the page is valid HTML with no script, handler or external reference', async () => {
    const report = await new HtmlValidate({ extends: ['html-validate:recommended'] }).validateString(page);
    expect(report.results.flatMap((r) => r.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`))).toEqual([]);
    // Escaped text has no raw `<`, so any match below would be markup the page really has.
    // eslint-disable-next-line no-control-regex
    expect(page).not.toMatch(/<script|<img|<[^>]*\s(?:on[a-z]+|src|href)=|\u202e|\u001b|\u0007/i);
  });

  it('shows each string escaped, controls as visible escapes', () => {
    expect(page).toContain('<td class="url">https://<wbr>cdn.example/<wbr>&quot;&gt;&lt;script&gt;alert(1)&lt;/<wbr>script&gt;</td>');
    expect(page).toContain('\\u202egnp.exe\\x07\\x1b[31m');
  });

  it('has the same markup whatever the strings are (property)', () => {
    fc.assert(
      fc.property(fc.array(markupish, { minLength: 3, maxLength: 8 }).filter((a) => new Set(a).size === a.length), (strings) => {
        expect(tags(pageFor(strings))).toEqual(tags(pageFor(strings.map(safeTwin))));
      }),
      { numRuns: 40 },
    );
  });
});
