// The rule sets as the behaviour search walks them (regions.ts): active rules only (decide()
// skips paused ones), each numbered by its conditions and by its conditions and outcome, and
// per set how long a tail it shares with the first, so that "every set has the same rules from
// here on" is a comparison of lengths. Also the shapes a region search gives and takes, which
// regions.ts and changed-search.ts share.
import type { EvaluationOptions } from '../evaluate/leaf.js';
import type { TestRequest } from '../evaluate/request.js';
import type { Action, Leaf, NormalRule } from '../semantics/model.js';
import { atomTree, type AtomTable, type AtomTree } from './atoms.js';
import { activeAfter, eachList, joinedIds, type RuleLists } from './list-delta.js';
import { reusedByNumbers, type ByNumber } from './number-ids.js';
import { outcomeKeyText, ruleKeysOf } from './rule-keys.js';
import type { RefutationStore } from './refutations.js';

export { conditionsKeyOf, ruleKeysOf } from './rule-keys.js';

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
  /**
   * Whether every list deciding this outcome is uninteresting (activeEntries asks it once per
   * outcome): then, with no list decided yet, "it matches" needs no search (regions.ts).
   */
  boring?: boolean;
}

/** The unchecked part's reason when the deadline came before the search ended. */
export const OUT_OF_TIME = 'the time budget ran out before these rules and the ones after them were searched';

export const NO_RULE_OUTCOME: DecidedOutcome = { rule: undefined, actions: [] };

export interface Entries {
  /**
   * Per list: the numbers of its entries in order (indices in `entries`). The transition check
   * passes hundreds of lists of thousands of rules, held through its search: four bytes per rule
   * and list off the heap, where an array of the entries held a pointer each (docs/behaviour.md,
   * "Safe transitions").
   */
  lists: Int32Array[];
  /** The entries by number, one per rule object. */
  entries: Entry[];
  /** Per entry number: its entry's id, for the questions asked of every list at each step. */
  idOf: Int32Array;
  /**
   * Per list: how many entries at its end are the same, one by one, as those at the end of the
   * first list. The rest of list i from position p is the rest of the first list from q exactly
   * when both have the same length and that length is at most this.
   */
  sharedTail: number[];
  /**
   * Per list: how many entries at its start are those of the list before, one by one (the first
   * list: 0). The transition check's states differ from the one before by a PATCH, so the
   * confirmation of a witness asks each list only from there (confirm.ts).
   */
  sharedHead: number[];
  /** Per position of the first list (its end included): every request all lists decide alike from there on is uninteresting. */
  boringFrom: boolean[];
  /** Every conditionsId is below it. */
  conditionsCount: number;
  /** Per conditionsId: its tree by atoms (atoms.ts). */
  trees: AtomTree[];
}

/** Also adds every leaf to `table`, with the rules it appears in. */
export function activeEntries(ruleSets: RuleLists, table: AtomTable, interesting: (outcomes: readonly RegionOutcome[]) => boolean): Entries {
  return reusedByNumbers(4, (byNumbers) => numberedEntries(ruleSets, table, interesting, byNumbers as [ByNumber, ByNumber, ByNumber, ByNumber]));
}

function numberedEntries(
  ruleSets: RuleLists,
  table: AtomTable,
  interesting: (outcomes: readonly RegionOutcome[]) => boolean,
  [conditionsIds, entryIds, byRule, boringOutcome]: [ByNumber, ByNumber, ByNumber, ByNumber],
): Entries {
  // Conditions and entries (conditions and outcome) share one numbering, in the order first seen,
  // looked up by the process-wide numbers of the rule object's keys (rule-keys.ts): conditionsIds
  // and entryIds. The transition check passes hundreds of lists that share nearly all their rule
  // objects: each rule object is numbered (and its leaves added) once, whatever the number of
  // lists (byRule). boringOutcome: per outcome number, 1 when boring, 0 when not.
  let numbered = 0;
  const entries: (Entry & { boring: boolean })[] = [];
  const trees: AtomTree[] = [];
  // Every list deciding alike, asked per outcome: one array refilled, not one per rule (changed-parts.ts).
  const same = new Array<DecidedOutcome>(ruleSets.length);
  const entryOf = (rule: NormalRule): number => {
    const keys = ruleKeysOf(rule);
    const known = byRule.get(keys.rule);
    if (known >= 0) return known;
    let conditionsId = conditionsIds.get(keys.conditionsNumber);
    if (conditionsId < 0) conditionsIds.set(keys.conditionsNumber, (conditionsId = numbered++));
    // Every leaf added, in the rules' order (the atoms' numbers follow it); the tree made once per conditions.
    if (trees[conditionsId] === undefined) trees[conditionsId] = atomTree(rule.conditions, table, rule.name, keys.leaves);
    else {
      // By the leaves' numbers, which the rule object keeps (rule-keys.ts): one look-up per rule, not per leaf.
      let next = 0;
      for (const group of rule.conditions.children) for (const leaf of group.children) table.add(leaf, rule.name, keys.leaves[next++] as number);
    }
    const outcome = ruleOutcome(rule);
    let boring = boringOutcome.get(keys.outcomeNumber);
    if (boring < 0) boringOutcome.set(keys.outcomeNumber, (boring = interesting(same.fill(outcome)) ? 0 : 1));
    byRule.set(keys.rule, entries.length);
    let id = entryIds.get(keys.pairNumber);
    if (id < 0) entryIds.set(keys.pairNumber, (id = numbered++));
    entries.push({ rule, conditionsId, id, outcome, boring: boring === 1 });
    return entries.length - 1;
  };
  // A list that is the very array of the one before (the transition check's states a description
  // apart) is numbered once; one that differs from it by a PATCH copies the numbers of the rules
  // both share at their start and end (list-delta.ts). Only the list before is held.
  const lists: Int32Array[] = [];
  const sharedHead: number[] = [];
  let previous: { rules: readonly NormalRule[]; numbers: Int32Array } | undefined;
  for (const rules of eachList(ruleSets)) {
    if (previous === undefined) {
      previous = { rules, numbers: Int32Array.from(rules.filter((rule) => rule.status === 'active').map(entryOf)) };
      sharedHead.push(0);
    } else if (previous.rules !== rules) {
      const delta = activeAfter(previous.rules, rules, entryOf, previous.numbers.length);
      previous = { rules, numbers: joinedIds(previous.numbers, delta) };
      sharedHead.push(delta.start);
    } else sharedHead.push(previous.numbers.length);
    lists.push(previous.numbers);
  }
  const idOf = Int32Array.from(entries, (entry) => entry.id);
  // Compared from the end, entry by entry: no number per position of every list (the lists
  // together may hold millions of positions), and a list that differs near its end costs little.
  const first = lists[0] ?? new Int32Array(0);
  const sharedTail = lists.map((numbers) => {
    let shared = 0;
    while (shared < numbers.length && shared < first.length && idOf[numbers[numbers.length - 1 - shared] as number] === idOf[first[first.length - 1 - shared] as number]) shared += 1;
    return shared;
  });
  const boringFrom = new Array<boolean>(first.length + 1);
  boringFrom[first.length] = !interesting(lists.map(() => NO_RULE_OUTCOME));
  for (let pos = first.length - 1; pos >= 0; pos--) boringFrom[pos] = (boringFrom[pos + 1] as boolean) && (entries[first[pos] as number] as Entry & { boring: boolean }).boring;
  return { lists, entries, idOf, sharedTail, sharedHead, boringFrom, conditionsCount: numbered, trees };
}

/**
 * Each rule object's outcome, made once: the searches of one plan (the transition check's, a
 * dozen on a large plan, and the behaviour diff's) number the same rule objects, and an outcome
 * per rule and search was a fifth of what numbering them made. The searches only read it
 * (found-regions.ts copies what a region keeps).
 */
const OUTCOMES = new WeakMap<NormalRule, DecidedOutcome>();

export function ruleOutcome(rule: NormalRule): DecidedOutcome {
  let outcome = OUTCOMES.get(rule);
  if (outcome === undefined) OUTCOMES.set(rule, (outcome = { rule: rule.name, actions: [...rule.actions] }));
  return outcome;
}

/** Numbers of outcome keys, in the order first seen. */
export class OutcomeNumbers {
  private readonly numbers = new Map<string, number>();

  of(outcomeKey: string): number {
    let number = this.numbers.get(outcomeKey);
    if (number === undefined) this.numbers.set(outcomeKey, (number = this.numbers.size));
    return number;
  }
}

/**
 * Per outcome object: its key. The search's outcomes are its entries' (one per rule object) and
 * NO_RULE_OUTCOME, never changed once made, and a found class of the transition check keys one
 * per list: hundreds per class.
 */
const OUTCOME_KEYS = new WeakMap<DecidedOutcome, string>();

/** Equal for outcomes with the same rule and the same set of actions. */
export function outcomeKey(outcome: DecidedOutcome): string {
  let key = OUTCOME_KEYS.get(outcome);
  if (key === undefined) OUTCOME_KEYS.set(outcome, (key = outcomeKeyText(outcome)));
  return key;
}


export interface Region {
  /** The conditions that characterise the class, as leaves that hold / do not hold (for text: "path starting /api/login and user agent containing python"). */
  description: string;
  constraints: { leaf: Leaf; holds: boolean }[];
  /** One concrete request, confirmed by the evaluator (decide()) to get `outcomes`. */
  witness: TestRequest;
  /** The deciding outcome under each rule set, same order as given. */
  outcomes: RegionOutcome[];
}

export interface RegionSearch {
  regions: Region[];
  /** Parts not decided exactly (a $re the solver cannot reason about, or the time budget ran out), each naming the rule(s). */
  unchecked: { reason: string; rules: string[] }[];
}

export interface RegionOptions {
  /** When to stop searching (Date.now() milliseconds): what is left is reported as unchecked. */
  deadline?: number;
  onProgress?: (done: number, total: number) => void;
  evaluation?: EvaluationOptions;
  /**
   * True when the outcomes known so far (undefined: not known yet) make the class uninteresting
   * whatever the others turn out to be: the search leaves that branch at once instead of
   * splitting on every later rule of the other sets (the transition check knows this as soon as
   * the start or the final rules let a class through).
   */
  hopeless?: (known: readonly (RegionOutcome | undefined)[]) => boolean;
  /**
   * What `interesting` reads of a decided outcome, when that is less than the outcome (the
   * transition check reads only whether it blocks or challenges): where the lists stand in step
   * (lockstep.ts), outcomes of one kind are asked about once.
   */
  outcomeKind?: (outcome: DecidedOutcome) => number;
  /**
   * Stop once this many regions are found (a policy needs one witness, not every class that
   * breaks it): what is left is not searched, and is not reported as unchecked either.
   */
  maxRegions?: number;
  /**
   * What the plan's searches before this one proved (refutations.ts), and where this one keeps
   * what it proves: one store per command, so the transition check's searches and the behaviour
   * diff's do not search again for requests another found none of.
   */
  refutations?: RefutationStore;
}

/**
 * The rules an unchecked part names: those whose conditions the search could not satisfy when
 * it knows them, else the rule it was exploring.
 */
export function* uncheckedRules(entry: Entry, rules: Iterable<string>): Generator<string> {
  let named = false;
  for (const rule of rules) {
    named = true;
    yield rule;
  }
  if (!named) yield entry.rule.name;
}
