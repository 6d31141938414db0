// The parts of several rule lists where their outcomes can differ (docs/behaviour.md, "Searched
// in proportion to the change"): the behaviour diff and the transition check ask for requests
// whose outcomes differ between lists that hold nearly the same rules in nearly the same order.
// A rule found once in every list, with the same conditions and outcome, and in the same order
// relative to the other such rules ("stable"), decides alike everywhere; a request that matches
// only stable rules is decided alike by every list. So every interesting request matches a
// changed rule (edited, moved, created, deleted). A rule whose conditions are an `$or` of groups
// matches by any of them: each such way is placed on its own (overlap-groups.ts), and:
//   - a stable way that can match no request a changed way matches (required-texts.ts) never
//     decides an interesting request: it is left out;
//   - the ways split into groups no request matches across (ways requiring texts of one field
//     that cannot meet: other values, prefixes neither of which extends the other, ...): each
//     group holding a changed way is searched apart, its lists cut down to its own rules, each
//     narrowed to its ways there, and lists that are then equal are searched once; a request
//     matches ways of one group only, so each list decides it in that group's cut as it does whole;
//   - a group without a changed way is not searched at all.
// This holds only for a predicate that finds every list deciding alike uninteresting; for any
// other, the caller searches the whole lists.
import type { NormalRule } from '../semantics/model.js';
import type { ChangedPart } from './part-lists.js';
import { NO_RULE_OUTCOME, ruleOutcome, ruleKeysOf, type DecidedOutcome, type RegionOutcome } from './entries.js';
import { ByNumber } from './number-ids.js';
import { narrowedRule, type Way } from './overlap-groups.js';
import { partWays } from './part-ways.js';
import { activeAfter, commonEnds, eachList, IdsAlong, sameIds, type CommonEnds, type RuleLists } from './list-delta.js';
import { partsOf, type PartRules } from './part-lists.js';

export type { ChangedPart } from './part-lists.js';

/**
 * The parts to search; undefined when the whole lists must be searched (the predicate finds some
 * outcome shared by every list interesting, or every rule is in one part); 'late' when the
 * deadline came first.
 */
export function changedParts(ruleSets: RuleLists, interesting: (outcomes: readonly RegionOutcome[]) => boolean, deadline?: number): ChangedPart[] | 'late' | undefined {
  const numbered = new RuleNumbers();
  // The rule numbers of each list, once for a list that is the very array of the one before
  // (`distinctOf`: per list given, the index of its numbers); only the list before is held, and
  // each distinct list's numbers are kept as a delta against the one before (IdsAlong).
  let distinct: IdsAlong | undefined;
  const distinctOf: number[] = [];
  let previous: { rules: readonly NormalRule[]; active: number } | undefined;
  for (const rules of eachList(ruleSets)) {
    if (previous?.rules !== rules) {
      if (deadline !== undefined && Date.now() > deadline) return 'late';
      // Each state of the transition check is the one before and one PATCH: only the rules it
      // changed are numbered, and only they are kept (list-delta.ts IdsAlong).
      let active: number;
      if (previous === undefined) active = (distinct = new IdsAlong(numberedAll(rules, numbered))).firstLength;
      else active = (distinct as IdsAlong).push(activeAfter(previous.rules, rules, (rule) => numbered.of(rule), previous.active));
      previous = { rules, active };
    }
    distinctOf.push((distinct as IdsAlong).length - 1);
  }
  distinct ??= new IdsAlong(new Int32Array(0));
  // One array refilled per rule, not one per rule: a transition check asks this of thousands of rules over hundreds of lists.
  const same = new Array<DecidedOutcome>(ruleSets.length);
  const alike = (outcome: DecidedOutcome): boolean => interesting(same.fill(outcome));
  if (alike(NO_RULE_OUTCOME) || numbered.rules.some((rule) => alike(ruleOutcome(rule)))) return undefined;
  const changed = changedRules(distinct, numbered.rules.length);
  const grouped = partWays(numbered.rules, changed, deadline);
  if (grouped === 'late') return 'late';
  // Nothing left out and nothing split: the lists as given, not copies of them.
  if (grouped.parts.length === 1 && (grouped.parts[0] as Way[]).length === grouped.ways.length) return undefined;
  return partsOf(grouped.parts.map((part) => partRules(part, numbered.rules)), distinctOf, distinct, numbered.rules.length, changed);
}

/** A part's rules, each narrowed to its ways in the part (in the order its conditions list them). */
function partRules(part: readonly Way[], rules: readonly NormalRule[]): PartRules {
  const waysByRule = new Map<number, number[]>();
  for (const { rule, way } of part) {
    const kept = waysByRule.get(rule);
    if (kept === undefined) waysByRule.set(rule, [way]);
    else kept.push(way);
  }
  const ruleOf = new Map<number, NormalRule>();
  for (const [id, kept] of waysByRule) ruleOf.set(id, narrowedRule(rules[id] as NormalRule, kept.sort((a, b) => a - b)));
  return { ids: [...waysByRule.keys()], ruleOf };
}

function numberedAll(rules: readonly NormalRule[], numbered: RuleNumbers): Int32Array {
  const ids: number[] = [];
  for (const rule of rules) if (rule.status === 'active') ids.push(numbered.of(rule));
  return Int32Array.from(ids);
}

/** Rules numbered by conditions and outcome (two rules alike in both decide alike). */
class RuleNumbers {
  readonly rules: NormalRule[] = [];
  /** By the process-wide numbers of rule-keys.ts (the same for entries.ts): of the rule object, and of its conditions and outcome. */
  private readonly byPair = new ByNumber();
  private readonly byRule = new ByNumber();

  of(rule: NormalRule): number {
    const keys = ruleKeysOf(rule);
    let id = this.byRule.get(keys.rule);
    if (id >= 0) return id;
    id = this.byPair.get(keys.pairNumber);
    if (id < 0) {
      this.byPair.set(keys.pairNumber, (id = this.rules.length));
      this.rules.push(rule);
    }
    this.byRule.set(keys.rule, id);
    return id;
  }
}

/**
 * 1 for a changed rule: missing from a list, in one twice, or out of the order the other stable
 * rules keep. Stable: the rules of the first list kept, list by list, to the longest run whose
 * positions in the next list increase (once out of order with one list, a rule is changed).
 */
function changedRules(distinct: IdsAlong, count: number): Uint8Array {
  const changed = new Uint8Array(count).fill(1);
  // Per rule: its position in the list at hand, -1 when missing, -2 when there twice.
  const position = new Int32Array(count);
  const lists = distinct.lists();
  const first = lists.next().value as Int32Array;
  positionsIn(first, position);
  let stable = [...first].filter((id) => (position[id] as number) >= 0);
  let previous = first;
  const scratch = new RunScratch();
  // Each list read is valid until the one after the next is read (IdsAlong): the one before is all this holds.
  for (const list of lists) {
    // A list with the same rules as the one before keeps the same rules stable (states a description apart).
    if (sameIds(previous, list)) {
      previous = list;
      continue;
    }
    const ends = commonEnds(previous, list);
    const [from, to] = [ends.start, list.length - ends.end];
    const lost = repositioned(previous, list, ends, position);
    previous = list;
    if (lost) stable = present(stable, position);
    // Stable was increasing in the list before: the rules before `from` and from `to` keep their
    // places and their order, so the longest run is all of them and the longest run of those in
    // between — the very run increasingRun finds over the whole (it reads the ones before as a run
    // it extends, and extends its run by each one after), for the rules a PATCH moved only.
    const [changedFrom, changedTo] = [firstAtOrAfter(stable, position, from), firstAtOrAfter(stable, position, to)];
    if (!increasing(stable, position, changedFrom, changedTo)) keepIncreasing(stable, changedFrom, changedTo, position, scratch);
  }
  for (const id of stable) changed[id] = 0;
  return changed;
}

function positionsIn(list: Int32Array, position: Int32Array): void {
  position.fill(-1);
  list.forEach((id, at) => {
    position[id] = position[id] === -1 ? at : -2;
  });
}

/**
 * `position` moved from `before` to `after`, which share `ends`: the rules between them are
 * placed again, those after them shifted (a move shifts none), not the whole list per state.
 * Only the positions of stable rules are read, each once in `before`, and those come out right
 * (a rule twice in `before` may not, but it left stable then). True when a rule went missing or
 * is there twice.
 */
function repositioned(before: Int32Array, after: Int32Array, ends: CommonEnds, position: Int32Array): boolean {
  for (let at = ends.start; at < before.length - ends.end; at += 1) position[before[at] as number] = -1;
  if (after.length !== before.length) for (let at = after.length - ends.end; at < after.length; at += 1) if ((position[after[at] as number] as number) >= 0) position[after[at] as number] = at;
  let lost = false;
  for (let at = ends.start; at < after.length - ends.end; at += 1) {
    const id = after[at] as number;
    position[id] = position[id] === -1 ? at : -2;
    lost ||= position[id] === -2;
  }
  for (let at = ends.start; at < before.length - ends.end; at += 1) lost ||= position[before[at] as number] === -1;
  return lost;
}

/** The first index of `stable` whose rule stands at `at` or later (the rules before it stand before `at`). */
function firstAtOrAfter(stable: readonly number[], position: Int32Array, at: number): number {
  let [lo, hi] = [0, stable.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((position[stable[mid] as number] as number) < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** `stable` without the rules missing from the list at hand (or there twice), compacted in place: no copy per state. */
function present(stable: number[], position: Int32Array): number[] {
  let kept = 0;
  for (const id of stable) if ((position[id] as number) >= 0) stable[kept++] = id;
  stable.length = kept;
  return stable;
}

function increasing(ids: readonly number[], position: Int32Array, from: number, to: number): boolean {
  for (let i = from + 1; i < to; i++) if ((position[ids[i] as number] as number) < (position[ids[i - 1] as number] as number)) return false;
  return true;
}

/**
 * The stretch [from, to) of `ids` cut to its longest subsequence whose positions increase
 * (patience sorting, O(n log n)), in place: the ids after it move up. A far move's stretch may
 * hold thousands of rules, in each of hundreds of states: no copy of it, and the scratch
 * arrays made once.
 */
function keepIncreasing(ids: number[], from: number, to: number, position: Int32Array, scratch: RunScratch): void {
  const count = to - from;
  const { tails, previous } = scratch.sized(count);
  let length = 0;
  for (let index = 0; index < count; index++) {
    const at = position[ids[from + index] as number] as number;
    let lo = 0;
    let hi = length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((position[ids[from + (tails[mid] as number)] as number] as number) < at) lo = mid + 1;
      else hi = mid;
    }
    previous[index] = lo > 0 ? (tails[lo - 1] as number) : -1;
    tails[lo] = index;
    if (lo === length) length += 1;
  }
  // The run's indices, read back from its end, into `tails`; then each written over the
  // stretch's start (an index is never before the place it is written to, nor before a later one's).
  for (let at = length - 1, index = length > 0 ? (tails[length - 1] as number) : -1; at >= 0; at--, index = previous[index] as number) tails[at] = index;
  for (let at = 0; at < length; at++) ids[from + at] = ids[from + (tails[at] as number)] as number;
  ids.copyWithin(from + length, to);
  ids.length -= count - length;
}

/** keepIncreasing's arrays, grown to the longest stretch met. */
class RunScratch {
  private tails = new Int32Array(0);
  private previous = new Int32Array(0);

  sized(count: number): { tails: Int32Array; previous: Int32Array } {
    if (this.tails.length < count) [this.tails, this.previous] = [new Int32Array(count), new Int32Array(count)];
    return { tails: this.tails, previous: this.previous };
  }
}
