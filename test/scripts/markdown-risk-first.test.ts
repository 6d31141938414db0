// The Markdown report and diff put risk first: unapproved and high-risk scripts at the top,
// riskiest first; added scripts by risk; script URLs as code spans that copy exactly (no
// zero-width characters) and never become links; a risk chart any renderer shows the same.
// Asserted on whole lines of the Markdown and of cmark-gfm's HTML (GitHub's engine).
import { diffSnapshots } from '../../src/scripts/diff.js';
import type { SnapshotRecord } from '../../src/scripts/model.js';
import { buildSnapshot } from '../../src/scripts/snapshot.js';
import { renderDiffMarkdown } from '../../src/render/scripts/diff.js';
import { renderReportMarkdown } from '../../src/render/scripts/report-markdown.js';
import { codeSpan } from '../../src/render/markdown.js';
import { renderGfm } from '../helpers/cmark.js';

const HOSTILE_URL = 'https://cdn.evil.example/x.js?a=1|b=`2`&c=@org/team <script>alert(1)</script>';
const records: SnapshotRecord[] = [
  { key: '1', id: 'https://js.stripe.com/v3/', vendor: 'Stripe', risk: { level: 'low' }, page_types: ['checkout'], approved: true, approvedBy: 'pattern: https://js.stripe.com/*' },
  { key: '2', id: 'https://www.googletagmanager.com/gtm.js', vendor: 'Google', risk: { level: 'high', reason: 'injects scripts' }, page_types: ['checkout'], approved: false, approvalNote: 'approval (vendor: Google) expired on 2025-01-01' },
  { key: '3', id: HOSTILE_URL, vendor: 'Unknown', risk: { level: 'critical', reason: 'reads card fields' }, page_types: ['checkout'], approved: false },
  { key: '4', id: 'https://x.example/plain.js', risk: { level: 'medium' }, approved: false },
  { key: '5', id: 'https://cdn.example/lib.js', vendor: 'CDN', risk: { level: 'high', reason: 'old version' }, approved: true, approvedBy: 'id: https://cdn.example/lib.js' },
];
const snapshot = (recs: SnapshotRecord[], takenAt = 86_400_000) =>
  buildSnapshot({ query: { appId: ['app'], tld: ['shop.example'], from: 0, to: takenAt }, takenAt, records: recs, warnings: [], policyFile: 'scripts-policy.yaml' });
const md = renderReportMarkdown(snapshot(records)).split('\n');
const tableAfter = (lines: string[], heading: string) => {
  const first = lines.findIndex((l, i) => i > lines.indexOf(heading) && l.startsWith('|'));
  return lines.slice(first, lines.indexOf('', first));
};

describe('scripts report --format markdown', () => {
  it('puts the unapproved and high-risk scripts first, then the counts', () => {
    expect(md.filter((l) => l.startsWith('## '))).toEqual([
      '## Unapproved scripts (3)', '## High-risk scripts (3)', '## Risk levels', '## By type', '## By vendor', '## By page type',
    ]);
  });

  it('lists unapproved scripts riskiest first, each URL a code span', () => {
    expect(tableAfter(md, '## Unapproved scripts (3)')).toEqual([
      '| Script | Vendor | Risk | Page types | Note |',
      '| --- | --- | --- | --- | --- |',
      '| ``https://cdn.evil.example/x.js?a=1\\|b=`2`&c=@org/team <script>alert(1)</script>`` | Unknown | critical | checkout |  |',
      '| `https://www.googletagmanager.com/gtm.js` | Google | high | checkout | approval (vendor: Google) expired on 2025-01-01 |',
      '| `https://x.example/plain.js` |  | medium |  |  |',
    ]);
  });

  it('lists high-risk scripts riskiest first, saying which are approved', () => {
    expect(tableAfter(md, '## High-risk scripts (3)').slice(2).map((l) => l.split(' | ')[0])).toEqual([
      '| ``https://cdn.evil.example/x.js?a=1\\|b=`2`&c=@org/team <script>alert(1)</script>``',
      '| `https://cdn.example/lib.js`',
      '| `https://www.googletagmanager.com/gtm.js`',
    ]);
  });

  it('draws the risk levels as a table with text bars, no Mermaid', () => {
    expect(tableAfter(md, '## Risk levels')).toEqual([
      '| Risk level | Scripts |  |',
      '| --- | ---: | --- |',
      '| critical | 1 | ██████████ |',
      '| high | 2 | ████████████████████ |',
      '| medium | 1 | ██████████ |',
      '| low | 1 | ██████████ |',
    ]);
    expect(md.join('\n')).not.toContain('mermaid');
  });

  it('renders on GitHub with copyable URLs that are not links', () => {
    const html = renderGfm(md.join('\n'));
    expect(html).toContain('<td><code>https://cdn.evil.example/x.js?a=1|b=`2`&amp;c=@org/team &lt;script&gt;alert(1)&lt;/script&gt;</code></td>');
    expect(html).toContain('<td><code>https://www.googletagmanager.com/gtm.js</code></td>');
    expect(html).toContain('<td>██████████</td>');
    const all = html.join('\n');
    expect(all).not.toMatch(/<a |<script|\u200b|&#8203;/);
  });
});

describe('scripts diff --format markdown', () => {
  const older = snapshot([records[0] as SnapshotRecord], 1000);
  const diff = diffSnapshots(older, snapshot(records, 2000));
  const lines = renderDiffMarkdown(diff).split('\n');

  it('sorts added scripts by risk, highest first', () => {
    expect(tableAfter(lines, '## Added (4)').slice(2).map((l) => l.split(' | ').slice(0, 4).join(' | '))).toEqual([
      '| ``https://cdn.evil.example/x.js?a=1\\|b=`2`&c=@org/team <script>alert(1)</script>`` | Unknown |  | critical',
      '| `https://cdn.example/lib.js` | CDN |  | high',
      '| `https://www.googletagmanager.com/gtm.js` | Google |  | high',
      '| `https://x.example/plain.js` |  |  | medium',
    ]);
  });

  it('renders the URLs exactly, as code', () => {
    const html = renderGfm(lines.join('\n'));
    expect(html).toContain('<td><code>https://x.example/plain.js</code></td>');
    expect(html.join('\n')).not.toMatch(/<a |<script|\u200b|&#8203;/);
  });
});

describe('codeSpan', () => {
  it.each([
    ['plain', '`plain`'],
    ['a`b', '``a`b``'],
    ['`edge`', '`` `edge` ``'],
    [' spaced ', '`  spaced  `'],
    ['line\nbreak', '`line\\nbreak`'],
  ])('%j → %s', (text, expected) => {
    expect(codeSpan(text)).toBe(expected);
  });

  it('round-trips through cmark-gfm for awkward text', () => {
    for (const text of ['`edge`', 'a``b`c', ' spaced ', '<b>&amp;</b>', 'x|y']) {
      const html = renderGfm(`| a |\n| --- |\n| ${codeSpan(text, { inTable: true })} |\n`);
      const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
      expect(html).toContain(`<td><code>${escaped}</code></td>`);
    }
  });
});
