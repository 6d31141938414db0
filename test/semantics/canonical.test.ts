import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { canonicalJson, changedFields, identicalInOrder } from '../../src/semantics/canonical.js';
import type { Leaf, NormalRule } from '../../src/semantics/model.js';
import { normaliseRule } from '../../src/semantics/normalise.js';
import { conditionsFor, rule } from '../plan/fixtures.js';
import type { WrittenRule } from '../../src/semantics/written.js';
import { normal } from '../helpers/rules.js';

const ua: Leaf = { conditionType: 'userAgent', operator: '$contains', value: 'bot' };
const ips: Leaf = { conditionType: 'socketIps', operator: '$in', value: ['203.0.113.0/24'] };
const header: Leaf = { conditionType: 'header', fieldOption: 'x-bot', operator: '$exists' };

/** A rule with these groups of leaves, made normal at the rule-file boundary as every rule is. */
function withLeaves(...groups: Leaf[][]): NormalRule {
  return rule('r', { conditions: { operator: '$or', children: groups.map((children) => ({ operator: '$and', children })) } });
}

describe('canonical equality', () => {
  test.each<[string, NormalRule, NormalRule]>([
    ['leaves reordered within a group', withLeaves([ua, ips, header]), withLeaves([header, ua, ips])],
    ['groups reordered within the root', withLeaves([ua], [ips, header]), withLeaves([header, ips], [ua])],
    ['a leaf repeated', withLeaves([ua, ips]), withLeaves([ua, ips, ua])],
    ['actions reordered', rule('r', { actions: ['allow', 'hardBlock'] }), rule('r', { actions: ['hardBlock', 'allow'] })],
    ['a single string for $in (made normal at the file boundary)', withLeaves([ips]), withLeaves([{ ...ips, value: '203.0.113.0/24' }])],
    ['a one-element list for $contains (likewise)', withLeaves([ua]), withLeaves([{ ...ua, value: ['bot'] }])],
    ['a stray value on $exists (likewise)', withLeaves([header]), withLeaves([{ ...header, value: 'x' }])],
    ['description omitted vs "" (made normal at the file boundary)', rule('r'), normaliseRule({ ...rule('r'), description: undefined })],
    ['an unknown field of a leaf', withLeaves([ua, ips]), withLeaves([{ ...ua, caseSensitive: true } as Leaf, ips])],
    ['unknown fields of the rule, the tree and a group', rule('r'), normal({ ...rule('r'), createdBy: 'console', conditions: { ...conditionsFor('r'), mode: 'x', children: conditionsFor('r').children.map((g) => ({ ...g, label: 'g' })) } } as WrittenRule)],
  ])('%s is not a change', (_what, a, b) => {
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(changedFields(a, b)).toEqual([]);
  });

  test.each<[string, NormalRule, NormalRule, string[]]>([
    ['a value list reordered (values are not a set)', withLeaves([{ ...ips, value: ['a', 'b'] }]), withLeaves([{ ...ips, value: ['b', 'a'] }]), ['conditions']],
    ['a leaf moved to another group', withLeaves([ua, ips]), withLeaves([ua], [ips]), ['conditions']],
    ['a group operator', withLeaves([ua]), { ...withLeaves([ua]), conditions: { operator: '$or', children: [{ operator: '$or', children: [ua] }] } }, ['conditions']],
    ['name and status', rule('r'), rule('s', { status: 'paused', conditions: conditionsFor('r') }), ['name', 'status']],
  ])('%s is a change', (_what, a, b, fields) => {
    expect(canonicalJson(a)).not.toBe(canonicalJson(b));
    expect(changedFields(a, b)).toEqual(fields);
  });

  test('canonical JSON ignores the order of leaves, groups and actions (property)', () => {
    const leaves = [ua, ips, header, { conditionType: 'path', operator: '$re', value: ['^/a', '^/b'] } as Leaf];
    const arbRule = fc
      .record({
        groups: fc.array(fc.subarray(leaves, { minLength: 1 }), { minLength: 1, maxLength: 4 }),
        actions: fc.subarray(['allow', 'blockWithChallenge', 'hardBlock'] as const, { minLength: 1 }),
        seed: fc.integer(),
      })
      .map(({ groups, actions, seed }) => ({ groups, actions: [...actions], seed }));
    fc.assert(
      fc.property(arbRule, ({ groups, actions, seed }) => {
        const a = { ...withLeaves(...groups), actions };
        const shuffle = <T>(xs: T[]): T[] => xs.map((x, i) => ({ x, k: (i * 7919 + seed) % 101 })).sort((p, q) => p.k - q.k).map((p) => p.x);
        const b = { ...withLeaves(...shuffle(groups.map((g) => shuffle(g)))), actions: shuffle(actions) };
        expect(canonicalJson(a)).toBe(canonicalJson(b));
        expect(identicalInOrder(a, structuredClone(a))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  test('identicalInOrder is only a quick test: false for reordered but equal rules', () => {
    expect(identicalInOrder(withLeaves([ua, ips]), withLeaves([ips, ua]))).toBe(false);
    expect(identicalInOrder(withLeaves([ua, ips]), withLeaves([ua, ips]))).toBe(true);
  });
});
