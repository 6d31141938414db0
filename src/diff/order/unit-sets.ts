// Sets of PATCH units for the order search (search.ts): which unit may come next,
// and a key per set of units sent, whatever their order.
import type { OrderUnit } from './units.js';

/**
 * What may be sent after `sent`: the planner's unit of the next slot when its rule may not move,
 * else every movable unit not sent yet.
 */
export function nextUnits(units: readonly OrderUnit[], sent: readonly OrderUnit[], movable: ReadonlySet<string> | undefined): OrderUnit[] {
  const slot = units[sent.length];
  if (movable !== undefined && slot !== undefined && !movable.has(slot.ruleId)) return [slot];
  const done = new Set(sent.map((unit) => `${unit.part}:${unit.ruleId}`));
  return units.filter((unit) => !done.has(`${unit.part}:${unit.ruleId}`) && (movable === undefined || movable.has(unit.ruleId)));
}

export function sameUnit(a: OrderUnit, b: OrderUnit): boolean {
  return a.ruleId === b.ruleId && a.part === b.part;
}

/**
 * The set of units sent, whatever their order, as a key: a bit per unit (numbered as first
 * seen), 16 to a character. The keys of all prefixes of an order are built one unit after
 * another, in time linear in the order times its length in words rather than sorting every
 * prefix anew (a plan of 700 PATCHes has 700 prefixes).
 */
export class UnitSetKeys {
  private readonly ids = new Map<string, number>();

  of(sent: readonly OrderUnit[]): string {
    const words: number[] = [];
    for (const unit of sent) this.add(words, unit);
    return keyOf(words);
  }

  /** Index k: the key of the first k units. */
  ofPrefixes(units: readonly OrderUnit[]): string[] {
    const words: number[] = [];
    const keys = [keyOf(words)];
    for (const unit of units) {
      this.add(words, unit);
      keys.push(keyOf(words));
    }
    return keys;
  }

  private add(words: number[], unit: OrderUnit): void {
    const name = `${unit.part}:${unit.ruleId}`;
    let id = this.ids.get(name);
    if (id === undefined) this.ids.set(name, (id = this.ids.size));
    const word = id >> 4;
    while (words.length <= word) words.push(0);
    words[word] = (words[word] as number) | (1 << (id & 15));
  }
}

/** Trailing empty words dropped, so a set's key does not depend on how many units were numbered before it. */
function keyOf(words: readonly number[]): string {
  let end = words.length;
  while (end > 0 && words[end - 1] === 0) end -= 1;
  return String.fromCharCode(...words.slice(0, end));
}

