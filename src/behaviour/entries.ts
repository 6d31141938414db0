// The rule sets as the behaviour search walks them (regions.ts): active rules only (decide()
// skips paused ones), each numbered by its conditions and by its conditions and outcome, and
// per position an id of the rest of the list, so that "every set has the same rules from here
// on" is one comparison of numbers.
import { canonicalConditions } from '../semantics/canonical.js';
import type { Action, Conditions, NormalRule } from '../semantics/model.js';
import type { AtomTable } from './atoms.js';

/** Which rule decides, with its actions; `rule` undefined when no active rule matches. */
export interface DecidedOutcome {
  rule: string | undefined;
  actions: Action[];
}

/** The deciding outcome under one rule set, or the rule whose `$re` ran out of its time budget. */
export type RegionOutcome = DecidedOutcome | { undecided: string };

export interface Entry {
  rule: NormalRule;
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
export function activeEntries(ruleSets: readonly (readonly NormalRule[])[], table: AtomTable, interesting: (outcomes: readonly RegionOutcome[]) => boolean): Entries {
  const ids = new Map<string, number>();
  const idOf = (key: string): number => {
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size));
    return id;
  };
  // The transition check passes hundreds of lists that share nearly all their rule objects: each
  // rule object is numbered (and its leaves added) once, whatever the number of lists.
  const byRule = new Map<NormalRule, Entry & { boring: boolean }>();
  const boringOutcome = new Map<string, boolean>();
  const entryOf = (rule: NormalRule): Entry & { boring: boolean } => {
    const known = byRule.get(rule);
    if (known !== undefined) return known;
    for (const group of rule.conditions.children) for (const leaf of group.children) table.add(leaf, rule.name);
    const outcome: DecidedOutcome = { rule: rule.name, actions: [...rule.actions] };
    const conditionsKey = conditionsKeyOf(rule.conditions);
    const key = outcomeKey(outcome);
    let boring = boringOutcome.get(key);
    if (boring === undefined) boringOutcome.set(key, (boring = !interesting(ruleSets.map(() => outcome))));
    const entry = { rule, conditionsId: idOf(conditionsKey), id: idOf(`${conditionsKey}\u0000${key}`), outcome, boring };
    byRule.set(rule, entry);
    return entry;
  };
  const sets: Entry[][] = ruleSets.map((rules) => rules.filter((rule) => rule.status === 'active').map(entryOf));
  // A suffix is numbered by its first entry's id and the number of the rest: a number key, as
  // the lists together may hold millions of positions.
  const suffixes = new Map<number, number>();
  const end = ids.size;
  const suffixOf = (entryId: number, rest: number): number => {
    const key = entryId * SUFFIX_KEY_SPAN + rest;
    let id = suffixes.get(key);
    if (id === undefined) suffixes.set(key, (id = end + 1 + suffixes.size));
    return id;
  };
  const boringEnd = !interesting(ruleSets.map(() => NO_RULE_OUTCOME));
  const suffixIds: number[][] = [];
  const boringSuffix: boolean[][] = [];
  for (const entries of sets) {
    const idsHere = new Array<number>(entries.length + 1);
    const boringHere = new Array<boolean>(entries.length + 1);
    idsHere[entries.length] = end;
    boringHere[entries.length] = boringEnd;
    for (let pos = entries.length - 1; pos >= 0; pos--) {
      const entry = entries[pos] as Entry & { boring: boolean };
      idsHere[pos] = suffixOf(entry.id, idsHere[pos + 1] as number);
      boringHere[pos] = (boringHere[pos + 1] as boolean) && entry.boring;
    }
    suffixIds.push(idsHere);
    boringSuffix.push(boringHere);
  }
  return { sets, suffixIds, boringSuffix };
}

/** The canonical key of each condition tree object, worked out once (as atoms.ts keeps each leaf's). */
const CONDITIONS_KEYS = new WeakMap<Conditions, string>();

function conditionsKeyOf(conditions: Conditions): string {
  let key = CONDITIONS_KEYS.get(conditions);
  if (key === undefined) CONDITIONS_KEYS.set(conditions, (key = JSON.stringify(canonicalConditions(conditions))));
  return key;
}

/** Suffix numbers stay below this (2^26 positions in all), so entry id × span + suffix is an exact number key. */
const SUFFIX_KEY_SPAN = 2 ** 26;

/** Equal for outcomes with the same rule and the same set of actions. */
export function outcomeKey(outcome: DecidedOutcome): string {
  return JSON.stringify([outcome.rule ?? null, [...outcome.actions].sort()]);
}
