// The integrity value of a live snapshot: it covers every field (format version, takenAt, app
// names, fingerprints and so the rules), and reading refuses a file whose value does not match.
import fc from 'fast-check';
import { readLiveSnapshot, snapshotIntegrity, takeSnapshot } from '../../src/live/snapshot.js';
import { ValidationError } from '../../src/errors.js';
import type { LiveRule } from '../../src/semantics/model.js';

const conditions = { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$eq', value: '/login' }] }] };
const rules = ['A', 'B', 'C'].map(
  (name, priority) => ({ ruleId: `00000000-0000-4000-8000-00000000000${priority}`, name, description: '', status: 'active', actions: ['allow'], conditions, priority }) as unknown as LiveRule,
);
const taken = takeSnapshot([{ app: 'shop', rules }, { app: 'blog', rules: rules.slice(0, 1) }], new Date('2026-01-31T09:30:00.000Z'));

const messages = (text: string): string[] => {
  try {
    readLiveSnapshot(text, 'live.json');
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.problems.map((p) => p.message);
  }
};

describe('live snapshot integrity', () => {
  it('reads back what takeSnapshot wrote', () => {
    expect(readLiveSnapshot(JSON.stringify(taken), 'live.json')).toEqual(taken);
  });

  it('changes with every covered field', () => {
    const base = snapshotIntegrity(taken);
    expect(snapshotIntegrity({ ...taken, takenAt: '2026-01-31T09:30:00.001Z' })).not.toBe(base);
    expect(snapshotIntegrity({ ...taken, apps: [...taken.apps].reverse() })).not.toBe(base);
    expect(snapshotIntegrity({ ...taken, apps: taken.apps.map((a, i) => (i === 0 ? { ...a, app: 'shop2' } : a)) })).not.toBe(base);
    expect(snapshotIntegrity({ ...taken, apps: taken.apps.slice(0, 1) })).not.toBe(base);
  });

  it('refuses any takenAt other than the one sealed', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }), (date) => {
        fc.pre(date.toISOString() !== taken.takenAt);
        const moved = JSON.stringify({ ...taken, takenAt: date.toISOString() });
        expect(messages(moved)).toEqual([
          'the integrity value of live.json does not match its contents (formatVersion, takenAt, apps): the snapshot was edited or damaged; take a new one with botrules live',
        ]);
      }),
      { numRuns: 50 },
    );
  });

  it('refuses an app renamed, dropped or swapped with another app\'s rules and fingerprint', () => {
    const [shop, blog] = taken.apps as [(typeof taken.apps)[number], (typeof taken.apps)[number]];
    for (const apps of [[{ ...shop, app: 'other' }, blog], [shop], [{ ...blog, app: 'shop' }, blog]]) {
      expect(messages(JSON.stringify({ ...taken, apps }))).toEqual([expect.stringMatching(/^the integrity value of live\.json does not match/)]);
    }
  });

  it('accepts a snapshot whose integrity value was recomputed: it proves the file is whole, not who wrote it', () => {
    const forged = { ...taken, takenAt: '2099-01-01T00:00:00.000Z' };
    expect(messages(JSON.stringify({ ...forged, integrity: snapshotIntegrity(forged) }))).toEqual([]);
  });
});
