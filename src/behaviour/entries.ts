// The rule sets as the behaviour search walks them (regions.ts): active rules only (decide()
// skips paused ones), each numbered by its conditions and by its conditions and outcome, and
// per position an id of the rest of the list, so that "every set has the same rules from here
// on" is one comparison of numbers.
import { canonicalConditions } from '../semantics/canonical.js';
import type { Rule } from '../rules/model.js';
import type { AtomTable } from './atoms.js';
import type { DecidedOutcome, RegionOutcome } from './regions.js';

export interface Entry {
  rule: Rule;
  /** Equal for rules with the same conditions. */
  conditionsId: number;
  /** Equal for rules with the same conditions and outcome. */
  id: number;
  outcome: DecidedOutcome;
}

export const NO_RULE_OUTCOME: DecidedOutcome = { rule: undefined, actions: [] };

export interface Entries {
  sets: Entry[][];
  /** Per set and position (the end included): equal exactly when the rest of the lists are the same rules. */
  suffixIds: number[][];
  /** Per set and position: every request all sets decide alike from there on is uninteresting. */
  boringSuffix: boolean[][];
}

/** Also adds every leaf to `table`, with the rules it appears in. */
export function activeEntries(ruleSets: readonly (readonly Rule[])[], table: AtomTable, interesting: (outcomes: readonly RegionOutcome[]) => boolean): Entries {
  const ids = new Map<string, number>();
  const idOf = (key: string): number => {
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size));
    return id;
  };
  const sets = ruleSets.map((rules) => rules.filter((rule) => rule.status === 'active').map((rule): Entry => {
    for (const group of rule.conditions.children) for (const leaf of group.children) table.add(leaf, rule.name);
    const outcome: DecidedOutcome = { rule: rule.name, actions: [...rule.actions] };
    const conditionsKey = JSON.stringify(canonicalConditions(rule.conditions));
    return { rule, conditionsId: idOf(conditionsKey), id: idOf(`${conditionsKey}\u0000${outcomeKey(outcome)}`), outcome };
  }));
  const boringOutcome = new Map<string, boolean>();
  const boring = (outcome: DecidedOutcome): boolean => {
    const key = outcomeKey(outcome);
    let known = boringOutcome.get(key);
    if (known === undefined) boringOutcome.set(key, (known = !interesting(sets.map(() => outcome))));
    return known;
  };
  const suffixIds: number[][] = [];
  const boringSuffix: boolean[][] = [];
  for (const entries of sets) {
    const idsHere = new Array<number>(entries.length + 1);
    const boringHere = new Array<boolean>(entries.length + 1);
    idsHere[entries.length] = idOf('end');
    boringHere[entries.length] = boring(NO_RULE_OUTCOME);
    for (let pos = entries.length - 1; pos >= 0; pos--) {
      const entry = entries[pos] as Entry;
      idsHere[pos] = idOf(`suffix ${entry.id} ${idsHere[pos + 1] as number}`);
      boringHere[pos] = (boringHere[pos + 1] as boolean) && boring(entry.outcome);
    }
    suffixIds.push(idsHere);
    boringSuffix.push(boringHere);
  }
  return { sets, suffixIds, boringSuffix };
}

/** Equal for outcomes with the same rule and the same set of actions. */
export function outcomeKey(outcome: DecidedOutcome): string {
  return JSON.stringify([outcome.rule ?? null, [...outcome.actions].sort()]);
}
