// The condition trees no request of a search state may match (regions.ts), as a stack indexed
// by what each tree needs of a request to match at all: a value of a field it requires
// (required-values.ts), else a field it cannot match without. The witness search (model.ts)
// asks which tree is the first to match a request; a tree whose guard the request fails is
// known not to match, so only the others are asked. On thousands of rules, most of them scoped
// to a path, a country or a header, a request is asked about a few of the trees above it
// instead of every one (docs/behaviour.md, "Exhaustive behaviour diff"). A tree that requires
// no exact value but a prefix or a suffix of a field (a host ending in one tenant's domain) is
// found by the prefixes and suffixes of the request's value. The same index tells which trees
// can already be true under the search's literals alone (someImplied).
import { fieldOf, type TestRequest } from '../evaluate/request.js';
import { fieldKey } from '../semantics/fields.js';
import type { Conditions, Leaf } from '../semantics/model.js';
import { foldedAscii, guardOf, type TreeGuard } from './tree-guards.js';

/** Positions guarded by a prefix (or a suffix) of one field, by the value folded (asciiFold). */
interface AffixLists {
  byValue: Map<string, number[]>;
  /** The lengths of its values, each once: a request's value is cut at these only. */
  lengths: number[];
}

/** One guarded field's trees, by what each needs of the field, and by the atoms of its leaves on the field. */
interface FieldLists {
  leaf: Leaf;
  present: number[];
  byValue: Map<string, number[]>;
  prefix: AffixLists;
  suffix: AffixLists;
  affixed: number[];
  byAtom: Map<number, number[]>;
}

export class TreeStack {
  readonly list: Conditions[] = [];
  /** Per tree: a number unique to its push, so a remembered position in the stack can be checked. */
  readonly serials: number[] = [];
  private pushed = 0;
  /** Positions of the unguarded trees, ascending. */
  private readonly open: number[] = [];
  /** Per guarded field: a leaf that reads it, positions guarded by its presence, and by each value. */
  private readonly fields = new Map<string, FieldLists>();
  /** Per tree indexed: the position lists it is in, to undo its push. */
  private readonly buckets: number[][][] = [];
  /** The trees below this position are in the index (catchUp). */
  private indexed = 0;
  /**
   * Per conditions object: the position lists a push of it joins. They are the same lists at
   * every push (the index's lists are made once and only grow), so the search, which pushes a
   * tree in many states, finds them once.
   */
  private readonly listsOf = new Map<Conditions, number[][]>();

  /** `atomId`: the search's number for a leaf's meaning (its atom), if it has one. */
  constructor(private readonly atomId: (leaf: Leaf) => number | undefined) {}

  push(conditions: Conditions): void {
    this.list.push(conditions);
    this.serials.push(++this.pushed);
  }

  pop(): void {
    const at = this.list.length - 1;
    this.list.pop();
    this.serials.pop();
    if (at >= this.indexed) return;
    for (const list of this.buckets.pop() ?? []) list.pop();
    this.indexed = at;
  }

  /**
   * Adds the trees pushed since the last question to the index. The search pushes a tree at
   * every step and pops most of them before it asks the index anything (a request that still
   * fits a tree needs no index, model.ts): only the trees on the stack when a question comes are
   * indexed, each once while it stays there.
   */
  private catchUp(): void {
    for (let at = this.indexed; at < this.list.length; at++) {
      const conditions = this.list[at] as Conditions;
      let lists = this.listsOf.get(conditions);
      if (lists === undefined) {
        const guard = guardOf(conditions);
        this.listsOf.set(conditions, (lists = guard === undefined ? [this.open] : this.guardLists(guard)));
      }
      for (const list of lists) list.push(at);
      this.buckets.push(lists);
    }
    this.indexed = this.list.length;
  }

  get length(): number {
    return this.list.length;
  }

  /**
   * The position of the first tree from `from` on that may match `request` and that `matches`
   * confirms, or -1: the trees whose guard the request fails cannot match it and are not asked.
   */
  firstMatching(request: TestRequest, from: number, matches: (at: number) => boolean): number {
    const lists = this.candidates(request);
    // Merged lazily, lowest position first (plain loops: once per witness search step, tens of thousands).
    const next = lists.map((list) => firstAtOrAfter(list, from));
    for (;;) {
      let at = Number.MAX_SAFE_INTEGER;
      for (let i = 0; i < lists.length; i++) {
        const position = (lists[i] as number[])[next[i] as number];
        if (position !== undefined && position < at) at = position;
      }
      if (at === Number.MAX_SAFE_INTEGER) return -1;
      // A tree guarded by several values of its field is in one list per value; the request carries one.
      for (let i = 0; i < lists.length; i++) if ((lists[i] as number[])[next[i] as number] === at) next[i] = (next[i] as number) + 1;
      if (matches(at)) return at;
    }
  }

  /** Ascending lists of positions holding every tree whose guard `request` meets (some in several): the others do not match it. */
  candidates(request: TestRequest): number[][] {
    this.catchUp();
    const lists = [this.open];
    for (const known of this.fields.values()) {
      const value = fieldOf(request, known.leaf);
      if (value !== undefined) valueGuarded(known, value, lists);
    }
    return lists;
  }

  /**
   * Whether `implied` confirms a tree of the stack, asking only the trees that can be true under
   * the literals of the search state: a guarded tree has a leaf of its guard's field in each way
   * of matching, so it is true only when such a leaf is: with no literal on that field none is;
   * otherwise a leaf whose atom a literal holds true (`trueAtoms`), or one the value a literal
   * fixes the field to decides (`fixedValue`; null: absent), and then the tree's guard meets
   * that value (as a request's would).
   */
  someImplied(fields: Iterable<string>, fixedValue: (field: string) => string | null | undefined, trueAtoms: (field: string) => readonly number[], implied: (at: number) => boolean): boolean {
    this.catchUp();
    if (this.open.some(implied)) return true;
    for (const field of fields) {
      const known = this.fields.get(field);
      if (known === undefined) continue;
      if (trueAtoms(field).some((atom) => known.byAtom.get(atom)?.some(implied) === true)) return true;
      const value = fixedValue(field);
      if (typeof value === 'string' && valueGuarded(known, value, []).some((list) => list.some(implied))) return true;
    }
    return false;
  }

  private guardLists(guard: TreeGuard): number[][] {
    const field = fieldKey(guard.leaf);
    let known = this.fields.get(field);
    if (known === undefined) this.fields.set(field, (known = { leaf: guard.leaf, present: [], byValue: new Map(), prefix: { byValue: new Map(), lengths: [] }, suffix: { byValue: new Map(), lengths: [] }, affixed: [], byAtom: new Map() }));
    const byAtom = valueLists(known.byAtom, this.atomsOnField(guard));
    if (guard.values === undefined) return [known.present, ...byAtom];
    if (guard.affix !== undefined) {
      const lists = known[guard.affix];
      for (const value of guard.values) if (!lists.lengths.includes(value.length)) lists.lengths.push(value.length);
      return [known.affixed, ...valueLists(lists.byValue, guard.values), ...byAtom];
    }
    return [...valueLists(known.byValue, guard.values), ...byAtom];
  }

  private atomsOnField(guard: TreeGuard): number[] {
    // The leaves on the field are the guard's, found once per tree (tree-guards.ts), not once per search.
    const ids = guard.fieldLeaves.map(this.atomId);
    return [...new Set(ids.filter((id) => id !== undefined))];
  }
}

/** The lists of a field's trees whose guard `value` meets, added to `lists`. */
function valueGuarded(known: FieldLists, value: string, lists: number[][]): number[][] {
  if (known.present.length > 0) lists.push(known.present);
  const valued = known.byValue.get(value.toLowerCase());
  if (valued !== undefined) lists.push(valued);
  if (known.affixed.length === 0) return lists;
  // A value beyond ASCII may fold (lower case) onto a guard's letters: every affix-guarded tree is asked.
  const folded = foldedAscii(value);
  if (folded === undefined) lists.push(known.affixed);
  else affixLists(folded, known.prefix, known.suffix, lists);
  return lists;
}

/** The lists of `byValue` for each of `values`, made when missing. */
function valueLists<K>(byValue: Map<K, number[]>, values: Iterable<K>): number[][] {
  return [...values].map((value) => {
    let list = byValue.get(value);
    if (list === undefined) byValue.set(value, (list = []));
    return list;
  });
}

/** The lists of the guards that are prefixes (suffixes) of `folded`, added to `lists`. */
function affixLists(folded: string, prefix: AffixLists, suffix: AffixLists, lists: number[][]): void {
  for (const length of prefix.lengths) {
    const list = length <= folded.length ? prefix.byValue.get(folded.slice(0, length)) : undefined;
    if (list !== undefined) lists.push(list);
  }
  for (const length of suffix.lengths) {
    const list = length <= folded.length ? suffix.byValue.get(folded.slice(folded.length - length)) : undefined;
    if (list !== undefined) lists.push(list);
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
