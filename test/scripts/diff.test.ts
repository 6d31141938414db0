import { UserError } from '../../src/errors.js';
import { diffSnapshots, evaluateFailOn, parseFailOn } from '../../src/scripts/diff.js';
import type { Snapshot, SnapshotRecord } from '../../src/scripts/model.js';
import { buildSnapshot } from '../../src/scripts/snapshot.js';
import { describeChange, renderDiffJson, renderDiffMarkdown, renderDiffText } from '../../src/render/scripts/diff.js';

function snapshot(records: SnapshotRecord[], query: { appId?: string[]; tld?: string[]; from?: number } = {}): Snapshot {
  const from = query.from ?? Date.UTC(2025, 5, 1);
  return buildSnapshot({
    query: { appId: query.appId ?? ['app'], tld: query.tld ?? ['shop.example'], from, to: from + 7 * 86_400_000 },
    takenAt: from + 7 * 86_400_000,
    records,
    warnings: [],
  });
}

const stripe: SnapshotRecord = { key: 'k-stripe', id: 'https://js.stripe.com/v3/', vendor: 'Stripe', type: 'payment', risk: { level: 'low' }, page_types: ['checkout'] };
const gtm: SnapshotRecord = { key: 'k-gtm', id: 'https://www.googletagmanager.com/gtm.js', vendor: 'Google', type: 'analytics', risk: { level: 'medium' }, page_types: ['home'] };
const widget: SnapshotRecord = { key: 'k-widget', id: 'https://chat.example/w.js', vendor: 'ChatCo', type: 'support', risk: { level: 'low' }, page_types: ['home'] };
const skimmer: SnapshotRecord = { key: 'k-new', id: 'https://cdn.evil.example/x.js', vendor: 'Unknown', risk: { level: 'critical', reason: 'reads card fields' }, page_types: ['checkout'] };

describe('diffSnapshots', () => {
  const older = snapshot([stripe, gtm, widget]);
  const newer = snapshot(
    [
      stripe,
      { ...gtm, risk: { level: 'high' }, page_types: ['home', 'checkout'], vendor: 'Google LLC' },
      { ...widget, risk: { level: 'weird' }, type: 'chat' },
      skimmer,
    ],
    { from: Date.UTC(2025, 5, 8) },
  );
  const diff = diffSnapshots(older, newer);

  it('finds added, removed and changed scripts across different windows', () => {
    expect(diff.added.map((r) => r.key)).toEqual(['k-new']);
    expect(diff.removed).toEqual([]);
    // Lists are in reading order: by script location.
    expect(diff.changed.map((c) => c.label)).toEqual(['https://chat.example/w.js', 'https://www.googletagmanager.com/gtm.js']);
    expect(diff.unchanged).toBe(1);
    expect(diff.old.from).toBe('2025-06-01T00:00:00.000Z');
    expect(diff.new.from).toBe('2025-06-08T00:00:00.000Z');
  });

  it('says how each script changed: risk direction, vendor, type, page types, newly on checkout', () => {
    const gtmChange = diff.changed.find((c) => c.record.key === 'k-gtm');
    expect(gtmChange).toMatchObject({
      risk: { from: 'medium', to: 'high', direction: 'up' },
      vendor: { from: 'Google', to: 'Google LLC' },
      pageTypes: { added: ['checkout'], removed: [] },
      newlyOnCheckout: true,
    });
    expect(describeChange(gtmChange!)).toEqual(['risk medium → high (up)', 'vendor Google → Google LLC', 'page types +checkout', 'newly on checkout']);
    const widgetChange = diff.changed.find((c) => c.record.key === 'k-widget');
    expect(widgetChange).toMatchObject({ risk: { from: 'low', to: 'weird', direction: 'changed' }, type: { from: 'support', to: 'chat' }, newlyOnCheckout: false });
  });

  it('sees risk going down and scripts removed', () => {
    const back = diffSnapshots(newer, older);
    expect(back.removed.map((r) => r.key)).toEqual(['k-new']);
    expect(back.changed.find((c) => c.record.key === 'k-gtm')?.risk?.direction).toBe('down');
  });

  it('compares risk levels without regard to case and page types as a set', () => {
    const a = snapshot([{ key: 'k', risk: { level: 'High' }, page_types: ['b', 'a'] }]);
    const b = snapshot([{ key: 'k', risk: { level: 'high' }, page_types: ['a', 'b'] }]);
    expect(diffSnapshots(a, b)).toMatchObject({ changed: [], unchanged: 1 });
  });

  it('refuses snapshots of different apps or domains', () => {
    expect(() => diffSnapshots(older, snapshot([], { tld: ['other.example'] }))).toThrow(UserError);
    expect(() => diffSnapshots(older, snapshot([], { appId: ['other'] }))).toThrow(/different apps or domains/);
    // The same sets in another order are the same inventory.
    expect(() => diffSnapshots(snapshot([], { appId: ['a', 'b'] }), snapshot([], { appId: ['b', 'a', 'a'] }))).not.toThrow();
  });

  describe('--fail-on', () => {
    const marked = newer.records.map((r) => ({ ...r, approved: r.key === 'k-stripe' }));

    it('matches new scripts', () => {
      expect(evaluateFailOn(diff, marked, ['new'])).toEqual([{ condition: 'new', scripts: ['https://cdn.evil.example/x.js'] }]);
    });

    it('matches risk going up, not unknown levels', () => {
      expect(evaluateFailOn(diff, marked, ['risk-up'])).toEqual([{ condition: 'risk-up', scripts: ['https://www.googletagmanager.com/gtm.js'] }]);
    });

    it('matches every high or critical script in NEW', () => {
      expect(evaluateFailOn(diff, marked, ['high-risk'])).toEqual([
        { condition: 'high-risk', scripts: ['https://cdn.evil.example/x.js', 'https://www.googletagmanager.com/gtm.js'] },
      ]);
    });

    it('matches every script in NEW that is not approved', () => {
      const [match] = evaluateFailOn(diff, marked, ['unapproved']);
      expect(match?.scripts).toHaveLength(3);
      expect(match?.scripts).not.toContain('https://js.stripe.com/v3/');
    });

    it('returns nothing when no condition matches', () => {
      const same = diffSnapshots(older, older);
      expect(evaluateFailOn(same, older.records.map((r) => ({ ...r, approved: true })), ['new', 'risk-up', 'unapproved', 'high-risk'])).toEqual([]);
    });

    it('reads repeated and comma-separated values, and refuses unknown ones', () => {
      expect(parseFailOn(['new,risk-up', 'high-risk', 'new'])).toEqual(['new', 'risk-up', 'high-risk']);
      expect(() => parseFailOn(['new,bogus'])).toThrow('--fail-on: unknown condition bogus; choose from new, risk-up, unapproved, high-risk');
    });
  });

  describe('renderers', () => {
    it('text lists added, removed and changed lines with a summary', () => {
      const text = renderDiffText(diff);
      expect(text).toContain('+ https://cdn.evil.example/x.js  (Unknown, risk critical, pages checkout)');
      expect(text).toContain('~ https://www.googletagmanager.com/gtm.js  risk medium → high (up); vendor Google → Google LLC; page types +checkout; newly on checkout');
      expect(text).toMatch(/1 added, 0 removed, 2 changed, 1 unchanged\n$/);
    });

    it('json carries the summary, the records and the fail-on matches', () => {
      const value = JSON.parse(renderDiffJson(diff, [{ condition: 'new', scripts: ['x'] }])) as Record<string, unknown>;
      expect(value).toMatchObject({ formatVersion: 1, summary: { added: 1, removed: 0, changed: 2, unchanged: 1 }, failOn: [{ condition: 'new' }] });
      expect((value.changed as { key: string }[]).map((c) => c.key)).toEqual(['k-widget', 'k-gtm']);
    });

    it('markdown has a table per kind of change', () => {
      const md = renderDiffMarkdown(diff);
      expect(md).toContain('## Added (1)');
      expect(md).toContain('## Changed (2)');
      expect(md).not.toContain('## Removed');
      // Bare links from data are neutralised: the text reads the same but links nowhere.
      expect(md).toContain('| `https://cdn.evil.example/x.js` | Unknown |  | critical | checkout |');
    });
  });
});
