// The key order import --update inserts by (WRITTEN_KEY_ORDER) is the order writtenRule and
// writtenLeaf write: one list, checked against what the functions produce.
import { describe, expect, test } from '@jest/globals';
import { WRITTEN_KEY_ORDER, writtenRule } from '../../src/semantics/written.js';
import { normaliseLiveRule } from '../../src/semantics/normalise.js';

function ordered(keys: readonly string[]): boolean {
  const positions = keys.map((key) => WRITTEN_KEY_ORDER.indexOf(key));
  return positions.every((position, index) => position !== -1 && (index === 0 || position > (positions[index - 1] as number)));
}

describe('the written key order', () => {
  test('is the order writtenRule writes a rule, a condition tree and a leaf in', () => {
    const live = normaliseLiveRule({
      name: 'Block', description: 'd', status: 'active', actions: ['hardBlock'],
      conditions: { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'header', fieldOption: 'x-a', operator: '$eq', value: 'v' }] }] },
    }, 'rules[0]', 'r-1', 0);
    const written = writtenRule(live) as { conditions: { children: { children: Record<string, unknown>[] }[] } } & Record<string, unknown>;
    expect(ordered(Object.keys(written))).toBe(true);
    expect(ordered(Object.keys(written.conditions))).toBe(true);
    expect(ordered(Object.keys(written.conditions.children[0] as object))).toBe(true);
    expect(ordered(Object.keys(written.conditions.children[0]?.children[0] as object))).toBe(true);
  });
});
