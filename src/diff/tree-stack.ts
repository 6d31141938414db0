// The condition trees no request of a search state may match (regions.ts), as a stack indexed
// by what each tree needs of a request to match at all: a value of a field it requires
// (required-values.ts), else a field it cannot match without. The witness search (model.ts)
// asks which tree is the first to match a request; a tree whose guard the request fails is
// known not to match, so only the others are asked. On thousands of rules, most of them scoped
// to a path, a country or a header, a request is asked about a few of the trees above it
// instead of every one (docs/behaviour.md, "Exhaustive behaviour diff").
import { MATCH_WHEN_ABSENT } from '../evaluate/leaf.js';
import { fieldOf, type TestRequest } from '../evaluate/request.js';
import { fieldKey } from '../semantics/fields.js';
import type { Conditions, Leaf } from '../semantics/model.js';
import { requiredValues } from './required-values.js';

/** What a tree needs of a request: its field `leaf` reads carried, with one of `values` (folded to lower case) when given. */
interface Guard {
  leaf: Leaf;
  values?: ReadonlySet<string>;
}

/** Worked out once per conditions object (the rule objects are shared by every list searched). */
const GUARDS = new WeakMap<Conditions, Guard | null>();

/** A built request carries a path and a method whatever its literals: no guard on them. */
const ALWAYS_CARRIED = new Set(['path', 'httpMethod']);

export class TreeStack {
  readonly list: Conditions[] = [];
  /** Per tree: a number unique to its push, so a remembered position in the stack can be checked. */
  readonly serials: number[] = [];
  private pushed = 0;
  /** Positions of the unguarded trees, ascending. */
  private readonly open: number[] = [];
  /** Per guarded field: a leaf that reads it, positions guarded by its presence, and by each value. */
  private readonly fields = new Map<string, { leaf: Leaf; present: number[]; byValue: Map<string, number[]> }>();
  /** Per tree: the position lists it is in, to undo its push. */
  private readonly buckets: number[][][] = [];

  push(conditions: Conditions): void {
    const at = this.list.length;
    this.list.push(conditions);
    this.serials.push(++this.pushed);
    const guard = guardOf(conditions);
    const lists = guard === undefined ? [this.open] : this.guardLists(guard);
    for (const list of lists) list.push(at);
    this.buckets.push(lists);
  }

  pop(): void {
    this.list.pop();
    this.serials.pop();
    for (const list of this.buckets.pop() ?? []) list.pop();
  }

  get length(): number {
    return this.list.length;
  }

  /**
   * The position of the first tree from `from` on that may match `request` and that `matches`
   * confirms, or -1: the trees whose guard the request fails cannot match it and are not asked.
   */
  firstMatching(request: TestRequest, from: number, matches: (at: number) => boolean): number {
    const lists = [this.open];
    for (const { leaf, present, byValue } of this.fields.values()) {
      const value = fieldOf(request, leaf);
      if (value === undefined) continue;
      if (present.length > 0) lists.push(present);
      const valued = byValue.get(value.toLowerCase());
      if (valued !== undefined) lists.push(valued);
    }
    // The lists merged lazily, lowest position first: the first tree that matches ends the walk.
    const next = lists.map((list) => firstAtOrAfter(list, from));
    for (;;) {
      let lowest = -1;
      let at = Number.MAX_SAFE_INTEGER;
      next.forEach((index, i) => {
        const position = (lists[i] as number[])[index];
        if (position !== undefined && position < at) [lowest, at] = [i, position];
      });
      if (lowest === -1) return -1;
      // A tree guarded by several values of its field is in one list per value; the request carries one.
      next.forEach((index, i) => {
        if ((lists[i] as number[])[index] === at) next[i] = index + 1;
      });
      if (matches(at)) return at;
    }
  }

  private guardLists(guard: Guard): number[][] {
    const field = fieldKey(guard.leaf);
    let known = this.fields.get(field);
    if (known === undefined) this.fields.set(field, (known = { leaf: guard.leaf, present: [], byValue: new Map() }));
    if (guard.values === undefined) return [known.present];
    const byValue = known.byValue;
    return [...guard.values].map((value) => {
      let list = byValue.get(value);
      if (list === undefined) byValue.set(value, (list = []));
      return list;
    });
  }
}

function firstAtOrAfter(list: readonly number[], from: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as number) < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function guardOf(conditions: Conditions): Guard | undefined {
  let guard = GUARDS.get(conditions);
  if (guard === undefined) GUARDS.set(conditions, (guard = findGuard(conditions) ?? null));
  return guard ?? undefined;
}

/** A required field with its values; else a field every way of matching tests with a leaf false when it is absent. */
function findGuard(conditions: Conditions): Guard | undefined {
  const leaves = conditions.children.flatMap((group) => group.children);
  const leafOf = (field: string): Leaf | undefined => leaves.find((leaf) => fieldKey(leaf) === field);
  for (const [field, values] of requiredValues(conditions)) {
    const leaf = leafOf(field);
    if (leaf !== undefined && values.size > 0) return { leaf, values };
  }
  for (const field of presentFields(conditions)) {
    const leaf = leafOf(field);
    if (leaf !== undefined && !ALWAYS_CARRIED.has(leaf.conditionType)) return { leaf };
  }
  return undefined;
}

/** Fields no way of matching leaves untested by a leaf that fails when the field is absent. */
function presentFields(conditions: Conditions): Set<string> {
  const ofLeaf = (leaf: Leaf): Set<string> => new Set(MATCH_WHEN_ABSENT.has(leaf.operator) ? [] : [fieldKey(leaf)]);
  const combined = (operator: '$and' | '$or', sets: Set<string>[]): Set<string> => {
    if (operator === '$and') return new Set(sets.flatMap((set) => [...set]));
    const [first, ...rest] = sets;
    return new Set([...(first ?? [])].filter((field) => rest.every((set) => set.has(field))));
  };
  return combined(conditions.operator, conditions.children.map((group) => combined(group.operator, group.children.map(ofLeaf))));
}
