// Which earlier rule shadows each rule, without proving implication for every pair of rules
// (which made `validate` quadratic: about 12 million tree comparisons at 5,000 rules).
//
// The answer is exactly the pairwise one: for rule P, the first earlier active rule Q for which
// `implies(P, Q)` (prover.ts) succeeds, here asked as `Prover.proves`. Two things make it fast:
// - the prover (prover.ts) works on interned leaves whose implications are worked out once
//   per pair of distinct leaves, and remembers its answer for every pair of leaf or group nodes;
// - an index skips the earlier rules that cannot succeed. Every proof of "P implies Q" ends in
//   leaf facts "p implies q" with p a leaf of P, so Q can only succeed if the leaves P implies
//   meet what Q requires (`requirement`: for each clause, at least one of its leaves). Each Q
//   is filed under the leaves of one of its clauses; P looks up the leaves it implies.
import type { DeclaredRule } from '../semantics/model.js';
import type { InternedRules } from './interned.js';
import type { Node, Prover } from './prover.js';
import { firstInLists, RequirementIndex, type Part, type Requirement } from './requirement-index.js';

/**
 * For each rule: the index of the first earlier active rule that shadows it, or -1 (also for
 * rules not checked). `twins`: the first earlier rule with the same canonical conditions, which
 * shadows the rule when active; `classes`: equal numbers for rules whose conditions are written
 * identically, whose answers are therefore the same up to the later one's start; `conditions`:
 * each class's, interned; `treeOfClass`: each class's tree in `prover`.
 */
export function firstShadows(
  rules: readonly DeclaredRule[], check: (index: number) => boolean, twins: readonly number[], { classes }: InternedRules,
  prover: Prover, treeOfClass: readonly Node[],
): number[] {
  const nodes = new Requirements(prover);
  const trees = classes.map((number) => treeOfClass[number] as Node);
  // What each class's leaves imply: per group under a root $or (every group must imply Q), else the whole tree.
  const impliedOfClass = treeOfClass.map((tree) => nodes.impliedSets(tree));
  const requirementOfClass = treeOfClass.map((tree) => nodes.requirement(tree));
  const implied = classes.map((number) => impliedOfClass[number] as Part[]);
  const vacuousOfClass = treeOfClass.map(hasEmptyOr);
  const rulesOfClass = treeOfClass.map(() => 0);
  for (const number of classes) rulesOfClass[number] = (rulesOfClass[number] as number) + 1;
  const uses = new Map<number, number>();
  impliedOfClass.forEach((sets, number) => {
    for (const part of sets) for (const set of part) for (const q of set) uses.set(q, (uses.get(q) ?? 0) + (rulesOfClass[number] as number));
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
    const { lists, meets } = vacuous ? { lists: [active], meets: () => true } : index.candidates(implied[at] as Part[]);
    const found = firstInLists(lists, Math.max(same, 0), (q) => q === twin || (meets(q) && prover.proves(tree, trees[q] as Node)));
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

/** What the index needs of each node: what it requires of a tree that implies it, and what it implies. */
class Requirements {
  private readonly requirements = new Map<Node, Requirement>();
  private readonly implied = new Map<Node, Part>();

  constructor(private readonly prover: Prover) {}

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

  /**
   * What each part of the tree that must imply an earlier rule on its own implies (each group
   * under a root $or, else the whole tree): the sets of leaves its leaves imply, one per distinct
   * leaf, never unioned (the union of every tree's sets was most of this search's allocations).
   */
  impliedSets(tree: Node): Part[] {
    if (tree.kind === '$or' && tree.children.length > 0) return tree.children.map((group) => this.leafSets(group));
    return [this.leafSets(tree)];
  }

  private requirementOnce(q: Node): Requirement {
    if (q.kind === 'leaf') return this.prover.table.tautology[q.id] === true ? [] : [[q.id]];
    if (q.kind === '$and') return q.children.flatMap((child) => this.requirement(child));
    if (q.always !== undefined) return [];
    const children = q.children.map((child) => this.requirement(child));
    if (children.some((clauses) => clauses.length === 0)) return [];
    return [[...new Set(children.flatMap((clauses) => clauses[0] ?? []))]];
  }

  /** The implied sets of the node's distinct leaves (a group's: worked out once, groups are shared). */
  private leafSets(node: Node): Part {
    if (node.kind === 'leaf') return [this.prover.table.impliedBy(node.id)];
    let sets = this.implied.get(node);
    if (sets === undefined) {
      sets = [...new Set(node.children.flatMap((child) => this.leafSets(child)))];
      if (node.root !== true) this.implied.set(node, sets);
    }
    return sets;
  }
}

/** An `$or` with no children: everything follows from it vacuously, so the index must not be used. */
function hasEmptyOr(node: Node): boolean {
  return node.kind !== 'leaf' && ((node.kind === '$or' && node.children.length === 0) || node.children.some(hasEmptyOr));
}
