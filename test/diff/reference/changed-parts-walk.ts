// changedParts as it was before it numbered and cut only what a list changes against the one
// before (src/diff/list-delta.ts, part-lists.ts): every list walked whole. The property test of
// test/diff/list-delta.property.test.ts holds the new one to it.
import type { NormalRule } from '../../../src/semantics/model.js';
import { conditionsKeyOf, NO_RULE_OUTCOME, outcomeKey, type DecidedOutcome, type RegionOutcome } from '../../../src/diff/entries.js';
import { narrowedRule, overlapGroups, relevantWays, waysApart, type Way } from '../../../src/diff/overlap-groups.js';

/** Lists of one part, each distinct list once. */
export interface ChangedPart {
  /** The distinct lists, each the part's active rules in priority order. */
  lists: NormalRule[][];
  /** Per list given: the index of its list in `lists`. */
  listOf: number[];
  /** The part's changed rules, for naming what a budget left unsearched. */
  changed: string[];
}

/**
 * The parts to search; undefined when the whole lists must be searched (the predicate finds some
 * outcome shared by every list interesting, or every rule is in one part); 'late' when the
 * deadline came first.
 */
export function changedPartsWalked(ruleSets: readonly (readonly NormalRule[])[], interesting: (outcomes: readonly RegionOutcome[]) => boolean, deadline?: number): ChangedPart[] | 'late' | undefined {
  const numbered = new RuleNumbers();
  const distinct = new Map<readonly NormalRule[], Int32Array>();
  for (const rules of ruleSets) {
    if (distinct.has(rules)) continue;
    if (deadline !== undefined && Date.now() > deadline) return 'late';
    const ids: number[] = [];
    for (const rule of rules) if (rule.status === 'active') ids.push(numbered.of(rule));
    distinct.set(rules, Int32Array.from(ids));
  }
  const alike = (outcome: DecidedOutcome): boolean => interesting(ruleSets.map(() => outcome));
  if (alike(NO_RULE_OUTCOME) || numbered.rules.some((rule) => alike({ rule: rule.name, actions: [...rule.actions] }))) return undefined;
  const changed = changedRules([...distinct.values()], numbered.rules.length);
  // The ways and their groups as src/diff/changed-parts.ts finds them (overlap-groups.ts): what
  // this reference holds to account is the walk of the lists, not the grouping.
  const ways = numbered.rules.flatMap((rule, id) => waysApart(rule, id));
  const partWays: Way[][] = [];
  for (const group of overlapGroups(ways)) {
    if (deadline !== undefined && Date.now() > deadline) return 'late';
    if (!group.some((way) => changed[way.rule] === 1)) continue;
    const kept = relevantWays(group, changed);
    for (const part of kept.length === group.length ? [kept] : overlapGroups(kept)) {
      if (part.some((way) => changed[way.rule] === 1)) partWays.push(part);
    }
  }
  // Nothing left out and nothing split: the lists as given, not copies of them.
  if (partWays.length === 1 && (partWays[0] as Way[]).length === ways.length) return undefined;
  return partsOf(partWays, ruleSets, distinct, numbered, changed);
}

/** Rules numbered by conditions and outcome (two rules alike in both decide alike). */
class RuleNumbers {
  readonly rules: NormalRule[] = [];
  private readonly byKey = new Map<string, number>();
  private readonly byRule = new Map<NormalRule, number>();

  of(rule: NormalRule): number {
    let id = this.byRule.get(rule);
    if (id !== undefined) return id;
    const key = `${conditionsKeyOf(rule.conditions)}\u0000${outcomeKey({ rule: rule.name, actions: rule.actions })}`;
    id = this.byKey.get(key);
    if (id === undefined) {
      this.byKey.set(key, (id = this.rules.length));
      this.rules.push(rule);
    }
    this.byRule.set(rule, id);
    return id;
  }
}

/**
 * 1 for a changed rule: missing from a list, in one twice, or out of the order the other stable
 * rules keep. Stable: the rules of the first list kept, list by list, to the longest run whose
 * positions in the next list increase (once out of order with one list, a rule is changed).
 */
function changedRules(lists: readonly Int32Array[], count: number): Uint8Array {
  const changed = new Uint8Array(count).fill(1);
  // Per rule: its position in the list at hand, -1 when missing, -2 when there twice.
  const position = new Int32Array(count);
  const positionsIn = (list: Int32Array): void => {
    position.fill(-1);
    list.forEach((id, at) => {
      position[id] = position[id] === -1 ? at : -2;
    });
  };
  const first = lists[0] ?? new Int32Array(0);
  positionsIn(first);
  let stable = [...first].filter((id) => (position[id] as number) >= 0);
  let previous = first;
  for (const list of lists.slice(1)) {
    // A list with the same rules as the one before keeps the same rules stable (states a description apart).
    if (sameIds(previous, list)) continue;
    previous = list;
    positionsIn(list);
    stable = stable.filter((id) => (position[id] as number) >= 0);
    if (!increasing(stable, position)) stable = increasingRun(stable, position);
  }
  for (const id of stable) changed[id] = 0;
  return changed;
}

function increasing(ids: readonly number[], position: Int32Array): boolean {
  for (let i = 1; i < ids.length; i++) if ((position[ids[i] as number] as number) < (position[ids[i - 1] as number] as number)) return false;
  return true;
}

/** The longest subsequence of `ids` whose positions increase (patience sorting, O(n log n)). */
function increasingRun(ids: readonly number[], position: Int32Array): number[] {
  const tails: number[] = [];
  const previous = new Int32Array(ids.length);
  ids.forEach((id, index) => {
    const at = position[id] as number;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((position[ids[tails[mid] as number] as number] as number) < at) lo = mid + 1;
      else hi = mid;
    }
    previous[index] = lo > 0 ? (tails[lo - 1] as number) : -1;
    tails[lo] = index;
  });
  const run: number[] = [];
  for (let index = tails[tails.length - 1] ?? -1; index !== -1; index = previous[index] as number) run.push(ids[index] as number);
  return run.reverse();
}

/**
 * Each part's lists, cut from every distinct list in one pass over it; lists of a part that are
 * then equal rule by rule are one list.
 */
function partsOf(partWays: readonly Way[][], ruleSets: readonly (readonly NormalRule[])[], distinct: ReadonlyMap<readonly NormalRule[], Int32Array>, numbered: RuleNumbers, changed: Uint8Array): ChangedPart[] {
  const partIds = partWays.map((ways) => [...new Set(ways.map((way) => way.rule))]);
  const ruleIn = partWays.map((ways) => (id: number) => narrowedRule(numbered.rules[id] as NormalRule, ways.filter((way) => way.rule === id).map((way) => way.way).sort((a, b) => a - b)));
  const cut = new Map<readonly NormalRule[], number[][]>();
  for (const [rules, ids] of distinct) cut.set(rules, partIds.map((inPart) => [...ids].filter((id) => inPart.includes(id))));
  return partIds.map((ids, part) => {
    const lists: NormalRule[][] = [];
    const byKey = new Map<string, number>();
    // The transition check's hundreds of states mostly cut to the list of the state before:
    // compared with it first, a list is joined into a key only when it differs.
    let previous: { kept: readonly number[]; index: number } | undefined;
    const listOf = ruleSets.map((rules) => {
      const kept = ((cut.get(rules) as number[][])[part] as number[]);
      if (previous !== undefined && sameIds(previous.kept, kept)) return previous.index;
      const key = kept.join(',');
      let index = byKey.get(key);
      if (index === undefined) {
        byKey.set(key, (index = lists.length));
        lists.push(kept.map((id) => (ruleIn[part] as (id: number) => NormalRule)(id)));
      }
      previous = { kept, index };
      return index;
    });
    return { lists, listOf, changed: ids.filter((id) => changed[id] === 1).map((id) => (numbered.rules[id] as NormalRule).name) };
  });
}

/** The same numbers in the same order. */
function sameIds(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
