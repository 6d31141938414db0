// The ways grouped into parts once per plan (src/diff/part-ways.ts): a search that numbers the
// same rules, written alike, gets the grouping of the search before; rules alike but for the
// order of their groups, or other changed rules, are grouped again, as if for the first time.
import { describe, expect, test } from '@jest/globals';
import { partWays } from '../../src/diff/part-ways.js';
import type { Group, Leaf, NormalRule } from '../../src/semantics/model.js';
import { normal } from '../helpers/rules.js';

const host = (value: string): Leaf => ({ conditionType: 'domain', operator: '$eq', value });
const path = (value: string): Leaf => ({ conditionType: 'path', operator: '$startsWith', value });
const group = (...children: Leaf[]): Group => ({ operator: '$and', children });

function rule(name: string, ...ways: Group[]): NormalRule {
  return normal({ name, description: '', status: 'active', actions: ['hardBlock'], conditions: { operator: '$or', children: ways } });
}

/** The rule with its groups in reverse order: the same rule, its ways numbered otherwise. */
function reversed(one: NormalRule): NormalRule {
  return { ...one, conditions: { ...one.conditions, children: [...one.conditions.children].reverse() } };
}

/** Each part as rule name and the required host of each way in it. */
function described(rules: readonly NormalRule[], result: ReturnType<typeof partWays>): string[][] {
  if (result === 'late') return [['late']];
  return result.parts.map((part) =>
    part.map(({ rule, way }) => {
      const { name, conditions } = rules[rule] as NormalRule;
      const leaf = (conditions.children[Math.max(way, 0)] as Group).children[0];
      return `${name}:${String(leaf?.value ?? '*')}`;
    }),
  );
}

const RULES = [
  rule('spread', group(host('a.example'), path('/x')), group(host('b.example'), path('/y'))),
  rule('on a', group(host('a.example'), path('/x'))),
  rule('on b', group(host('b.example'), path('/y/z'))),
  rule('on c', group(host('c.example'), path('/x'))),
];

describe('ways grouped once per plan', () => {
  test('the same rules again: the very grouping of the search before', () => {
    const changed = Uint8Array.from([0, 1, 1, 0]);
    const first = partWays(RULES, changed);
    const again = partWays([...RULES], Uint8Array.from(changed));
    expect(again).not.toBe('late');
    expect(first).not.toBe('late');
    if (first === 'late' || again === 'late') return;
    expect(again.ways).toBe(first.ways);
    expect(again.parts).toBe(first.parts);
    expect(described(RULES, again)).toEqual([['spread:a.example', 'on a:a.example'], ['spread:b.example', 'on b:b.example']]);
  });

  test('a rule alike but for the order of its groups: its ways numbered as it has them', () => {
    // The grouping is looked up by the first rule object: the same here, the second rule a copy.
    const rules = [RULES[1], RULES[0], RULES[2], RULES[3]] as NormalRule[];
    const changed = Uint8Array.from([0, 1, 0, 0]);
    expect(described(rules, partWays(rules, changed))).toEqual([['on a:a.example', 'spread:a.example'], ['spread:b.example', 'on b:b.example']]);
    const copied = [rules[0], reversed(rules[1] as NormalRule), rules[2], rules[3]] as NormalRule[];
    expect(described(copied, partWays(copied, changed))).toEqual([['on a:a.example', 'spread:a.example'], ['spread:b.example', 'on b:b.example']]);
  });

  test('the same rules with other rules changed: parts for those', () => {
    partWays(RULES, Uint8Array.from([0, 1, 0, 0]));
    expect(described(RULES, partWays(RULES, Uint8Array.from([0, 0, 0, 1])))).toEqual([['on c:c.example']]);
    expect(described(RULES, partWays(RULES, Uint8Array.from([0, 1, 0, 0])))).toEqual([['spread:a.example', 'on a:a.example']]);
  });
});
