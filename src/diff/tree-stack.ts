// The condition trees no request of a search state may match (regions.ts), as a stack indexed
// by what each tree needs of a request to match at all: a value of a field it requires
// (required-values.ts), a prefix or a suffix of one, an address in one of its ranges, else a
// field it cannot match without; for a tree of several ways, what one of its ways needs
// (tree-guards.ts, guard-lists.ts). The witness search (model.ts) asks which tree is the first
// to match a request; a tree whose guard the request fails is known not to match, so only the
// others are asked. On thousands of rules, most of them scoped to a path, a country or a
// header, a request is asked about a few of the trees above it instead of every one
// (docs/behaviour.md, "Exhaustive behaviour diff"). The trees are also listed by atoms one of
// which is true whenever the tree is (its watches, as SAT solvers watch literals), to find the
// trees an assignment may make true by its true atoms alone (someHolding).
import type { TestRequest } from '../evaluate/request.js';
import type { Conditions, Group, Leaf } from '../semantics/model.js';
import type { Atom, AtomTree } from './atoms.js';
import { GuardLists, valueLists } from './guard-lists.js';
import { guardsOfTree } from './tree-guards.js';

export class TreeStack {
  readonly list: Conditions[] = [];
  /** Per tree: a number unique to its push, so a remembered position in the stack can be checked. */
  readonly serials: number[] = [];
  /** Per tree: its tree by atoms when the caller gave it, else its conditions (what its watches are found from). */
  private readonly watchKeys: (AtomTree | Conditions)[] = [];
  private pushed = 0;
  /** Positions of the unguarded trees, ascending. */
  private readonly open: number[] = [];
  /** The guarded trees' positions, by what they need of a field (guard-lists.ts). */
  private readonly byGuard = new GuardLists();
  /** Per atom: the positions of the trees that watch it (watchesOf). */
  private readonly watchers = new Map<number, number[]>();
  /** Per field: the atoms some tree watches, each once (a fixed field's true atoms are looked for among them). */
  private readonly watchedByField = new Map<string, number[]>();
  /** Positions of the trees without watches (a leaf without an atom, or a tree true without any): asked always. */
  private readonly unwatched: number[] = [];
  /** The index by guards (firstMatching, candidates) and the one by atoms (someHolding), each made as asked. */
  private readonly guarded = new LazyLists((conditions) => {
    const guards = guardsOfTree(conditions);
    // A tree of several ways may be in one list by two of them: it is listed there once.
    return guards === undefined ? [this.open] : [...new Set(guards.flatMap((guard) => this.byGuard.listsOf(guard)))];
  });
  private readonly held = new LazyLists<AtomTree | Conditions>((tree) => {
    const watches = this.watchesOf(tree);
    return watches === undefined ? [this.unwatched] : valueLists(this.watchers, watches);
  });

  /**
   * `atomId`: the search's number for a leaf's meaning (its atom), if it has one; `atoms`: the
   * atoms by number (an atom's rules say how rare it is: a tree watches the rarest atom of a
   * group). A tree with a leaf of an atom not there has no watches.
   */
  constructor(
    private readonly atomId: (leaf: Leaf) => number | undefined,
    private readonly atoms: readonly Atom[] = [],
  ) {}

  /**
   * `atoms`: the tree by atoms (atoms.ts), when the caller has it: its watches are found from its
   * atoms, once per tree by atoms. Regions.ts pushes a rule's tree 180,000 times a plan on the
   * benchmark's `apis` shape, in 16,000 distinct conditions objects, and looking up each
   * one's leaves by number (semantics/program.ts leafNumber) was 2 % of the plan's time.
   */
  push(conditions: Conditions, atoms?: AtomTree): void {
    this.list.push(conditions);
    this.watchKeys.push(atoms ?? conditions);
    this.serials.push(++this.pushed);
  }

  pop(): void {
    const at = this.list.length - 1;
    this.list.pop();
    this.serials.pop();
    this.watchKeys.pop();
    this.guarded.popped(at);
    this.held.popped(at);
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
    this.guarded.catchUp(this.list);
    return this.byGuard.met(request, [this.open]);
  }

  /**
   * Whether `implied` confirms a tree of the stack that watches one of `atoms`, every atom true
   * under an assignment (Assignment.trueAtoms): a tree true under it has a watch among them, so
   * the others are not asked (rule-above.ts). On the plan benchmark's `apis` shape a tree was
   * listed by every atom of its leaves, a wildcard host and a method in thousands of trees each,
   * and a check that found none asked some 400 trees; by its watches (a path prefix of few rules)
   * only those whose rarest atom of a group holds are asked. The shortest lists first, each from
   * its top (the trees pushed last, in the search's state). A tree may be asked once per watch.
   */
  someHolding(atoms: Iterable<number>, implied: (at: number) => boolean): boolean {
    this.held.catchUp(this.watchKeys);
    const lists: number[][] = this.unwatched.length > 0 ? [this.unwatched] : [];
    for (const atom of atoms) {
      const list = this.watchers.get(atom);
      if (list !== undefined && list.length > 0 && !lists.includes(list)) lists.push(list);
    }
    lists.sort((a, b) => a.length - b.length);
    for (const list of lists) for (let i = list.length - 1; i >= 0; i--) if (implied(list[i] as number)) return true;
    return false;
  }

  /** The atoms of `field` that trees of the stack (and trees once on it) watch. */
  watchedOf(field: string): readonly number[] {
    this.held.catchUp(this.watchKeys);
    return this.watchedByField.get(field) ?? [];
  }

  /**
   * Atoms one of which is true whenever the tree is, or undefined when it has none. A group of
   * `$and` is true only with all its atoms: it watches the rarest; one of `$or`, every atom. A
   * tree of `$or` watches each group's; one of `$and` one group's, the fewest.
   */
  private watchesOf(tree: AtomTree | Conditions): number[] | undefined {
    const byAtoms = 'groups' in tree;
    const groups = byAtoms ? tree.groups.map((group) => this.groupWatches(group.atoms, group.all)) : tree.children.map((group) => this.groupWatches(this.groupAtoms(group), group.operator === '$and'));
    const some = byAtoms ? !tree.all : tree.operator === '$or';
    if (some) return groups.includes(undefined) ? undefined : [...new Set((groups as number[][]).flat())];
    let fewest: number[] | undefined;
    for (const watches of groups) if (watches !== undefined && (fewest === undefined || watches.length < fewest.length)) fewest = watches;
    return fewest;
  }

  /** The atoms of the group's leaves, undefined when one has none. */
  private groupAtoms(group: Group): Atom[] | undefined {
    const atoms: Atom[] = [];
    for (const leaf of group.children) {
      const id = this.atomId(leaf);
      const atom = id === undefined ? undefined : this.atoms[id];
      if (atom === undefined) return undefined;
      atoms.push(atom);
    }
    return atoms;
  }

  /**
   * A group's watches (found once per tree and stack: LazyLists), of its atoms (`all`: an `$and`);
   * undefined for a leaf without an atom, or an `$and` of none (true whatever is assigned).
   */
  private groupWatches(atoms: readonly Atom[] | undefined, all: boolean): number[] | undefined {
    if (atoms === undefined) return undefined;
    let watched = atoms;
    if (all) {
      let rarest: Atom | undefined;
      for (const atom of atoms) if (rarest === undefined || watchCost(atom) < watchCost(rarest)) rarest = atom;
      if (rarest === undefined) return undefined;
      watched = [rarest];
    }
    for (const atom of watched) {
      if (this.watchers.has(atom.id)) continue;
      this.watchers.set(atom.id, []);
      if (this.watchedByField.get(atom.field)?.push(atom.id) === undefined) this.watchedByField.set(atom.field, [atom.id]);
    }
    return [...new Set(watched.map((atom) => atom.id))];
  }
}

/**
 * Lists of stack positions that the trees are added to when first asked about, and taken out of
 * when popped. The search pushes a tree at every step and pops most of them before it asks
 * anything (a request that still fits a tree needs no index, model.ts): only the trees on the
 * stack when a question comes are indexed, each once while it stays there.
 */
class LazyLists<K = Conditions> {
  /** Per tree indexed: the lists it is in, to undo its push. */
  private readonly buckets: number[][][] = [];
  /** The trees below this position are in the lists. */
  private indexed = 0;
  /**
   * Per conditions object (or tree by atoms): the lists a push of it joins. They are the same lists at every push
   * (the lists are made once and only grow), so the search, which pushes a tree in many states,
   * finds them once.
   */
  private readonly listsOf = new Map<K, number[][]>();

  constructor(private readonly listsFor: (tree: K) => number[][]) {}

  catchUp(trees: readonly K[]): void {
    for (let at = this.indexed; at < trees.length; at++) {
      const tree = trees[at] as K;
      let lists = this.listsOf.get(tree);
      if (lists === undefined) this.listsOf.set(tree, (lists = this.listsFor(tree)));
      for (const list of lists) list.push(at);
      this.buckets.push(lists);
    }
    this.indexed = trees.length;
  }

  /** The tree at `at`, the top of the stack, was popped. */
  popped(at: number): void {
    if (at >= this.indexed) return;
    for (const list of this.buckets.pop() ?? []) list.pop();
    this.indexed = at;
  }
}

/**
 * How costly an atom is to watch: a leaf that may fix its field's value (an `$eq` or `$in`, a
 * presence test) last, as a fixed field's watched atoms are each asked at every check
 * (Assignment.trueAtoms), then by how many rules it is in (the fewer, the less often true).
 */
function watchCost(atom: Atom): number {
  const fixing = atom.leaf.operator === '$eq' || atom.leaf.operator === '$in' || atom.leaf.operator === '$exists' || atom.leaf.operator === '$notExists';
  return (fixing ? Number.MAX_SAFE_INTEGER / 2 : 0) + atom.rules.size;
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
