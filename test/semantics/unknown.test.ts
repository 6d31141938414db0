// Carrying fields botrules does not know into a `conditions` body (docs/behaviour.md,
// "Unknown fields"): golden cases for which live part stays, and what a body removes.
import { describe, expect, test } from '@jest/globals';
import { leafKey } from '../../src/semantics/canonical.js';
import type { Conditions, Leaf } from '../../src/semantics/model.js';
import { carryUnknownFields } from '../../src/semantics/unknown.js';

const ua = (value: string, extra: object = {}): Leaf => ({ conditionType: 'userAgent', operator: '$contains', value, ...extra }) as Leaf;
const tree = (...groups: object[]): Conditions => ({ operator: '$or', children: groups }) as Conditions;
const group = (children: Leaf[], extra: object = {}) => ({ operator: '$and', children, ...extra });

describe('carryUnknownFields', () => {
  test('a group that gains a leaf stays: its own and its kept leaves\' fields travel, nothing is dropped', () => {
    const live = { ...tree(group([ua('a', { caseSensitive: true })], { label: 'bots' })), mode: 'v2' } as Conditions;
    const declared = tree(group([ua('b'), ua('a')]));
    expect(carryUnknownFields(declared, live, leafKey)).toEqual({
      conditions: { operator: '$or', mode: 'v2', children: [{ operator: '$and', label: 'bots', children: [ua('b'), ua('a', { caseSensitive: true })] }] },
      drops: [],
    });
  });

  test('a group with no leaf left is replaced: its fields and its leaves\' fields are drops, in path order', () => {
    const live = tree(group([ua('x')]), group([ua('a', { caseSensitive: true }), ua('b', { note: 'n' })], { label: 'old' }));
    const declared = tree(group([ua('x')]), group([ua('c')]));
    expect(carryUnknownFields(declared, live, leafKey).drops).toEqual([
      { path: 'conditions.children[1]', field: 'label' },
      { path: 'conditions.children[1].children[0]', field: 'caseSensitive' },
      { path: 'conditions.children[1].children[1]', field: 'note' },
    ]);
  });

  test('a leaf the file adds takes the unknown fields written in the file; a kept leaf takes the live ones', () => {
    const live = tree(group([ua('a', { caseSensitive: true })]));
    const declared = tree(group([ua('a', { caseSensitive: false }), ua('n', { caseSensitive: false })]));
    expect(carryUnknownFields(declared, live, leafKey).conditions.children[0]?.children).toEqual([ua('a', { caseSensitive: true }), ua('n', { caseSensitive: false })]);
  });
});
