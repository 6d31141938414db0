import { CSV_COLUMNS, csvSink, ndjsonSink } from '../../src/render/scripts/streamed.js';
import { renderReportMarkdown } from '../../src/render/scripts/report-markdown.js';
import { renderSnapshotJson } from '../../src/render/scripts/index.js';
import { cell, withinBudget } from '../../src/render/markdown.js';
import type { SnapshotRecord } from '../../src/scripts/model.js';
import { buildSnapshot } from '../../src/scripts/snapshot.js';

function collector() {
  const chunks: string[] = [];
  return { emit: async (chunk: string) => void chunks.push(chunk), text: () => chunks.join('') };
}

const tricky: SnapshotRecord = {
  key: 'k1',
  id: 'https://cdn.example/a.js?x=1,2',
  vendor: 'Acme, "Inc."',
  risk: { level: 'high', reason: 'line one\nline two\r\nline three' },
  page_types: ['checkout', 'home'],
  users_affected_percentage: 12.5,
  ack: false,
  approved: true,
  approvedBy: 'vendor: Acme, "Inc."',
};

describe('csv', () => {
  it('quotes commas, quotes and line breaks per RFC 4180, with CRLF records and a fixed header', async () => {
    const out = collector();
    const sink = csvSink(out.emit);
    await sink.write([tricky]);
    await sink.write([{ key: 'k2', risk: { level: 'low', reason: 'cr\ronly' } }]);
    await sink.end();
    const text = out.text();
    expect(text.split('\r\n')[0]).toBe(CSV_COLUMNS.join(','));
    expect(text).toContain('"Acme, ""Inc."""');
    expect(text).toContain('"https://cdn.example/a.js?x=1,2"');
    expect(text).toContain('"line one\nline two\r\nline three"');
    expect(text).toContain('"cr\ronly"');
    expect(text.endsWith('\r\n')).toBe(true);
    // Every field in CSV_COLUMNS order; the records are the header's line and the two after it.
    expect(text).toBe(
      `${CSV_COLUMNS.join(',')}\r\n` +
        'k1,"https://cdn.example/a.js?x=1,2",,,,"Acme, ""Inc.""",high,"line one\nline two\r\nline three",12.5,,,checkout;home,false,true,"vendor: Acme, ""Inc.""",\r\n' +
        'k2,,,,,,low,"cr\ronly",,,,,,,,\r\n',
    );
  });

  it('writes the header alone for an empty inventory', async () => {
    const out = collector();
    const sink = csvSink(out.emit);
    await sink.write([]);
    await sink.end();
    expect(out.text()).toBe(`${CSV_COLUMNS.join(',')}\r\n`);
  });
});

describe('ndjson', () => {
  it('writes one object per line with fields in a fixed order', async () => {
    const out = collector();
    const sink = ndjsonSink(out.emit);
    await sink.write([{ page_types: ['a'], vendor: 'V', key: 'k', extra: 1 } as SnapshotRecord, tricky]);
    await sink.end();
    const lines = out.text().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('{"key":"k","vendor":"V","page_types":["a"],"extra":1}');
    expect(JSON.parse(lines[1] ?? '')).toEqual(tricky);
  });
});

describe('json snapshot', () => {
  it('is sorted by key with normalised field order, so two runs diff cleanly', () => {
    const snapshot = buildSnapshot({
      query: { appId: ['app'], tld: ['shop.example'], from: 0, to: 86_400_000 },
      takenAt: 86_400_000,
      records: [{ vendor: 'B', key: 'b' }, { risk: { reason: 'r', level: 'low' }, key: 'a' }, { id: 'no-key' }],
      warnings: ['count changed'],
      policyFile: 'scripts-policy.yaml',
    });
    const text = renderSnapshotJson(snapshot);
    const value = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['formatVersion', 'query', 'takenAt', 'tool', 'policy', 'count', 'warnings', 'records']);
    expect(value.query).toEqual({ appId: ['app'], tld: ['shop.example'], from: '1970-01-01T00:00:00.000Z', to: '1970-01-02T00:00:00.000Z', fromMs: 0, toMs: 86_400_000 });
    expect((value.records as SnapshotRecord[]).map((r) => r.key ?? r.id)).toEqual(['a', 'b', 'no-key']);
    expect(text).toContain('"risk": {\n        "level": "low",\n        "reason": "r"\n      }');
  });
});

describe('markdown report', () => {
  const records: SnapshotRecord[] = [
    { key: '1', id: 'https://js.stripe.com/v3/', vendor: 'Stripe', type: 'payment', risk: { level: 'low' }, page_types: ['checkout'], approved: true, approvedBy: 'pattern: https://js.stripe.com/*' },
    { key: '2', id: 'https://cdn.evil.example/x.js', vendor: 'Unknown', type: 'other', risk: { level: 'critical', reason: 'reads | card fields' }, page_types: ['checkout'], approved: false },
    { key: '3', id: 'https://www.googletagmanager.com/gtm.js', vendor: 'Google', type: 'analytics', risk: { level: 'high', reason: 'injects scripts' }, page_types: ['home', 'checkout'], approved: false, approvalNote: 'approval (vendor: Google) expired on 2025-01-01' },
    { key: '4', id: 'https://x.example/odd.js', risk: { level: 'odd' } },
  ];
  const snapshot = buildSnapshot({
    query: { appId: ['app'], tld: ['shop.example'], from: 0, to: 86_400_000 },
    takenAt: 86_400_000,
    records,
    warnings: ['the inventory changed while paging'],
    policyFile: 'scripts-policy.yaml',
  });
  const md = renderReportMarkdown(snapshot);

  it('has a table of risk levels in scale order, highest first, with text bars', () => {
    expect(md).toContain('| Risk level | Scripts |  |\n| --- | ---: | --- |\n| critical | 1 | ████████████████████ |\n| high | 1 | ████████████████████ |\n| low | 1 | ████████████████████ |\n| odd | 1 | ████████████████████ |\n');
  });

  it('counts by type, vendor and page type', () => {
    expect(md).toContain('## By type');
    expect(md).toContain('| Unknown | 1 |');
    expect(md).toContain('| (none) | 1 |');
    expect(md).toMatch(/## By page type\n\n\| Page type \| Scripts \|\n\| --- \| ---: \|\n\| checkout \| 3 \|\n\| home \| 1 \|\n\| \(none\) \| 1 \|/);
  });

  it('lists high-risk scripts with their reasons, critical first, escaping table syntax', () => {
    expect(md).toContain('## High-risk scripts (2)');
    expect(md).toContain('| `https://cdn.evil.example/x.js` | Unknown | critical | reads \\| card fields | checkout | **no** |\n| `https://www.googletagmanager.com/gtm.js` |');
  });

  it('lists unapproved scripts with the expiry note, and shows warnings', () => {
    expect(md).toContain('## Unapproved scripts (3)');
    expect(md).toContain('approval (vendor: Google) expired on 2025-01-01');
    expect(md).toContain('> [!WARNING]\n> the inventory changed while paging');
  });

  it('says when no policy was used', () => {
    const plain = renderReportMarkdown({ ...snapshot, policy: undefined } as never);
    expect(plain).toContain('No approval policy was used');
  });

  it('stays under the step-summary size by capping long lists with a note', () => {
    const many: SnapshotRecord[] = Array.from({ length: 20_000 }, (_, i) => ({
      key: `k${i}`,
      id: `https://cdn.example/${'x'.repeat(150)}/${i}.js`,
      vendor: `Vendor ${i % 300}`,
      risk: { level: 'high', reason: 'r'.repeat(180) },
      page_types: ['checkout'],
    }));
    const big = renderReportMarkdown(buildSnapshot({ query: { appId: ['a'], tld: ['t'], from: 0, to: 1 }, takenAt: 1, records: many, warnings: [], policyFile: 'p.yaml' }));
    expect(Buffer.byteLength(big)).toBeLessThan(1024 * 1024);
    expect(big).toMatch(/_… and \d+ more, not shown here; the `json` snapshot has every record\._/);
    expect(big).toContain('## High-risk scripts (20000)');
  });
});

describe('markdown helpers', () => {
  it('escapes cells so they cannot break a table or inject HTML', () => {
    expect(cell('a|b\nc <img src=x> *x* [l](u)')).toBe('a\\|b c &lt;img src=x&gt; \\*x\\* \\[l\\](u)');
  });

  it('halves the row cap until the text fits', () => {
    const caps: number[] = [];
    withinBudget((n) => (caps.push(n), 'x'.repeat(n * 10)), 500, 1000);
    expect(caps).toEqual([500, 250, 125, 62]);
  });
});
