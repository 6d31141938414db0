// What the region search (regions.ts) learns when a witness search for a way of a rule finds no
// request (model.ts): the literals and the trees that must not match that the answer follows
// from. Wherever those literals hold again and those trees are again on the stack, no request
// of the way is left either, whatever else the state requires, and the way is passed over
// without a search (a learned clause, as SAT solvers keep them; docs/behaviour.md, "Safe
// transitions"). On the plan benchmark's `networks` shape the witness search found no request
// for a way 15,700 times, mostly where rules above match a way's `$in` list value by value (one
// split per value); 9,200 of those searches are now answered by a refutation kept for the way.
import type { Assignment, Atom } from './atoms.js';

/** Refutations kept per way, the last that held first: a way's ask is answered by its first or second nearly always. */
const KEPT_PER_WAY = 4;

interface Refutation {
  /** The atoms whose literals it follows from, and the truth each had (1 true, 0 false). */
  atoms: Int32Array;
  holds: Uint8Array;
  /** The conditions ids of the trees it follows from. */
  trees: Int32Array;
}

export class Refutations {
  /** Per way, by its atoms (wayKey): the rules of two lists may be two objects with the same conditions, each with its own lists of ways. */
  private readonly byWay = new Map<string, Refutation[]>();
  private readonly keys = new Map<readonly (Atom | undefined)[], string>();

  /**
   * `atoms`: the atoms by id; `onStack`: whether a tree with a conditions id is among those no
   * request of the state may match (regions.ts keeps the count).
   */
  constructor(
    private readonly assignment: Assignment,
    private readonly atoms: readonly Atom[],
    private readonly onStack: (conditionsId: number) => boolean,
  ) {}

  /** Whether a refutation learned for `way` holds in the current state: then no request of the way is left. */
  refutes(way: readonly (Atom | undefined)[]): boolean {
    const kept = this.byWay.get(this.wayKey(way));
    if (kept === undefined) return false;
    for (let i = 0; i < kept.length; i++) {
      const refutation = kept[i] as Refutation;
      if (!this.holds(refutation)) continue;
      if (i > 0) {
        kept.splice(i, 1);
        kept.unshift(refutation);
      }
      return true;
    }
    return false;
  }

  /** Keeps for `way` that the literals of the atoms `blamed`, as the state has them, leave no request once the trees `trees` must not match. */
  learn(way: readonly (Atom | undefined)[], blamed: Iterable<number>, trees: Iterable<number>): void {
    const atoms = Int32Array.from(blamed);
    const holds = new Uint8Array(atoms.length);
    for (let i = 0; i < atoms.length; i++) {
      const truth = this.assignment.truthOf(this.atoms[atoms[i] as number] as Atom);
      // Never so (an answer blames literals of the state), but an atom without a truth proves nothing.
      if (truth === 'undecided') return;
      holds[i] = truth ? 1 : 0;
    }
    const key = this.wayKey(way);
    let kept = this.byWay.get(key);
    if (kept === undefined) this.byWay.set(key, (kept = []));
    kept.unshift({ atoms, holds, trees: Int32Array.from(trees) });
    if (kept.length > KEPT_PER_WAY) kept.pop();
  }

  /** The way's atoms, in ascending order (a leaf without an atom as -1): the same for the same leaves in any order. */
  private wayKey(way: readonly (Atom | undefined)[]): string {
    let key = this.keys.get(way);
    if (key === undefined) this.keys.set(way, (key = way.map((atom) => atom?.id ?? -1).sort((a, b) => a - b).join(' ')));
    return key;
  }

  private holds({ atoms, holds, trees }: Refutation): boolean {
    for (let i = 0; i < trees.length; i++) if (!this.onStack(trees[i] as number)) return false;
    for (let i = 0; i < atoms.length; i++) if (this.assignment.truthOf(this.atoms[atoms[i] as number] as Atom) !== (holds[i] === 1)) return false;
    return true;
  }
}
