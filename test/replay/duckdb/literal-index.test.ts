// leafTexts() (src/replay/duckdb/literal-index.ts): the texts a leaf's verdict needs, for the
// patterns RE2 decides (whole, or split at leading lookaheads), and none for those V8 runs.
import { leafTexts, LiteralIndex } from '../../../src/replay/duckdb/literal-index.js';
import type { Leaf } from '../../../src/semantics/model.js';

const re = (...value: string[]): Leaf => ({ conditionType: 'userAgent', operator: '$re', value } as Leaf);

it('names the literal of each pattern RE2 decides, and none where one pattern has none or V8 runs it', () => {
  expect(leafTexts(re('bot-5\\b', '^curl/7\\.'))).toEqual(['bot-5', 'curl/7.']);
  expect(leafTexts(re('^(?!Mozilla).*bot-10$'))).toEqual(['bot-10']);
  expect(leafTexts(re('bot-5', '^[0-9]+$'))).toBeUndefined();
  // A backreference: no RE2 form, V8 under its budget.
  expect(leafTexts(re('(a)\\1bot'))).toBeUndefined();
  expect(leafTexts({ conditionType: 'userAgent', operator: '$contains', value: 'x-1' } as Leaf)).toEqual(['x-1']);
  expect(leafTexts({ conditionType: 'userAgent', operator: '$eq', value: 'x-1' } as Leaf)).toBeUndefined();
});

it('finds the leaves whose texts a value holds, short or long', () => {
  const index = new LiteralIndex();
  index.add('ab', 0);
  index.add('b', 1);
  index.add('zz', 2);
  const found = (value: string) => { const at = new Set<number>(); index.holders(value, (one) => at.add(one)); return [...at].sort(); };
  expect(found('xab')).toEqual([0, 1]);
  expect(found('b')).toEqual([1]);
  expect(found(`${'x'.repeat(40)}zz`)).toEqual([2]);
  expect(found('')).toEqual([]);
});
