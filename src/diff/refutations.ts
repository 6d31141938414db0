// What the region search (regions.ts) learns when a witness search for a way of a rule finds no
// request (model.ts): the literals and the trees that must not match that the answer follows
// from. Wherever those literals hold again and those trees are again on the stack, no request
// of the way is left either, whatever else the state requires, and the way is passed over
// without a search (a learned clause, as SAT solvers keep them; docs/behaviour.md, "Safe
// transitions"). On the plan benchmark's `networks` shape the witness search found no request
// for a way 15,700 times, mostly where rules above match a way's `$in` list value by value (one
// split per value); 9,200 of those searches are now answered by a refutation kept for the way.
//
// What a refutation says does not depend on the search that learned it: a plan's searches (the
// transition check's of each order it tries, then the behaviour diff's) share them through a
// RefutationStore, in numbers every search of the process gives the same leaf and the same
// conditions (rule-keys.ts). On `networks` another 3,100 witness searches are answered so. Nor
// does it depend on the way it was learned for: one that holds after a way's leaves are required
// requires one of them, and is found under it (refutedByOther); 1,400 more on `networks`.
import type { Assignment, Atom } from './atoms.js';
import type { EvaluationOptions } from '../evaluate/leaf.js';
import type { NormalRule } from '../semantics/model.js';
import { ByNumber } from './number-ids.js';
import { ruleKeysOf } from './rule-keys.js';
import { leafNumber } from '../semantics/program.js';

/** Refutations kept per way, the last that held first: a way's ask is answered by its first or second nearly always. */
const KEPT_PER_WAY = 4;

/** Refutations listed per literal, at most: a way not answered by its own is asked those of its leaves'. */
const KEPT_PER_LITERAL = 8;

/** Refutations a store keeps per way, the last learned first: another search takes the first KEPT_PER_WAY it can read. */
const STORED_PER_WAY = 8;

/**
 * In a search, by its atom ids and conditions ids; in a store, by leaf numbers (semantics/program.ts
 * leafNumber) and conditions numbers (rule-keys.ts), which mean the same in every search.
 */
interface Refutation {
  /** The atoms whose literals it follows from, and the truth each had (1 true, 0 false). */
  atoms: Int32Array;
  holds: Uint8Array;
  /** The trees it follows from. */
  trees: Int32Array;
}

/**
 * The refutations the region searches of one command learned, per way by its leaves' numbers.
 * Made per command and passed to each search (RegionOptions.refutations), so nothing of it
 * outlives the plan; only searches whose every leaf has exact answers learn or read them
 * (regions.ts), as within one search.
 */
export class RefutationStore {
  /** Per evaluation setting (values compared ignoring case or not: what a leaf matches differs). */
  private readonly byCase = new Map<boolean, Map<string, Refutation[]>>();

  /** The refutations of the searches run under `evaluation`, by way key. */
  ways(evaluation: EvaluationOptions): Map<string, Refutation[]> {
    const ignoringCase = evaluation.caseInsensitiveValues === true;
    let ways = this.byCase.get(ignoringCase);
    if (ways === undefined) this.byCase.set(ignoringCase, (ways = new Map()));
    return ways;
  }
}

/** One search's view of a store: its refutations read in the search's ids, and the search's written in the store's numbers. */
export class SharedRefutations {
  /** Built at the first read or write: a search that never asks a way needs none. */
  private numbers: { atomOfLeaf: ByNumber; conditionsIdOf: ByNumber; conditionsNumbers: Int32Array } | undefined;

  /** `entries`: the search's, each with its rule and conditions id; every conditions id is below `conditionsCount`. */
  constructor(
    private readonly ways: Map<string, Refutation[]>,
    private readonly atoms: readonly Atom[],
    private readonly entries: readonly { readonly rule: NormalRule; readonly conditionsId: number }[],
    private readonly conditionsCount: number,
  ) {}

  /** The store's refutations of the way, in the search's ids: those of a leaf or tree the search does not hold cannot hold in it. */
  taken(key: string): Refutation[] {
    const { atomOfLeaf, conditionsIdOf } = this.numbered();
    const taken: Refutation[] = [];
    for (const stored of this.ways.get(key) ?? []) {
      const atoms = stored.atoms.map((number) => atomOfLeaf.get(number));
      const trees = stored.trees.map((number) => conditionsIdOf.get(number));
      if (atoms.includes(-1) || trees.includes(-1)) continue;
      taken.push({ atoms, holds: stored.holds, trees });
      if (taken.length === KEPT_PER_WAY) break;
    }
    return taken;
  }

  /** Keeps a refutation the search learned for the way, in the store's numbers. */
  keep(key: string, { atoms, holds, trees }: Refutation): void {
    const { conditionsNumbers } = this.numbered();
    const stored = { atoms: atoms.map((id) => leafNumber((this.atoms[id] as Atom).leaf)), holds, trees: trees.map((id) => conditionsNumbers[id] as number) };
    let kept = this.ways.get(key);
    if (kept === undefined) this.ways.set(key, (kept = []));
    kept.unshift(stored);
    if (kept.length > STORED_PER_WAY) kept.pop();
  }

  private numbered(): { atomOfLeaf: ByNumber; conditionsIdOf: ByNumber; conditionsNumbers: Int32Array } {
    if (this.numbers !== undefined) return this.numbers;
    const atomOfLeaf = new ByNumber();
    for (const atom of this.atoms) atomOfLeaf.set(leafNumber(atom.leaf), atom.id);
    const conditionsIdOf = new ByNumber();
    const conditionsNumbers = new Int32Array(this.conditionsCount);
    for (const entry of this.entries) {
      const number = ruleKeysOf(entry.rule).conditionsNumber;
      conditionsIdOf.set(number, entry.conditionsId);
      conditionsNumbers[entry.conditionsId] = number;
    }
    return (this.numbers = { atomOfLeaf, conditionsIdOf, conditionsNumbers });
  }
}

export class Refutations {
  /** Per way, by its leaves' numbers (wayKey): the rules of two lists may be two objects with the same conditions, each with its own lists of ways. */
  private readonly byWay = new Map<string, Refutation[]>();
  private readonly keys = new Map<readonly (Atom | undefined)[], string>();
  /** Per literal (atom id × 2 + truth, 1 true): the refutations learned here that require it, the last first. */
  private readonly byLiteral = new Map<number, Refutation[]>();

  /**
   * `atoms`: the atoms by id; `onStack`: whether a tree with a conditions id is among those no
   * request of the state may match (regions.ts keeps the count); `shared`: the plan's store, when
   * the search has one.
   */
  constructor(
    private readonly assignment: Assignment,
    private readonly atoms: readonly Atom[],
    private readonly onStack: (conditionsId: number) => boolean,
    private readonly shared?: SharedRefutations,
  ) {}

  /** Whether a refutation learned for `way` holds in the current state: then no request of the way is left. */
  refutes(way: readonly (Atom | undefined)[]): boolean {
    const key = this.wayKey(way);
    let kept = this.byWay.get(key);
    // The first ask of the way in this search: what the plan's searches before it learned.
    if (kept === undefined) this.byWay.set(key, (kept = this.shared?.taken(key) ?? []));
    for (let i = 0; i < kept.length; i++) {
      const refutation = kept[i] as Refutation;
      if (!this.holds(refutation)) continue;
      if (i > 0) {
        kept.splice(i, 1);
        kept.unshift(refutation);
      }
      return true;
    }
    return this.refutedByOther(way, kept);
  }

  /**
   * Whether a refutation learned for another way holds. One that holds now did not before the
   * way's leaves were required (the state had a request), so it requires one of them to hold:
   * only those listed under the way's leaves are asked. Kept for the way when it holds.
   */
  private refutedByOther(way: readonly (Atom | undefined)[], kept: Refutation[]): boolean {
    for (const atom of way) {
      const listed = atom === undefined ? undefined : this.byLiteral.get(atom.id * 2 + 1);
      if (listed === undefined) continue;
      for (const refutation of listed) {
        if (kept.includes(refutation) || !this.holds(refutation)) continue;
        kept.unshift(refutation);
        if (kept.length > KEPT_PER_WAY) kept.pop();
        return true;
      }
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
    const refutation = { atoms, holds, trees: Int32Array.from(trees) };
    let kept = this.byWay.get(key);
    if (kept === undefined) this.byWay.set(key, (kept = []));
    kept.unshift(refutation);
    if (kept.length > KEPT_PER_WAY) kept.pop();
    for (let i = 0; i < atoms.length; i++) {
      const literal = (atoms[i] as number) * 2 + (holds[i] as number);
      let listed = this.byLiteral.get(literal);
      if (listed === undefined) this.byLiteral.set(literal, (listed = []));
      listed.unshift(refutation);
      if (listed.length > KEPT_PER_LITERAL) listed.pop();
    }
    this.shared?.keep(key, refutation);
  }

  /** The numbers of the way's leaves, ascending (a leaf without an atom as -1): the same for the same leaves in any order, in any search. */
  private wayKey(way: readonly (Atom | undefined)[]): string {
    let key = this.keys.get(way);
    if (key === undefined) this.keys.set(way, (key = way.map((atom) => (atom === undefined ? -1 : leafNumber(atom.leaf))).sort((a, b) => a - b).join(' ')));
    return key;
  }

  private holds({ atoms, holds, trees }: Refutation): boolean {
    for (let i = 0; i < trees.length; i++) if (!this.onStack(trees[i] as number)) return false;
    for (let i = 0; i < atoms.length; i++) if (this.assignment.truthOf(this.atoms[atoms[i] as number] as Atom) !== (holds[i] === 1)) return false;
    return true;
  }
}
