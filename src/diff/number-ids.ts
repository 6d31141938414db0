// Numbers (whole, 0 to 2^53) to ids 1, 2, 3… in the order they were first seen: the behaviour
// search numbers each extension of an assignment's signature (atoms.ts) this way, a great many of
// them in a large plan. A Map kept each key above 2^30 as a heap number and its table in the
// heap's old generation, where it stayed after the search until the next full collection; typed
// arrays are outside the heap, and freed with the search (docs/behaviour.md, "Exhaustive behaviour
// diff"). The table holds ids only, and each id's key is kept in pages made as ids are given: a
// table of keys too, doubled as it grew, left a copy of every key behind at each doubling, freed
// only by a full collection (the keys: 4.2 MB allocated for the behaviour diff of the `scrapers`
// benchmark shape, 1.4 MB in pages).

/** Slots at first; the table doubles when three quarters are taken. */
const FIRST_SLOTS = 1 << 8;

/**
 * Arrays that grow by pages outside the heap, not by copies (a copy left the array before it
 * behind until the next full collection): page p holds 2^(8 + p) slots, from slot 256 × (2^p - 1)
 * on. A search that meets a few hundred keys, as most do, makes one page of 256 slots, and a large
 * one no more pages than doubling makes copies. Pages of 4,096 slots each made 20 MB of keys
 * (number-ids.ts) and 28 MB of checked-trees.ts's pages outside the heap for the behaviour diff
 * of the `webhooks` benchmark shape, a page per search, freed only at the next scavenge.
 */
const FIRST_PAGE_BITS = 8;

/** The page that holds `slot`. */
export function pageOf(slot: number): number {
  return 31 - Math.clz32((slot >>> FIRST_PAGE_BITS) + 1);
}

/** The first slot of the page. */
export function pageStart(page: number): number {
  return ((1 << page) - 1) << FIRST_PAGE_BITS;
}

/** How many slots the page holds. */
export function pageSize(page: number): number {
  return 1 << (FIRST_PAGE_BITS + page);
}

export class NumberIds {
  /** Per slot of the hash table: the id of the key there, 0 when the slot is free. */
  private ids = new Int32Array(FIRST_SLOTS);
  /** Per id, its key, in pages (pageOf). */
  private readonly keys: Float64Array[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The id of `key`; a key not seen before gets the next id. */
  idOf(key: number): number {
    const found = this.lookUp(key);
    if (found > 0) return found;
    if (4 * (this.count + 1) > 3 * this.ids.length) this.grow();
    this.count += 1;
    const page = pageOf(this.count);
    if (page === this.keys.length) this.keys.push(new Float64Array(pageSize(page)));
    (this.keys[page] as Float64Array)[this.count - pageStart(page)] = key;
    this.place(key, this.count);
    return this.count;
  }

  private keyOf(id: number): number {
    const page = pageOf(id);
    return (this.keys[page] as Float64Array)[id - pageStart(page)] as number;
  }

  /** The key's id, or 0 when it has none. */
  private lookUp(key: number): number {
    const mask = this.ids.length - 1;
    for (let slot = slotOf(key, mask); ; slot = (slot + 1) & mask) {
      const id = this.ids[slot] as number;
      if (id === 0 || this.keyOf(id) === key) return id;
    }
  }

  private place(key: number, id: number): void {
    const mask = this.ids.length - 1;
    let slot = slotOf(key, mask);
    while (this.ids[slot] !== 0) slot = (slot + 1) & mask;
    this.ids[slot] = id;
  }

  private grow(): void {
    const ids = this.ids;
    this.ids = new Int32Array(ids.length * 2);
    for (let slot = 0; slot < ids.length; slot++) {
      const id = ids[slot] as number;
      if (id !== 0) this.place(this.keyOf(id), id);
    }
  }
}

/** A slot from both halves of the key (its low 32 bits alone repeat for keys 2^32 apart). */
function slotOf(key: number, mask: number): number {
  const low = key >>> 0;
  const high = (key / 0x1_0000_0000) >>> 0;
  let hash = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) & mask;
}

/**
 * Values (0 to 2^31 - 2) by small whole numbers (the process-wide numbers of rule-keys.ts), for
 * one search: an array outside the heap indexed by the number, doubled when a number is past its
 * end. A Map per search kept its table in the heap's old generation after the search. The numbers
 * are the process's, so the array of every search grows to the highest number given so far: a
 * search that makes its own (activeEntries, entries.ts) takes one that `clear` emptied
 * (reusedByNumbers), or made afresh, each of a thousand searches grew four arrays past 100 KB,
 * freed only at the next scavenge: 30 MB outside the heap at once on the `webhooks` benchmark shape.
 */
export class ByNumber {
  /** Per number: its value, valid when its stamp is the current one. */
  private values = new Int32Array(1024);
  private stamps = new Uint32Array(1024);
  /** The stamp of the values set since the last clear. */
  private current = 1;

  /** The number's value, or -1 when it has none. */
  get(number: number): number {
    return number < this.values.length && this.stamps[number] === this.current ? (this.values[number] as number) : -1;
  }

  set(number: number, value: number): void {
    if (number >= this.values.length) {
      let length = this.values.length * 2;
      while (length <= number) length *= 2;
      const [values, stamps] = [new Int32Array(length), new Uint32Array(length)];
      values.set(this.values);
      stamps.set(this.stamps);
      [this.values, this.stamps] = [values, stamps];
    }
    this.values[number] = value;
    this.stamps[number] = this.current;
  }

  /** Forgets every value at once: a new stamp, the arrays kept. */
  clear(): void {
    this.current += 1;
    if (this.current < 0xffffffff) return;
    this.stamps.fill(0);
    this.current = 1;
  }
}

/** Sets of ByNumber not in use, emptied: a search takes one and gives it back when it is done. */
const FREE_SETS: ByNumber[][] = [];

/**
 * Runs `search` with `count` empty ByNumber, taken from those earlier searches gave back (a search
 * started inside another gets its own) and given back when it returns or throws.
 */
export function reusedByNumbers<T>(count: number, search: (sets: ByNumber[]) => T): T {
  const sets = FREE_SETS.pop() ?? [];
  while (sets.length < count) sets.push(new ByNumber());
  try {
    return search(sets);
  } finally {
    for (const set of sets) set.clear();
    FREE_SETS.push(sets);
  }
}
