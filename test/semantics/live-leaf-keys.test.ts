// A live leaf as normaliseLiveRule makes it (src/semantics/normalise.ts): its keys in the order the
// service lists them, whatever the order of the answer it came from (conditionType, operator,
// then fieldOption and value when it has them, then fields botrules does not know), for each of
// the four sets of keys a leaf can have, the value normalised by its operator.
import { describe, expect, test } from '@jest/globals';
import { normaliseLiveRule, type LooseRule } from '../../src/semantics/normalise.js';

function leafOf(written: Record<string, unknown>): [string, unknown][] {
  const rule = normaliseLiveRule({
    name: 'Leaf', status: 'active', actions: ['hardBlock'],
    conditions: { operator: '$and', children: [{ operator: '$and', children: [written] }] },
  } as unknown as LooseRule, 'rules[0]', 'r-1', 0);
  return Object.entries(rule.conditions.children[0]?.children[0] as object);
}

describe('a live leaf', () => {
  test('has its keys in the order the service lists them, for each set of keys', () => {
    expect(leafOf({ operator: '$exists', conditionType: 'userAgent' })).toEqual([['conditionType', 'userAgent'], ['operator', '$exists']]);
    expect(leafOf({ value: ['FR'], operator: '$in', conditionType: 'country' })).toEqual([['conditionType', 'country'], ['operator', '$in'], ['value', ['FR']]]);
    expect(leafOf({ fieldOption: 'accept-language', operator: '$notExists', conditionType: 'header' })).toEqual([['conditionType', 'header'], ['operator', '$notExists'], ['fieldOption', 'accept-language']]);
    expect(leafOf({ value: 'v', fieldOption: 'x-a', operator: '$eq', conditionType: 'header' })).toEqual([['conditionType', 'header'], ['operator', '$eq'], ['fieldOption', 'x-a'], ['value', 'v']]);
  });

  test('keeps fields it does not know after its own, and a value as its operator reads it', () => {
    expect(leafOf({ note: 'kept', value: ['v'], fieldOption: 'x-a', operator: '$eq', conditionType: 'header' }))
      .toEqual([['conditionType', 'header'], ['operator', '$eq'], ['fieldOption', 'x-a'], ['value', 'v'], ['note', 'kept']]);
    expect(leafOf({ value: 'GET', operator: '$in', conditionType: 'method' })).toEqual([['conditionType', 'method'], ['operator', '$in'], ['value', ['GET']]]);
    expect(leafOf({ value: 'ignored', operator: '$exists', conditionType: 'userAgent' })).toEqual([['conditionType', 'userAgent'], ['operator', '$exists']]);
  });
});
