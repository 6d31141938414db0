// The order search of a large plan (src/diff/order/local-order.ts), against a cost model whose
// windows are known: a class opens when its opener is sent before its closer and stays open
// until the closer is sent.
import { locallyCheapest, type OrderCosts } from '../../src/diff/order/local-order.js';
import type { OrderUnit } from '../../src/diff/order/units.js';

const unit = (ruleId: string): OrderUnit => ({ ruleId, part: 'whole' });

/** Windows: each pair [opener, closer] is open in the states after the opener and before the closer. */
function costs(pairs: readonly [string, string][], asked: string[][] = []): OrderCosts {
  const spans = (units: readonly OrderUnit[]) => pairs.flatMap(([opener, closer]) => {
    const first = units.findIndex((u) => u.ruleId === opener) + 1;
    const last = units.findIndex((u) => u.ruleId === closer);
    return last >= first ? [{ first, last }] : [];
  });
  return {
    costOf: (units) => {
      asked.push(units.map((u) => u.ruleId));
      const open = new Set<number>();
      for (const { first, last } of spans(units)) for (let state = first; state <= last; state++) open.add(state);
      return open.size;
    },
    openSpans: spans,
  };
}

describe('locallyCheapest', () => {
  it('sends the closer before the opener, class by class, until no window is left', () => {
    const units = ['a', 'b', 'c', 'd', 'e', 'f'].map(unit);
    const model = costs([['b', 'd'], ['e', 'f']]);
    const found = locallyCheapest(model, units, model.costOf(units) as number);
    expect(found?.cost).toBe(0);
    expect(found?.units.map((u) => u.ruleId)).toEqual(['a', 'd', 'b', 'c', 'f', 'e']);
  });

  it('keeps the order it was given when no move lowers the cost, trying each pair once', () => {
    const units = ['a', 'b', 'c'].map(unit);
    const asked: string[][] = [];
    // Whatever the order of a and c, one of them is open: no single move helps.
    const model: OrderCosts = { costOf: (u) => (asked.push(u.map((x) => x.ruleId)), 1), openSpans: () => [{ first: 1, last: 2 }] };
    const found = locallyCheapest(model, units, 1);
    expect(found).toEqual({ units, cost: 1 });
    expect(asked).toEqual([['c', 'a', 'b'], ['b', 'c', 'a']]);
  });

  it('says nothing of an order when the deadline leaves one unchecked', () => {
    const units = ['a', 'b', 'c'].map(unit);
    expect(locallyCheapest({ costOf: () => undefined, openSpans: () => [{ first: 1, last: 2 }] }, units, 1)).toBeUndefined();
  });
});
