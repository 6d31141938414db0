// Reaching the declared order with the fewest PATCH requests.
//
// The server has list-move semantics: PATCH {priority: p} removes the rule and inserts it at
// index p, the others shift. Rules that are never sent a priority therefore keep their
// relative order, so they must already be an increasing subsequence (by desired index) of
// the live list. Every other rule needs one PATCH carrying `priority`. A rule whose fields
// change is PATCHed anyway, so moving it costs nothing extra; an unchanged rule that moves
// costs one request. The fewest requests therefore come from the increasing subsequence
// that keeps the most UNCHANGED rules in place: a max-weight increasing subsequence
// (unchanged = 1, changed = 0, unmanaged = forced in), found in O(n log n) with a Fenwick
// tree of prefix maxima over desired indices. Among equally good subsequences the longest
// one wins, so fewer bodies carry a priority.
//
// Moves are emitted in ascending target order and each `priority` is computed against the
// list as it will be at that moment: the rule goes immediately after its desired
// predecessor. Induction on the target index shows the list then equals the desired one:
// before placing the rule with desired index k, the rules with desired index < k already
// stand in desired relative order, and inserting right after index k-1's rule keeps that
// true for k. (Sending the final index instead is wrong: live [c,d,a,b] with a,b kept,
// moving c to 2 then d to 3 gives [a,c,b,d].)

/** How much keeping a rule in place is worth. */
export type KeepWeight = 'pinned' | 'unchanged' | 'changed';

export interface Move {
  ruleId: string;
  /** What to send: the index to insert at, in the list as it is when this move runs. */
  priority: number;
  /** 0-based index in the live list before the plan. */
  from: number;
  /** 0-based index in the desired list. */
  to: number;
}

/**
 * The desired full list of rule ids: unmanaged rules keep their positions, and the
 * positions managed rules occupy are filled with the managed rules in declared order.
 */
export function desiredOrder(liveIds: readonly string[], managedInDeclaredOrder: readonly string[]): string[] {
  const managed = new Set(managedInDeclaredOrder);
  let next = 0;
  return liveIds.map((id) => (managed.has(id) ? (managedInDeclaredOrder[next++] as string) : id));
}

/**
 * The moves (in execution order) that turn `liveIds` into `desiredIds`, a permutation of
 * it, leaving in place the max-weight increasing subsequence. `weightOf` must say
 * 'pinned' only for rules whose live and desired indices are equal and mutually
 * consistent (unmanaged rules under `desiredOrder`), or they cannot all stay.
 */
export function planMoves(
  liveIds: readonly string[],
  desiredIds: readonly string[],
  weightOf: (ruleId: string) => KeepWeight,
): Move[] {
  const desiredIndex = new Map(desiredIds.map((id, index) => [id, index]));
  const sequence = liveIds.map((id) => indexIn(desiredIndex, id));
  const values = liveIds.map((id) => keepValue(weightOf(id), liveIds.length));
  const kept = maxWeightIncreasingSubsequence(sequence, values);

  const moving = liveIds
    .map((id, from) => ({ id, from, to: sequence[from] as number }))
    .filter((_, position) => !kept[position])
    .sort((a, b) => a.to - b.to);

  const list = new RuleList(sequence);
  return moving.map(({ id, from, to }) => {
    list.remove(to);
    const priority = to === 0 ? 0 : list.indexOf(to - 1) + 1;
    list.insert(priority, to);
    return { ruleId: id, priority, from, to };
  });
}

/**
 * The simulated server list, holding each rule as its desired index. A typed array with
 * block copies keeps a move at O(n) with a small constant; moves are a small share of n.
 */
class RuleList {
  private readonly items: Int32Array;
  private length: number;

  constructor(initial: readonly number[]) {
    this.items = Int32Array.from(initial);
    this.length = initial.length;
  }

  indexOf(item: number): number {
    return this.items.subarray(0, this.length).indexOf(item);
  }

  remove(item: number): void {
    const index = this.indexOf(item);
    this.items.copyWithin(index, index + 1, this.length);
    this.length -= 1;
  }

  insert(index: number, item: number): void {
    this.items.copyWithin(index + 1, index, this.length);
    this.items[index] = item;
    this.length += 1;
  }
}

/**
 * Each rule scores its weight times (n + 1), plus 1 so longer subsequences win ties;
 * a pinned rule outweighs all unpinned rules together, so every pinned rule is kept.
 */
function keepValue(weight: KeepWeight, n: number): number {
  const scale = n + 1;
  const base = weight === 'pinned' ? scale * scale : weight === 'unchanged' ? scale : 0;
  return base + 1;
}

function indexIn(desiredIndex: ReadonlyMap<string, number>, id: string): number {
  const index = desiredIndex.get(id);
  if (index === undefined) throw new Error(`rule ${id} is live but not in the desired order`);
  return index;
}

/**
 * For a permutation `sequence` of 0..n-1 and a value per position, marks the positions of a
 * strictly increasing subsequence with the greatest total value. O(n log n).
 */
export function maxWeightIncreasingSubsequence(sequence: readonly number[], values: readonly number[]): boolean[] {
  const n = sequence.length;
  const prefixBest = new PrefixMax(n);
  const total = new Float64Array(n);
  const parent = new Int32Array(n).fill(-1);
  let bestEnd = -1;
  for (let position = 0; position < n; position += 1) {
    const target = sequence[position] as number;
    const before = prefixBest.query(target);
    total[position] = before.value + (values[position] as number);
    parent[position] = before.position;
    prefixBest.update(target, total[position] as number, position);
    if (bestEnd < 0 || (total[position] as number) > (total[bestEnd] as number)) bestEnd = position;
  }
  const kept = new Array<boolean>(n).fill(false);
  for (let position = bestEnd; position >= 0; position = parent[position] as number) kept[position] = true;
  return kept;
}

/** Fenwick tree over desired indices holding, for each prefix, the best total and where it ends. */
class PrefixMax {
  private readonly value: Float64Array;
  private readonly position: Int32Array;

  constructor(size: number) {
    this.value = new Float64Array(size + 1);
    this.position = new Int32Array(size + 1).fill(-1);
  }

  /** Best total over desired indices strictly below `index`. */
  query(index: number): { value: number; position: number } {
    let value = 0;
    let position = -1;
    for (let node = index; node > 0; node -= node & -node) {
      if ((this.value[node] as number) > value) {
        value = this.value[node] as number;
        position = this.position[node] as number;
      }
    }
    return { value, position };
  }

  update(index: number, value: number, position: number): void {
    for (let node = index + 1; node < this.value.length; node += node & -node) {
      if (value > (this.value[node] as number)) {
        this.value[node] = value;
        this.position[node] = position;
      }
    }
  }
}
