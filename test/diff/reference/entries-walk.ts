// activeEntries as it was before it copied the entries a list shares with the one before
// (src/diff/list-delta.ts): every list filtered and mapped whole. The property test of
// test/diff/list-delta.property.test.ts holds the new one to it.
import type { NormalRule } from '../../../src/semantics/model.js';
import type { Atom, AtomTable, AtomTree } from '../../../src/diff/atoms.js';
import { NO_RULE_OUTCOME, outcomeKey, ruleKeysOf, type DecidedOutcome, type Entries, type Entry, type RegionOutcome } from '../../../src/diff/entries.js';

/** Also adds every leaf to `table`, with the rules it appears in. */
/** The entries of each list as arrays of them (as activeEntries gave them before it numbered them). */
export type WalkedEntries = Omit<Entries, 'lists' | 'entries' | 'idOf' | 'sharedHead'> & { sets: Entry[][] };

export function activeEntriesWalked(ruleSets: readonly (readonly NormalRule[])[], table: AtomTable, interesting: (outcomes: readonly RegionOutcome[]) => boolean): WalkedEntries {
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
    const keys = { conditions: ruleKeysOf(rule).conditions, outcome: outcomeKey(outcome) };
    let boring = boringOutcome.get(keys.outcome);
    if (boring === undefined) boringOutcome.set(keys.outcome, (boring = !interesting(ruleSets.map(() => outcome))));
    const conditionsId = idOf(keys.conditions);
    const entry = { rule, conditionsId, id: idOf(`${conditionsId}\u0000${keys.outcome}`), outcome, boring };
    byRule.set(rule, entry);
    return entry;
  };
  // Equal lists (the transition check's states a description apart are one array) are filtered once.
  const filtered = new Map<readonly NormalRule[], Entry[]>();
  const sets: Entry[][] = ruleSets.map((rules) => {
    let entries = filtered.get(rules);
    if (entries === undefined) filtered.set(rules, (entries = rules.filter((rule) => rule.status === 'active').map(entryOf)));
    return entries;
  });
  // Compared from the end, entry by entry: no number per position of every list (the lists
  // together may hold millions of positions), and a list that differs near its end costs little.
  const first = sets[0] ?? [];
  const sharedTail = sets.map((entries) => {
    let shared = 0;
    while (shared < entries.length && shared < first.length && (entries[entries.length - 1 - shared] as Entry).id === (first[first.length - 1 - shared] as Entry).id) shared += 1;
    return shared;
  });
  const boringFrom = new Array<boolean>(first.length + 1);
  boringFrom[first.length] = !interesting(ruleSets.map(() => NO_RULE_OUTCOME));
  for (let pos = first.length - 1; pos >= 0; pos--) boringFrom[pos] = (boringFrom[pos + 1] as boolean) && (first[pos] as Entry & { boring: boolean }).boring;
  // Each conditions' tree by the atoms of its first rule's leaves, looked up after every leaf is added.
  const trees: AtomTree[] = [];
  for (const entry of sets.flat()) {
    const conditions = entry.rule.conditions;
    trees[entry.conditionsId] ??= { all: conditions.operator === '$and', groups: conditions.children.map((group) => ({ all: group.operator === '$and', atoms: group.children.map((leaf) => table.of(leaf) as Atom) })) };
  }
  return { sets, sharedTail, boringFrom, conditionsCount: ids.size, trees };
}

