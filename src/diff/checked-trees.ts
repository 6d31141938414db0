// What the witness search remembers per assignment (model.ts firstMatching): by the assignment's
// signature, a small number given in the order signatures are first met (atoms.ts), how many trees
// of the stack its request is known not to match and the serial of the last of them. A large plan
// meets hundreds of thousands of signatures. Kept in pages of a fixed size, made as the signatures
// reach them: one array doubled as they grew left a copy behind at every doubling, outside the
// heap and freed only by a full collection (8 MB of 12 for the behaviour diff of the `scrapers`
// benchmark shape).

const PAGE_BITS = 12;
const PAGE_SIZE = 1 << PAGE_BITS;
const IN_PAGE = PAGE_SIZE - 1;

export class CheckedTrees {
  /** Trees known not to match, per signature: never more than the stack holds, so 32 bits. */
  private readonly counts: Int32Array[] = [];
  /** The serial of the last of them (tree-stack.ts serials, counted over the whole search). */
  private readonly serials: Float64Array[] = [];

  /** How many trees the signature's request is known not to match (0: none known). */
  count(signature: number): number {
    return this.counts[signature >>> PAGE_BITS]?.[signature & IN_PAGE] ?? 0;
  }

  /** The serial of the last tree counted for the signature (0 when none is). */
  serial(signature: number): number {
    return this.serials[signature >>> PAGE_BITS]?.[signature & IN_PAGE] ?? 0;
  }

  remember(signature: number, count: number, serial: number): void {
    const page = signature >>> PAGE_BITS;
    while (this.counts.length <= page) {
      this.counts.push(new Int32Array(PAGE_SIZE));
      this.serials.push(new Float64Array(PAGE_SIZE));
    }
    (this.counts[page] as Int32Array)[signature & IN_PAGE] = count;
    (this.serials[page] as Float64Array)[signature & IN_PAGE] = serial;
  }
}
