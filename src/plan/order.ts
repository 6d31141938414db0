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

// Creates and deletes (docs/design.md, "Creates and deletes in the order search") change none
// of this: a DELETE takes a rule out and a POST inserts one at any index, and neither changes
// the relative order of the rules that stay, so those are kept or moved exactly as above; a
// rule to create is placed like a moving one, right after its desired predecessor.

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
 * The desired full list of rule ids. Rules that are deleted leave the list; unmanaged rules
 * keep their positions among the rest; the positions managed rules occupy are filled with the
 * managed rules in declared order, each followed by the rules to be created that the files
 * declare after it (rules created before any matched one go right before the first; with no
 * matched rule at all, at the top). Without creates and deletes it is the live list with the
 * managed rules permuted into declared order.
 */
export function desiredOrder(
  liveIds: readonly string[],
  declaredIds: readonly string[],
  created: ReadonlySet<string> = new Set(),
  deleted: ReadonlySet<string> = new Set(),
): string[] {
  const matched = declaredIds.filter((id) => !created.has(id));
  const managed = new Set(matched);
  const leading: string[] = [];
  const following = new Map<string, string[]>();
  let last: string | undefined;
  for (const id of declaredIds) {
    if (!created.has(id)) last = id;
    else if (last === undefined) leading.push(id);
    else following.set(last, [...(following.get(last) ?? []), id]);
  }
  const desired: string[] = matched.length === 0 ? [...leading] : [];
  let next = 0;
  for (const id of liveIds) {
    if (deleted.has(id)) continue;
    if (!managed.has(id)) {
      desired.push(id);
      continue;
    }
    if (next === 0) desired.push(...leading);
    const rule = matched[next++] as string;
    desired.push(rule, ...(following.get(rule) ?? []));
  }
  return desired;
}

/**
 * The moves and inserts (in execution order) that turn `liveIds` into `desiredIds` once the
 * `deleted` rules are gone, leaving in place the max-weight increasing subsequence of the
 * rules that stay. An id of `desiredIds` that is not live is created: a Move with `from` -1
 * whose `priority` is where the POST inserts it. `weightOf` must say 'pinned' only for rules
 * whose desired indices are increasing in live order (unmanaged rules under `desiredOrder`),
 * or they cannot all stay. The priorities assume the deletes ran first.
 */
export function planMoves(
  liveIds: readonly string[],
  desiredIds: readonly string[],
  weightOf: (ruleId: string) => KeepWeight,
  deleted: ReadonlySet<string> = new Set(),
): Move[] {
  const desiredIndex = new Map(desiredIds.map((id, index) => [id, index]));
  const staying = liveIds.map((id, from) => ({ id, from })).filter(({ id }) => !deleted.has(id));
  const sequence = staying.map(({ id }) => indexIn(desiredIndex, id));
  const values = staying.map(({ id }) => keepValue(weightOf(id), staying.length));
  const kept = maxWeightIncreasingSubsequence(sequence, values, desiredIds.length);

  const liveSet = new Set(liveIds);
  const moving = [
    ...staying.map(({ id, from }, position) => ({ id, from, to: sequence[position] as number })).filter((_, position) => !kept[position]),
    ...desiredIds.map((id, to) => ({ id, from: -1, to })).filter(({ id }) => !liveSet.has(id)),
  ].sort((a, b) => a.to - b.to);

  const list = new RuleList(sequence, desiredIds.length);
  return moving.map(({ id, from, to }) => {
    if (from >= 0) list.remove(to);
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

  constructor(initial: readonly number[], capacity: number) {
    this.items = new Int32Array(Math.max(capacity, initial.length));
    this.items.set(initial);
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
 * For distinct values `sequence` in 0..range-1 (a permutation of 0..n-1 by default) and a value
 * per position, marks the positions of a strictly increasing subsequence with the greatest
 * total value. O(n log range).
 */
export function maxWeightIncreasingSubsequence(sequence: readonly number[], values: readonly number[], range = sequence.length): boolean[] {
  const n = sequence.length;
  const prefixBest = new PrefixMax(range);
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
