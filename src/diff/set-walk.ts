// How the region search (regions.ts) walks several rule sets side by side: which set's rule it
// splits on next, each rule's truth worked out once per step however many sets hold it, and each
// rule's ways of matching listed once (docs/behaviour.md, "Exhaustive behaviour diff").
import type { Verdict } from '../evaluate/leaf.js';
import type { Conditions, Leaf } from '../semantics/model.js';
import type { Atom, AtomTable } from './atoms.js';
import { matchingWays } from './matching-ways.js';

/** Positions a rule is looked for ahead in the other sets, to tell a moved rule from one the move displaced. */
const LOOK_AHEAD = 4;

/**
 * The undecided set whose rule the others hold furthest ahead (a moved rule, as the other sets
 * have it later or not at all). Split on first, its "does not match" brings the sets back in
 * step at once, and its "matches" fixes its leaves, so that most rules it passes in the other
 * sets are settled without a split; splitting on the rules the move displaced instead costs a
 * split for every rule between the moved rule's two places. The first undecided set when all
 * stand at one rule. `open`: the undecided sets, ascending; `lists`: each set's entry numbers,
 * `idOf`: their ids (entries.ts).
 */
export function splitIndex(lists: readonly Int32Array[], idOf: Int32Array, pos: readonly number[], open: readonly number[]): number {
  const first = open[0] as number;
  const idAt = (i: number): number => idOf[(lists[i] as Int32Array)[pos[i] as number] as number] as number;
  let best = first;
  let bestDistance = 0;
  const tried = new Set<number>();
  // The transition check walks hundreds of lists, most of them at the same rule: the rule of the
  // list before is tried already, and is passed over without a look-up in `tried`.
  let previous = -1;
  for (const i of open) {
    const id = idAt(i);
    if (id === previous || tried.has(id)) continue;
    previous = id;
    tried.add(id);
    let distance = 0;
    for (let k = 0; k < open.length && distance <= LOOK_AHEAD; k++) {
      const j = open[k] as number;
      if (idAt(j) === id) continue;
      const numbers = lists[j] as Int32Array;
      let ahead = 1;
      while (ahead <= LOOK_AHEAD && !sameId(numbers, idOf, (pos[j] as number) + ahead, id)) ahead += 1;
      distance = Math.max(distance, ahead);
    }
    if (distance > bestDistance) [best, bestDistance] = [i, distance];
  }
  return best;
}

/** Whether the entry at `at` of `numbers` (none past its end) has the id `id`. */
export function sameId(numbers: Int32Array, idOf: Int32Array, at: number, id: number): boolean {
  return at < numbers.length && idOf[numbers[at] as number] === id;
}

/**
 * Every set undecided (`open` holds them all) and at the same rules from here on: all decide
 * alike, and that is not interesting (`sharedTail`, `boringFrom`: entries.ts).
 */
export function sameFromHere(lists: readonly Int32Array[], sharedTail: readonly number[], boringFrom: readonly boolean[], pos: readonly number[], open: readonly number[]): boolean {
  if (open.length !== lists.length) return false;
  const rest = (lists[0] as Int32Array).length - (pos[0] as number);
  const same = lists.every((numbers, i) => numbers.length - (pos[i] as number) === rest && rest <= (sharedTail[i] as number));
  return same && boringFrom[pos[0] as number] === true;
}

const TRUTHS: readonly Verdict[] = [false, true, 'undecided'];

/** Truths by conditions id, valid until the next `next()`: the sets hold nearly the same rules, so one step asks each once. */
export class StepTruths {
  private stamp = 0;
  private readonly stamps: Int32Array;
  private readonly truths: Int8Array;

  constructor(conditionsCount: number) {
    this.stamps = new Int32Array(conditionsCount);
    this.truths = new Int8Array(conditionsCount);
  }

  /** Forgets every truth (the assignment may change after this step). */
  next(): void {
    this.stamp += 1;
  }

  /** The truth remembered in this step, if any (no closure to compute it: one would be made per list and step). */
  known(conditionsId: number): Verdict | undefined {
    return this.stamps[conditionsId] === this.stamp ? TRUTHS[this.truths[conditionsId] as number] : undefined;
  }

  remember(conditionsId: number, truth: Verdict): Verdict {
    this.stamps[conditionsId] = this.stamp;
    this.truths[conditionsId] = TRUTHS.indexOf(truth);
    return truth;
  }
}

const WAYS = new WeakMap<Conditions, Leaf[][] | null>();

/** matchingWays, listed once per conditions object (the search splits on a rule in many states). */
export function waysOf(conditions: Conditions): readonly (readonly Leaf[])[] | undefined {
  let ways = WAYS.get(conditions);
  if (ways === undefined) WAYS.set(conditions, (ways = matchingWays(conditions) ?? null));
  return ways ?? undefined;
}

/** waysOf by the atoms of the leaves (undefined for a leaf `table` lacks), once per conditions object of one search. */
export class AtomWays {
  private readonly byConditions = new Map<Conditions, (Atom | undefined)[][] | null>();

  constructor(private readonly table: AtomTable) {}

  of(conditions: Conditions): readonly (readonly (Atom | undefined)[])[] | undefined {
    let ways = this.byConditions.get(conditions);
    if (ways === undefined) this.byConditions.set(conditions, (ways = waysOf(conditions)?.map((way) => way.map((leaf) => this.table.of(leaf))) ?? null));
    return ways ?? undefined;
  }
}
