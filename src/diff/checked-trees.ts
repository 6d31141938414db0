// What the witness search remembers per assignment (model.ts firstMatching): by the assignment's
// signature, a small number given in the order signatures are first met (atoms.ts), how many trees
// of the stack its request is known not to match and the serial of the last of them. A large plan
// meets hundreds of thousands of signatures, most searches a few hundred. Kept in pages that
// double in size (number-ids.ts pageOf), made as the signatures reach them: one array doubled as
// they grew left a copy behind at every doubling, outside the heap and freed only by a full
// collection (8 MB of 12 for the behaviour diff of the `scrapers` benchmark shape).
import { pageOf, pageSize, pageStart } from './number-ids.js';

export class CheckedTrees {
  /** Trees known not to match, per signature: never more than the stack holds, so 32 bits. */
  private readonly counts: Int32Array[] = [];
  /** The serial of the last of them (tree-stack.ts serials, counted over the whole search). */
  private readonly serials: Float64Array[] = [];

  /** How many trees the signature's request is known not to match (0: none known). */
  count(signature: number): number {
    const page = pageOf(signature);
    return this.counts[page]?.[signature - pageStart(page)] ?? 0;
  }

  /** The serial of the last tree counted for the signature (0 when none is). */
  serial(signature: number): number {
    const page = pageOf(signature);
    return this.serials[page]?.[signature - pageStart(page)] ?? 0;
  }

  remember(signature: number, count: number, serial: number): void {
    const page = pageOf(signature);
    while (this.counts.length <= page) {
      this.counts.push(new Int32Array(pageSize(this.counts.length)));
      this.serials.push(new Float64Array(pageSize(this.serials.length)));
    }
    (this.counts[page] as Int32Array)[signature - pageStart(page)] = count;
    (this.serials[page] as Float64Array)[signature - pageStart(page)] = serial;
  }
}
