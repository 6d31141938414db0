// The index of the stack's trees by their guards (tree-stack.ts, tree-guards.ts): per guarded
// field, lists of stack positions by what a tree needs of it (its presence, one of its values, a
// prefix or a suffix of it, an address in one of its ranges), and which lists a request meets.
// A list holds positions in ascending order; the stack pushes and pops them.
import { AddressRanges } from '../evaluate/leaf.js';
import { fieldOf, type TestRequest } from '../evaluate/request.js';
import { fieldKey } from '../semantics/fields.js';
import type { Leaf } from '../semantics/model.js';
import { foldedAscii, type TreeGuard } from './tree-guards.js';

/** Positions guarded by a prefix (or a suffix) of one field, by the value folded (asciiFold). */
interface AffixLists {
  byValue: Map<string, number[]>;
  /** The lengths of its values, each once: a request's value is cut at these only. */
  lengths: number[];
}

/** Positions guarded by address ranges of one field, by the range as written. */
interface RangeLists {
  /** Each range once, with the evaluator's own test of it (leaf.ts) and its positions. */
  ranges: { range: AddressRanges; list: number[] }[];
  byText: Map<string, number[]>;
  /** Per address asked: how many of `ranges` were tried, and the lists of those that hold it. */
  inside: Map<string, { tried: number; lists: number[][] }>;
}

/** One guarded field's trees, by what each needs of the field. */
interface FieldLists {
  leaf: Leaf;
  present: number[];
  byValue: Map<string, number[]>;
  prefix: AffixLists;
  suffix: AffixLists;
  affixed: number[];
  ranges: RangeLists;
}

/** Addresses remembered per field with the ranges that hold them, at most (a search asks few). */
const MAX_ADDRESSES = 10_000;

export class GuardLists {
  /** Per guarded field: a leaf that reads it, and its lists. */
  private readonly fields = new Map<string, FieldLists>();

  /** The lists a tree with `guard` joins (made when missing): a request that meets the guard meets one of them. */
  listsOf(guard: TreeGuard): number[][] {
    const field = fieldKey(guard.leaf);
    let known = this.fields.get(field);
    if (known === undefined) this.fields.set(field, (known = newFieldLists(guard.leaf)));
    if (guard.ranges !== undefined) return rangeLists(known.ranges, guard.ranges);
    if (guard.values === undefined) return [known.present];
    if (guard.affix !== undefined) {
      const lists = known[guard.affix];
      for (const value of guard.values) if (!lists.lengths.includes(value.length)) lists.lengths.push(value.length);
      return [known.affixed, ...valueLists(lists.byValue, guard.values)];
    }
    return valueLists(known.byValue, guard.values);
  }

  /** The lists whose guard `request` meets, added to `lists`. */
  met(request: TestRequest, lists: number[][]): number[][] {
    for (const known of this.fields.values()) {
      const value = fieldOf(request, known.leaf);
      if (value !== undefined) valueGuarded(known, value, lists);
    }
    return lists;
  }
}

/** The lists of `byValue` for each of `values`, made when missing. */
export function valueLists<K>(byValue: Map<K, number[]>, values: Iterable<K>): number[][] {
  return [...values].map((value) => {
    let list = byValue.get(value);
    if (list === undefined) byValue.set(value, (list = []));
    return list;
  });
}

function newFieldLists(leaf: Leaf): FieldLists {
  const affixLists = (): AffixLists => ({ byValue: new Map(), lengths: [] });
  return { leaf, present: [], byValue: new Map(), prefix: affixLists(), suffix: affixLists(), affixed: [], ranges: { ranges: [], byText: new Map(), inside: new Map() } };
}

/** The lists of the ranges written as `texts`, made (with each range's test) when missing. */
function rangeLists(known: RangeLists, texts: Iterable<string>): number[][] {
  return [...texts].map((text) => {
    let list = known.byText.get(text);
    if (list === undefined) {
      known.byText.set(text, (list = []));
      known.ranges.push({ range: new AddressRanges([text]), list });
    }
    return list;
  });
}

/**
 * The lists of the ranges that hold `address`, each range asked once per address (those added
 * since it was last asked, then): a leaf of several ranges holds an address when one of them
 * does, so a tree is listed exactly when its leaf may hold.
 */
function rangesHolding(known: RangeLists, address: string): number[][] {
  let seen = known.inside.get(address);
  if (seen === undefined) {
    if (known.inside.size >= MAX_ADDRESSES) known.inside.clear();
    known.inside.set(address, (seen = { tried: 0, lists: [] }));
  }
  for (; seen.tried < known.ranges.length; seen.tried++) {
    const { range, list } = known.ranges[seen.tried] as RangeLists['ranges'][number];
    if (range.contain(address)) seen.lists.push(list);
  }
  return seen.lists;
}

/** The lists of a field's trees whose guard `value` meets, added to `lists`. */
function valueGuarded(known: FieldLists, value: string, lists: number[][]): void {
  if (known.present.length > 0) lists.push(known.present);
  if (known.ranges.ranges.length > 0) for (const list of rangesHolding(known.ranges, value)) if (list.length > 0) lists.push(list);
  const valued = known.byValue.get(value.toLowerCase());
  if (valued !== undefined) lists.push(valued);
  if (known.affixed.length === 0) return;
  // A value beyond ASCII may fold (lower case) onto a guard's letters: every affix-guarded tree is asked.
  const folded = foldedAscii(value);
  if (folded === undefined) lists.push(known.affixed);
  else affixLists(folded, known.prefix, known.suffix, lists);
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
