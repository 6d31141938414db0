// Which address leaves ($eq/$in on socketIps) hold a range around a given one, without comparing
// every pair: a leaf of partner ranges implies the others of its field exactly when each of its
// ranges lies in one of theirs (leaves.ts, addressImplies), and prefix-aligned blocks are either
// nested or disjoint (ranges.ts), so the ranges around one are found by looking up each of its
// shorter prefixes. On rules drawing ranges from a pool of hundreds, comparing each address leaf
// with every other was most of the shadow search (bench/README.md, "Validate").
import { isAddressLeaf } from '../evaluate/leaf.js';
import { parseRange } from '../evaluate/addresses.js';
import { fieldKey, leafValues } from '../semantics/fields.js';
import type { Leaf } from '../semantics/model.js';

/** An address leaf that matches a request whose address lies in one of its ranges. */
export function isInsideLeaf(leaf: Leaf): boolean {
  return isAddressLeaf(leaf) && (leaf.operator === '$eq' || leaf.operator === '$in') && leafValues(leaf).length > 0;
}

export class AddressIndex {
  /** Field, family, prefix length and the prefix's bits → the inside leaves holding that block, ascending. */
  private readonly holders = new Map<string, number[]>();

  /** Files leaf `id` under each of its ranges; ids come in ascending order. */
  add(id: number, leaf: Leaf): void {
    const field = fieldKey(leaf);
    for (const text of leafValues(leaf)) {
      const range = parseRange(text);
      if (range === undefined) continue;
      const key = blockKey(field, range.family, range.prefix, range.bits >> BigInt((range.family === 4 ? 32 : 128) - range.prefix));
      const list = this.holders.get(key);
      if (list === undefined) this.holders.set(key, [id]);
      else if (list[list.length - 1] !== id) list.push(id);
    }
  }

  /**
   * The inside leaves of `leaf`'s field such that every range of `leaf` lies in one of their
   * ranges (allWithin in ranges.ts), ascending: for each range, the leaves holding it or a block
   * around it, intersected over the ranges.
   */
  around(leaf: Leaf): number[] {
    const field = fieldKey(leaf);
    let common: Set<number> | undefined;
    for (const text of leafValues(leaf)) {
      const range = parseRange(text);
      if (range === undefined) return [];
      const width = range.family === 4 ? 32 : 128;
      const found = new Set<number>();
      for (let prefix = 0; prefix <= range.prefix; prefix += 1) {
        const list = this.holders.get(blockKey(field, range.family, prefix, range.bits >> BigInt(width - prefix)));
        if (list === undefined) continue;
        for (const id of list) if (common === undefined || common.has(id)) found.add(id);
      }
      common = found;
      if (common.size === 0) return [];
    }
    return [...(common ?? [])].sort((a, b) => a - b);
  }
}

function blockKey(field: string, family: number, prefix: number, network: bigint): string {
  return `${field}\u0000${family}/${prefix}/${network.toString(16)}`;
}
