// What the region searches of a plan work out of a rule object, once per object: its keys (by
// conditions and by outcome, which number the search's entries, entries.ts and changed-parts.ts)
// and the numbers of its leaves (semantics/program.ts leafNumber), by which each search's atom
// table finds them (atoms.ts). The transition check searches hundreds of lists that share their
// rule objects, in a dozen searches on a large plan, and the behaviour diff searches them again:
// none of this depends on the search, so it is not worked out again per search.
import { canonicalGroup } from '../semantics/canonical.js';
import type { Action, Conditions, Group, NormalRule } from '../semantics/model.js';
import { leafNumber } from '../semantics/program.js';
import { NumberIds } from './number-ids.js';

export interface RuleKeys {
  /** conditionsKeyOf the rule's conditions. */
  conditions: string;
  /**
   * The leafNumber of each leaf of its conditions, group by group, in the order written: an
   * array of small numbers (an Int32Array per rule object held twice as much in the heap, its
   * buffer aside).
   */
  leaves: readonly number[];
  /**
   * Process-wide numbers, by which a search numbers its rules in arrays outside the heap
   * (number-ids.ts ByNumber), not in Maps of its own: of the rule object, of its conditions key,
   * of its outcome key (outcomeKeyText of its name and actions), and of the two keys together.
   * The Maps each search made (four in entries.ts, four in changed-parts.ts) outlived two
   * scavenges, so they stayed in the heap's old generation until a full collection: about 8 of
   * the 100 MB the analyses of the `networks` benchmark shape add to it (bench/README.md, "What
   * the analyses promote"). The outcome key itself is not kept: only its number is read.
   */
  rule: number;
  conditionsNumber: number;
  outcomeNumber: number;
  pairNumber: number;
}

const RULE_KEYS = new WeakMap<NormalRule, RuleKeys>();
/**
 * The keys' numbers, in the order first seen. Kept for the process, as semantics/program.ts
 * keeps its leaf keys: one entry per distinct key of the rule objects of a plan's searches.
 */
const CONDITIONS_NUMBERS = new Map<string, number>();
const OUTCOME_NUMBERS = new Map<string, number>();
const PAIR_NUMBERS = new NumberIds();
let rulesNumbered = 0;

export function ruleKeysOf(rule: NormalRule): RuleKeys {
  let keys = RULE_KEYS.get(rule);
  if (keys === undefined) {
    const leaves: number[] = [];
    for (const group of rule.conditions.children) for (const leaf of group.children) leaves.push(leafNumber(leaf));
    const conditions = conditionsKeyOf(rule.conditions);
    const conditionsNumber = numberOf(CONDITIONS_NUMBERS, conditions);
    const outcomeNumber = numberOf(OUTCOME_NUMBERS, outcomeKeyText({ rule: rule.name, actions: rule.actions }));
    // Both numbers below 2^26 (far more keys than a process makes): one whole number per pair.
    const pairNumber = PAIR_NUMBERS.idOf(conditionsNumber * 2 ** 26 + outcomeNumber);
    // slice(): an array the size of what it holds (pushed, it had room for seventeen).
    keys = { conditions, leaves: leaves.slice(), rule: rulesNumbered++, conditionsNumber, outcomeNumber, pairNumber };
    RULE_KEYS.set(rule, keys);
  }
  return keys;
}

function numberOf(numbers: Map<string, number>, key: string): number {
  let number = numbers.get(key);
  if (number === undefined) numbers.set(key, (number = numbers.size));
  return number;
}

/** Equal for outcomes with the same rule and the same set of actions. */
export function outcomeKeyText(outcome: { rule: string | undefined; actions: readonly Action[] }): string {
  return JSON.stringify([outcome.rule ?? null, [...outcome.actions].sort()]);
}

/** The canonical key of each condition tree object, worked out once (as semantics/program.ts numbers each leaf). */
const CONDITIONS_KEYS = new WeakMap<Conditions, string>();

/**
 * Equal exactly for conditions that mean the same (semantics/canonical.ts): the operator and the
 * set of its groups' canonical keys, each group by its process-wide number (groupNumberOf). The
 * rules the search in proportion to the change narrows to some of their ways (overlap-groups.ts)
 * share their groups with the rule, so their numbers are looked up, not made again; and a key of
 * numbers is a few bytes where one of the groups' keys joined was hundreds, one per conditions
 * object alive through the plan's analyses.
 */
export function conditionsKeyOf(conditions: Conditions): string {
  let key = CONDITIONS_KEYS.get(conditions);
  if (key === undefined) {
    const groups = [...new Set(conditions.children.map(groupNumberOf))].sort((a, b) => a - b);
    CONDITIONS_KEYS.set(conditions, (key = `${conditions.operator} ${groups.join(' ')}`));
  }
  return key;
}

/**
 * Per canonical group key (JSON of semantics/canonical.ts canonicalGroup), its number: one key
 * per distinct group for the process. Kept per group object, the key was made again for each
 * copy of a group (the live rules and the rule files hold equal groups in objects of their own).
 */
const GROUP_NUMBERS = new Map<string, number>();
const GROUP_OF = new WeakMap<Group, number>();

function groupNumberOf(group: Group): number {
  let number = GROUP_OF.get(group);
  if (number === undefined) GROUP_OF.set(group, (number = numberOf(GROUP_NUMBERS, JSON.stringify(canonicalGroup(group)))));
  return number;
}
