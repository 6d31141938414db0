// plan --live reads each app's rules from the snapshot through snapshotSource: the rules the
// reader made are handed to the one listing of their app, not copied, and the source keeps
// none of them (a copy beside them doubled the live rules through the plan's analyses).
import { readLiveSnapshot, snapshotSource, takeSnapshot } from '../../src/live/snapshot.js';
import { UserError } from '../../src/errors.js';
import type { LiveRule } from '../../src/semantics/model.js';

const conditions = { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$eq', value: '/login' }] }] };
const rules = ['A', 'B', 'C'].map(
  (name, priority) => ({ ruleId: `00000000-0000-4000-8000-00000000000${priority}`, name, description: '', status: 'active', actions: ['allow'], conditions, priority }) as unknown as LiveRule,
);
const text = JSON.stringify(takeSnapshot([{ app: 'shop', rules }, { app: 'blog', rules: rules.slice(0, 1) }], new Date('2026-01-31T09:30:00.000Z')));

describe('the live snapshot as the source of plan --live', () => {
  it("lists each app's rules as the reader made them, not a copy", async () => {
    const snapshot = readLiveSnapshot(text, 'live.json');
    const connect = snapshotSource(snapshot, 'live.json');
    const shop = await connect({ name: 'shop' }).listRules();
    const blog = await connect({ name: 'blog' }).listRules();
    expect(shop).toBe(snapshot.apps[0]?.rules);
    expect(blog).toBe(snapshot.apps[1]?.rules);
    expect(shop.map((rule) => rule.name)).toEqual(['A', 'B', 'C']);
    expect(blog.map((rule) => rule.name)).toEqual(['A']);
  });

  it('gives an app its rules once: it keeps none it has handed over', () => {
    const connect = snapshotSource(readLiveSnapshot(text, 'live.json'), 'live.json');
    connect({ name: 'shop' });
    expect(() => connect({ name: 'shop' })).toThrow(new Error('internal: app "shop" was listed twice from the live snapshot live.json'));
    // The other app is still there.
    expect(() => connect({ name: 'blog' })).not.toThrow();
  });

  it('refuses an app the snapshot does not hold, naming the ones it does', () => {
    const connect = snapshotSource(readLiveSnapshot(text, 'live.json'), 'live.json');
    let thrown: unknown;
    try {
      connect({ name: 'admin' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UserError);
    expect((thrown as UserError).message).toBe('live.json holds no snapshot of app "admin"');
    expect((thrown as UserError).details).toEqual(['It has "shop", "blog"; take a new one with: botrules live --out live.json']);
  });
});
