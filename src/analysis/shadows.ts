// Which earlier rule shadows each rule, without proving implication for every pair of rules
// (which made `validate` quadratic: about 12 million tree comparisons at 5,000 rules).
//
// The answer is exactly the pairwise one: for rule P, the first earlier active rule Q for which
// `implies(P, Q)` (conditions.ts) succeeds. Two things make it fast:
// - `provable` decides the same thing as `implies(…) !== undefined`, step for step, but on
//   interned leaves whose implications are worked out once per pair of distinct leaves;
// - an index skips the earlier rules that cannot succeed. Every proof of "P implies Q" ends in
//   leaf facts "p implies q" with p a leaf of P, so Q can only succeed if the leaves P implies
//   meet what Q requires (`requirement`: for each clause, at least one of its leaves). Each Q
//   is filed under the leaves of one of its clauses; P looks up the leaves it implies.
//
// Leaves and groups are interned (interned.ts), so the nodes built from them are shared too, and
// `proves` remembers its answer for every pair of leaf or group nodes.
import type { Conditions, DeclaredRule, Group, Leaf } from '../rules/model.js';
import { catchAll } from './conditions.js';
import type { InternedRules } from './interned.js';
import { fieldKey, isTautology, leafImplies } from './leaves.js';
import { firstInLists, RequirementIndex, type Requirement } from './requirement-index.js';

type Node =
  | { kind: 'leaf'; id: number; known: Map<Node, boolean> }
  | {
    kind: '$and' | '$or';
    children: Node[];
    /** an $or of leaves proved to match every request */
    always: boolean;
    /** `proves(this, q)` for the nodes q asked about so far. */
    known: Map<Node, boolean>;
    /** A tree's root (one per class): a pair of roots is asked about once, so it is not remembered. */
    root?: true;
  };


/** Distinct leaves (one object each: interned), and which of them each one implies (computed once, when first asked). */
class LeafTable {
  private readonly ids = new Map<Leaf, number>();
  private readonly leaves: Leaf[] = [];
  private readonly byField = new Map<string, number[]>();
  readonly tautology: boolean[] = [];
  private readonly implied: (Set<number> | undefined)[] = [];

  id(leaf: Leaf): number {
    let id = this.ids.get(leaf);
    if (id === undefined) {
      id = this.leaves.length;
      this.ids.set(leaf, id);
      this.leaves.push(leaf);
      this.tautology.push(isTautology(leaf));
      const field = fieldKey(leaf);
      const same = this.byField.get(field);
      if (same === undefined) this.byField.set(field, [id]);
      else same.push(id);
    }
    return id;
  }

  /** The leaves `p` implies other than tautologies (leafImplies is false across fields, bar those). Call after interning every leaf. */
  impliedBy(p: number): Set<number> {
    let set = this.implied[p];
    if (set === undefined) {
      const leaf = this.leaves[p] as Leaf;
      set = new Set((this.byField.get(fieldKey(leaf)) ?? []).filter((q) => leafImplies(leaf, this.leaves[q] as Leaf)));
      this.implied[p] = set;
    }
    return set;
  }

  implies(p: number, q: number): boolean {
    return this.tautology[q] === true || this.impliedBy(p).has(q);
  }
}

/**
 * For each rule: the index of the first earlier active rule that shadows it, or -1 (also for
 * rules not checked). `twins`: the first earlier rule with the same canonical conditions, which
 * shadows the rule when active; `classes`: equal numbers for rules whose conditions are written
 * identically, whose answers are therefore the same up to the later one's start; `conditions`:
 * each class's, interned; `catchAllOf`: `catchAll`, or the same remembered per group.
 */
export function firstShadows(
  rules: readonly DeclaredRule[], check: (index: number) => boolean, twins: readonly number[], { classes, conditions }: InternedRules,
  catchAllOf: (group: Group) => string | undefined = catchAll,
): number[] {
  const table = new LeafTable();
  const nodes = new Nodes(table, catchAllOf);
  // Worked out once per class.
  const treeOfClass = conditions.map((tree) => nodes.tree(tree));
  const trees = classes.map((number) => treeOfClass[number] as Node);
  // What each class's leaves imply: per group under a root $or (every group must imply Q), else the whole tree.
  const impliedOfClass = treeOfClass.map((tree) => nodes.impliedSets(tree));
  const requirementOfClass = treeOfClass.map((tree) => nodes.requirement(tree));
  const implied = classes.map((number) => impliedOfClass[number] as Set<number>[]);
  const vacuousOfClass = treeOfClass.map(hasEmptyOr);
  const rulesOfClass = treeOfClass.map(() => 0);
  for (const number of classes) rulesOfClass[number] = (rulesOfClass[number] as number) + 1;
  const uses = new Map<number, number>();
  impliedOfClass.forEach((sets, number) => {
    for (const set of sets) for (const q of set) uses.set(q, (uses.get(q) ?? 0) + (rulesOfClass[number] as number));
  });
  const index = new RequirementIndex(uses);
  const active: number[] = [];
  const lastOfClass = new Map<number, number>();
  const result = rules.map(() => -1);

  const shadowOf = (at: number): number => {
    const tree = trees[at] as Node;
    const same = lastOfClass.get(classes[at] as number) ?? -1;
    // An identically written earlier rule was answered already: the same answer, or one from its position on.
    if (same >= 0 && (result[same] as number) >= 0) return result[same] as number;
    const twin = twins[at] ?? -1;
    const vacuous = vacuousOfClass[classes[at] as number] as boolean;
    const twinActive = twin >= 0 && rules[twin]?.status === 'active';
    const { lists, meets } = vacuous ? { lists: [active], meets: () => true } : index.candidates(implied[at] as Set<number>[]);
    const found = firstInLists(lists, Math.max(same, 0), (q) => q === twin || (meets(q) && proves(tree, trees[q] as Node, table)));
    // The twin comes first when it is active and earlier than every filed rule that is proved.
    return twinActive && (found < 0 || twin < found) ? twin : found;
  };

  // Only the first active rule of each class is filed: proofs depend on the trees only, so when
  // a later one would pass, the first passes too, and comes first, unless it lies before the
  // search's start, where every rule failed already (a rule written alike answered it).
  const filed = new Set<number>();
  rules.forEach((rule, at) => {
    if (check(at)) {
      result[at] = shadowOf(at);
      lastOfClass.set(classes[at] as number, at);
    }
    if (rule.status !== 'active' || filed.has(classes[at] as number)) return;
    filed.add(classes[at] as number);
    active.push(at);
    index.add(at, requirementOfClass[classes[at] as number] as Requirement);
  });
  return result;
}

/** The nodes of the trees, one per interned leaf and group, with what is worked out from each. */
class Nodes {
  private readonly leaves = new Map<Leaf, Node>();
  private readonly groups = new Map<Group, Node>();
  private readonly requirements = new Map<Node, Requirement>();
  private readonly implied = new Map<Node, Set<number>>();

  /** `catchAllOf`: `catchAll`, or the same remembered per group. */
  constructor(private readonly table: LeafTable, private readonly catchAllOf: (group: Group) => string | undefined) {}

  tree(conditions: Conditions): Node {
    // A root $or of no groups is the only root whose children are all leaves; no leaf makes it match every request.
    return { kind: conditions.operator, children: conditions.children.map((group) => this.group(group)), always: false, known: new Map(), root: true };
  }

  /**
   * What any tree P that `proves` implies Q must imply: a leaf of every clause (an empty clause:
   * nothing does). For `$and` every child's clauses; for `$or` one child's, so one clause made of
   * each child's first clause (none if some child requires nothing).
   */
  requirement(q: Node): Requirement {
    let clauses = this.requirements.get(q);
    if (clauses === undefined) {
      clauses = this.requirementOnce(q);
      this.requirements.set(q, clauses);
    }
    return clauses;
  }

  /** The leaves implied by each part of the tree that must imply an earlier rule on its own: each group under a root $or, else the whole tree. */
  impliedSets(tree: Node): Set<number>[] {
    if (tree.kind === '$or' && tree.children.length > 0) return tree.children.map((group) => this.impliedBy(group));
    return [this.impliedBy(tree)];
  }

  private group(group: Group): Node {
    let node = this.groups.get(group);
    if (node === undefined) {
      const always = group.operator === '$or' && this.catchAllOf(group) !== undefined;
      node = { kind: group.operator, children: group.children.map((leaf) => this.leaf(leaf)), always, known: new Map() };
      this.groups.set(group, node);
    }
    return node;
  }

  private leaf(leaf: Leaf): Node {
    let node = this.leaves.get(leaf);
    if (node === undefined) this.leaves.set(leaf, (node = { kind: 'leaf', id: this.table.id(leaf), known: new Map() }));
    return node;
  }

  private requirementOnce(q: Node): Requirement {
    if (q.kind === 'leaf') return this.table.tautology[q.id] === true ? [] : [[q.id]];
    if (q.kind === '$and') return q.children.flatMap((child) => this.requirement(child));
    if (q.always) return [];
    const children = q.children.map((child) => this.requirement(child));
    if (children.some((clauses) => clauses.length === 0)) return [];
    return [[...new Set(children.flatMap((clauses) => clauses[0] ?? []))]];
  }

  /** The leaves the node's leaves imply (shared nodes: worked out once). */
  private impliedBy(node: Node): Set<number> {
    let set = this.implied.get(node);
    if (set === undefined) {
      set = new Set<number>();
      if (node.kind === 'leaf') set = this.table.impliedBy(node.id);
      else for (const child of node.children) for (const q of this.impliedBy(child)) set.add(q);
      this.implied.set(node, set);
    }
    return set;
  }
}

/** Exactly whether `implies(p, q)` (conditions.ts) finds a proof. */
function proves(p: Node, q: Node, table: LeafTable): boolean {
  if (p.kind === 'leaf' && q.kind === 'leaf') return table.implies(p.id, q.id);
  if (p.kind !== 'leaf' && p.root === true && q.kind !== 'leaf' && q.root === true) return provesOnce(p, q, table);
  let answer = p.known.get(q);
  if (answer === undefined) p.known.set(q, (answer = provesOnce(p, q, table)));
  return answer;
}

/** `proves` of two nodes not both leaves, the same steps in the same order as `implies` (loops: this is the analysis's innermost work). */
function provesOnce(p: Node, q: Node, table: LeafTable): boolean {
  if (q.kind === '$or' && q.always) return true;
  if (p.kind === '$or') {
    for (const child of p.children) if (!proves(child, q, table)) return false;
    return true;
  }
  if (q.kind === '$and') {
    for (const child of q.children) if (!proves(p, child, table)) return false;
    return true;
  }
  if (p.kind === '$and') {
    for (const child of p.children) if (proves(child, q, table)) return true;
  }
  if (q.kind === '$or') {
    for (const child of q.children) if (proves(p, child, table)) return true;
  }
  return false;
}

/** An `$or` with no children: everything follows from it vacuously, so the index must not be used. */
function hasEmptyOr(node: Node): boolean {
  return node.kind !== 'leaf' && ((node.kind === '$or' && node.children.length === 0) || node.children.some(hasEmptyOr));
}
