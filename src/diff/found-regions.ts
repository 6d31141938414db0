// What a region search has found so far: its regions, each once under a key of its outcomes and
// the literals that characterise it, and the parts it could not decide, by reason
// (docs/behaviour.md, "Exhaustive behaviour diff").
import type { Literal } from './atoms.js';
import { OutcomeNumbers, outcomeKey, type DecidedOutcome, type Region, type RegionSearch } from './entries.js';

/** Rule names listed per unchecked part, at most. */
const MAX_UNCHECKED_RULES = 20;

export class FoundRegions {
  private readonly regions = new Map<string, Region>();
  private readonly unchecked = new Map<string, Set<string>>();
  /**
   * Per outcome object the search decides with (an entry's, entries.ts): its number, equal for
   * equal outcomeKeys, and the one copy every region holds of it. The transition check's regions
   * have an outcome per list, hundreds each: a key of their outcomeKeys and a copy per list were
   * most of what its first region search kept (docs/behaviour.md, "Safe transitions").
   */
  private readonly outcomes = new Map<DecidedOutcome, { number: number; copy: DecidedOutcome }>();
  private readonly numbers = new OutcomeNumbers();

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

  /** A region's key: its outcomes (by number), then its literals in a fixed order. */
  keyOf(outcomes: readonly DecidedOutcome[], literals: readonly Literal[]): string {
    return `${outcomes.map((outcome) => this.known(outcome).number).join(',')}\u0002${literals.map(({ atom, holds }) => `${holds ? '' : '!'}${atom.id}`).sort().join(',')}`;
  }

  /** The outcomes as a region holds them: each a copy, made once per outcome object of the search. */
  copies(outcomes: readonly DecidedOutcome[]): DecidedOutcome[] {
    return outcomes.map((outcome) => this.known(outcome).copy);
  }

  private known(outcome: DecidedOutcome): { number: number; copy: DecidedOutcome } {
    let known = this.outcomes.get(outcome);
    if (known === undefined) {
      const number = this.numbers.of(outcomeKey(outcome));
      this.outcomes.set(outcome, (known = { number, copy: { rule: outcome.rule, actions: [...outcome.actions] } }));
    }
    return known;
  }

  result(): RegionSearch {
    const unchecked = [...this.unchecked].map(([reason, rules]) => ({ reason, rules: [...rules] }));
    return { regions: [...this.regions.values()], unchecked };
  }
}

