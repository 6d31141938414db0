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
import type { Conditions, DeclaredRule, Leaf } from '../rules/model.js';
import { catchAll } from './conditions.js';
import { fieldKey, isTautology, leafImplies } from './leaves.js';

type Node =
  | { kind: 'leaf'; id: number }
  | { kind: '$and' | '$or'; children: Node[]; /** an $or of leaves proved to match every request */ always: boolean };

/** Clauses of leaf ids; a tree implies Q only if its leaves imply one leaf of every clause. */
type Requirement = number[][];

/** Distinct leaves, and which of them each one implies (computed once, when first asked). */
class LeafTable {
  private readonly ids = new Map<string, number>();
  private readonly leaves: Leaf[] = [];
  private readonly byField = new Map<string, number[]>();
  readonly tautology: boolean[] = [];
  private readonly implied: (Set<number> | undefined)[] = [];

  id(leaf: Leaf): number {
    const key = JSON.stringify([leaf.conditionType, leaf.fieldOption ?? null, leaf.operator, leaf.value ?? null]);
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.leaves.length;
      this.ids.set(key, id);
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
 * identically, whose answers are therefore the same up to the later one's start.
 */
export function firstShadows(rules: readonly DeclaredRule[], check: (index: number) => boolean, twins: readonly number[], classes: readonly number[]): number[] {
  const table = new LeafTable();
  // Worked out once per class (classes are numbered in order of first use).
  const treeOfClass: Node[] = [];
  const trees = rules.map((rule, at) => {
    const number = classes[at] as number;
    if (number === treeOfClass.length) treeOfClass.push(treeOf(rule.conditions, table));
    return treeOfClass[number] as Node;
  });
  // What each class's leaves imply: per group under a root $or (every group must imply Q), else the whole tree.
  const impliedOfClass = treeOfClass.map((tree) => impliedSets(tree, table));
  const requirementOfClass = treeOfClass.map((tree) => requirement(tree, table));
  const implied = classes.map((number) => impliedOfClass[number] as Set<number>[]);
  const uses = new Map<number, number>();
  for (const sets of implied) for (const set of sets) for (const q of set) uses.set(q, (uses.get(q) ?? 0) + 1);
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
    const vacuous = hasEmptyOr(tree);
    const twinActive = twin >= 0 && rules[twin]?.status === 'active';
    const { lists, meets } = vacuous ? { lists: [active], meets: () => true } : index.candidates(implied[at] as Set<number>[]);
    // A rule written like one tried already is not proved either (proofs depend on the trees only).
    const tried = new Set<number>();
    const proved = (q: number) => {
      const number = classes[q] as number;
      if (tried.has(number)) return false;
      tried.add(number);
      return meets(q) && proves(tree, trees[q] as Node, table);
    };
    const found = firstInLists(lists, Math.max(same, 0), (q) => q === twin || proved(q));
    // The twin comes first when it is active and earlier than every filed rule that is proved.
    return twinActive && (found < 0 || twin < found) ? twin : found;
  };

  rules.forEach((rule, at) => {
    if (check(at)) {
      result[at] = shadowOf(at);
      lastOfClass.set(classes[at] as number, at);
    }
    if (rule.status !== 'active') return;
    active.push(at);
    index.add(at, requirementOfClass[classes[at] as number] as Requirement);
  });
  return result;
}

/** Earlier active rules, each filed under the leaves of one clause of its requirement. */
class RequirementIndex {
  private readonly requirements: Requirement[] = [];
  private readonly filed = new Map<number, number[]>();

  /** `uses`: how many rules imply each leaf, to file a rule under its least used clause. */
  constructor(private readonly uses: ReadonlyMap<number, number>) {}

  add(rule: number, clauses: Requirement): void {
    if (clauses.some((clause) => clause.length === 0)) return; // nothing implies it
    this.requirements[rule] = clauses;
    // A rule with no clause (every tree implies it) is filed under -1, which every lookup reads.
    for (const id of clauses.length === 0 ? [-1] : this.cheapest(clauses)) {
      const list = this.filed.get(id);
      if (list === undefined) this.filed.set(id, [rule]);
      else list.push(rule);
    }
  }

  /**
   * Earlier rules filed under a leaf the tree implies, ascending, with a test of whether the
   * tree meets a rule's whole requirement. `sets`: the leaves implied by each part of the tree
   * that must imply the earlier rule on its own; the lists are those of the part with the
   * shortest ones, the test checks every part.
   */
  candidates(sets: readonly Set<number>[]): { lists: number[][]; meets: (rule: number) => boolean } {
    const ids = (set: Set<number>) => [-1, ...set];
    const cost = (set: Set<number>) => ids(set).reduce((sum, id) => sum + (this.filed.get(id)?.length ?? 0), 0);
    const cheapest = sets.reduce((best, set) => (cost(set) < cost(best) ? set : best));
    const lists = ids(cheapest).flatMap((id) => { const list = this.filed.get(id); return list === undefined ? [] : [list]; });
    const meets = (rule: number) => sets.every((set) => (this.requirements[rule] as Requirement).every((clause) => clause.some((id) => set.has(id))));
    return { lists, meets };
  }

  private cheapest(clauses: Requirement): number[] {
    const cost = (clause: number[]) => clause.reduce((sum, id) => sum + (this.uses.get(id) ?? 0), 0);
    return clauses.reduce((best, clause) => (cost(clause) < cost(best) ? clause : best));
  }
}


function treeOf(conditions: Conditions, table: LeafTable): Node {
  const groups: Node[] = conditions.children.map((group) => {
    const children: Node[] = group.children.map((leaf) => ({ kind: 'leaf', id: table.id(leaf) }));
    return { kind: group.operator, children, always: group.operator === '$or' && catchAll({ operator: '$or', children: group.children }) !== undefined };
  });
  // A root $or of no groups is the only root whose children are all leaves; no leaf makes it match every request.
  return { kind: conditions.operator, children: groups, always: false };
}

/** Exactly whether `implies(p, q)` (conditions.ts) finds a proof; the same steps in the same order. */
function proves(p: Node, q: Node, table: LeafTable): boolean {
  if (q.kind === '$or' && q.always) return true;
  if (p.kind === '$or') return p.children.every((child) => proves(child, q, table));
  if (q.kind === '$and') return q.children.every((child) => proves(p, child, table));
  if (p.kind === 'leaf' && q.kind === 'leaf') return table.implies(p.id, q.id);
  if (p.kind === '$and' && p.children.some((child) => proves(child, q, table))) return true;
  if (q.kind === '$or' && q.children.some((child) => proves(p, child, table))) return true;
  return false;
}

/**
 * What any tree P that `proves` implies Q must imply: a leaf of every clause (an empty clause:
 * nothing does). For `$and` every child's clauses; for `$or` one child's, so one clause made of
 * each child's first clause (none if some child requires nothing).
 */
function requirement(q: Node, table: LeafTable): Requirement {
  if (q.kind === 'leaf') return table.tautology[q.id] === true ? [] : [[q.id]];
  if (q.kind === '$and') return q.children.flatMap((child) => requirement(child, table));
  if (q.always) return [];
  const children = q.children.map((child) => requirement(child, table));
  if (children.some((clauses) => clauses.length === 0)) return [];
  return [[...new Set(children.flatMap((clauses) => clauses[0] ?? []))]];
}

/** An `$or` with no children: everything follows from it vacuously, so the index must not be used. */
function hasEmptyOr(node: Node): boolean {
  return node.kind !== 'leaf' && ((node.kind === '$or' && node.children.length === 0) || node.children.some(hasEmptyOr));
}

function impliedSets(tree: Node, table: LeafTable): Set<number>[] {
  const leavesOf = (node: Node): number[] => (node.kind === 'leaf' ? [node.id] : node.children.flatMap(leavesOf));
  const setOf = (node: Node) => new Set(leavesOf(node).flatMap((p) => [...table.impliedBy(p)]));
  if (tree.kind === '$or' && tree.children.length > 0) return tree.children.map(setOf);
  return [setOf(tree)];
}

/**
 * The smallest number from `from` on in any of the ascending lists that passes `test`, or -1;
 * the lists are merged lazily, as most walks end after a few numbers.
 */
function firstInLists(lists: readonly (readonly number[])[], from: number, test: (value: number) => boolean): number {
  const at = lists.map((list) => lowerBound(list, from));
  let last = -1;
  for (;;) {
    let next = -1;
    let which = -1;
    for (let i = 0; i < lists.length; i++) {
      const value = (lists[i] as readonly number[])[at[i] as number];
      if (value !== undefined && (which < 0 || value < next)) [next, which] = [value, i];
    }
    if (which < 0) return -1;
    at[which] = (at[which] as number) + 1;
    if (next !== last && test(next)) return next;
    last = next;
  }
}

function lowerBound(list: readonly number[], value: number): number {
  let [low, high] = [0, list.length];
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((list[mid] as number) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}
