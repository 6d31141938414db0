// What a region search has found so far: its regions, each once under a key of its outcomes and
// the literals that characterise it, and the parts it could not decide, by reason
// (docs/behaviour.md, "Exhaustive behaviour diff").
import type { Literal } from './atoms.js';
import { outcomeKey, type DecidedOutcome, type Region, type RegionSearch } from './entries.js';

/** Rule names listed per unchecked part, at most. */
const MAX_UNCHECKED_RULES = 20;

export class FoundRegions {
  private readonly regions = new Map<string, Region>();
  private readonly unchecked = new Map<string, Set<string>>();

  get size(): number {
    return this.regions.size;
  }

  has(key: string): boolean {
    return this.regions.has(key);
  }

  add(key: string, region: Region): void {
    this.regions.set(key, region);
  }

  /** `rules` are read only until MAX_UNCHECKED_RULES are known (a lazy list may name thousands, model.ts). */
  addUnchecked(reason: string, rules: Iterable<string>): void {
    const known = this.unchecked.get(reason) ?? new Set<string>();
    for (const rule of rules) {
      if (known.size >= MAX_UNCHECKED_RULES) break;
      known.add(rule);
    }
    this.unchecked.set(reason, known);
  }

  result(): RegionSearch {
    const unchecked = [...this.unchecked].map(([reason, rules]) => ({ reason, rules: [...rules] }));
    return { regions: [...this.regions.values()], unchecked };
  }
}

/** A region's key: its outcomes, then its literals in a fixed order. */
export function regionKey(outcomes: readonly DecidedOutcome[], literals: readonly Literal[]): string {
  return `${outcomes.map(outcomeKey).join('\u0001')}\u0002${literals.map(({ atom, holds }) => `${holds ? '' : '!'}${atom.id}`).sort().join(',')}`;
}
