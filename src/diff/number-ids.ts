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
const FIRST_SLOTS = 1 << 10;

/** Keys per page of keys. */
const KEY_PAGE_BITS = 12;
const IN_KEY_PAGE = (1 << KEY_PAGE_BITS) - 1;

export class NumberIds {
  /** Per slot of the hash table: the id of the key there, 0 when the slot is free. */
  private ids = new Int32Array(FIRST_SLOTS);
  /** Per id, its key: id `i` at `i & IN_KEY_PAGE` of page `i >>> KEY_PAGE_BITS`. */
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
    const page = this.count >>> KEY_PAGE_BITS;
    if (page === this.keys.length) this.keys.push(new Float64Array(IN_KEY_PAGE + 1));
    (this.keys[page] as Float64Array)[this.count & IN_KEY_PAGE] = key;
    this.place(key, this.count);
    return this.count;
  }

  private keyOf(id: number): number {
    return (this.keys[id >>> KEY_PAGE_BITS] as Float64Array)[id & IN_KEY_PAGE] as number;
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
 * end. A Map per search kept its table in the heap's old generation after the search.
 */
export class ByNumber {
  /** Per number: its value plus one; 0 when it has none. */
  private values = new Int32Array(1024);

  /** The number's value, or -1 when it has none. */
  get(number: number): number {
    return number < this.values.length ? (this.values[number] as number) - 1 : -1;
  }

  set(number: number, value: number): void {
    if (number >= this.values.length) {
      let length = this.values.length * 2;
      while (length <= number) length *= 2;
      const grown = new Int32Array(length);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[number] = value + 1;
  }
}
