// The order search of a plan too large to try every order of its PATCH requests (search.ts):
// window by window, the PATCH that closes a class's window is sent right before the
// one that opens it, or the opener right after the closer, and each move that lowers the number
// of open states is kept. Each order tried is checked whole, as any other (its states not
// checked before, in one region search), so what it reports is exact; only the orders it tries
// are few, and the plan says so.
import type { OrderUnit } from './units.js';

export interface OrderCosts {
  /** Open states of a whole order; undefined when the deadline left one unchecked. */
  costOf(units: readonly OrderUnit[]): number | undefined;
  /** Per class open in a state of a checked order: the first and the last state (after k PATCHes) it is open in. */
  openSpans(units: readonly OrderUnit[]): { first: number; last: number }[];
}

/** The cheapest order found, or undefined when the deadline came first. */
export function locallyCheapest(search: OrderCosts, units: readonly OrderUnit[], cost: number): { units: OrderUnit[]; cost: number } | undefined {
  let best = { units: [...units], cost };
  // Each pair of opener and closer is tried once, so the orders tried are at most twice the classes.
  const tried = new Set<string>();
  for (let improved = true; improved && best.cost > 0;) {
    improved = false;
    for (const { first, last } of search.openSpans(best.units)) {
      // State k is reached by the unit at index k − 1: the class opens with unit first − 1 and closes with unit last.
      const pair = [best.units[first - 1], best.units[last]].map((unit) => `${unit?.part}:${unit?.ruleId}`).join('>');
      if (tried.has(pair)) continue;
      tried.add(pair);
      for (const candidate of [moved(best.units, last, first - 1), moved(best.units, first - 1, last)]) {
        const candidateCost = search.costOf(candidate);
        if (candidateCost === undefined) return undefined;
        if (candidateCost < best.cost) {
          best = { units: candidate, cost: candidateCost };
          improved = true;
          break;
        }
      }
      if (improved) break;
    }
  }
  return best;
}

/** `units` with the unit at `from` taken out and put where the unit at `to` was (before it when moving up, after it when moving down). */
function moved(units: readonly OrderUnit[], from: number, to: number): OrderUnit[] {
  const copy = [...units];
  const [unit] = copy.splice(from, 1);
  copy.splice(to, 0, unit as OrderUnit);
  return copy;
}
