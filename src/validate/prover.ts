// The one prover of "every request that matches P matches Q" between condition trees, built
// from the exact leaf relations (leaves.ts). Sound, not complete: false means "not proved".
//
// `P = or(...)` implies Q when each child does and P implies `Q = and(...)` when it implies each
// child (both exact); `and(...)` implies Q when one child does, P implies `or(...)` when it
// implies one child (both sufficient); an `$or` group proved to match every request is implied
// by anything. Whether a proof exists is remembered per pair of nodes (leaves and groups are
// interned, interned.ts, so nodes are shared between trees and the same pair of groups comes up
// for many pairs of rules); the proof itself, the leaf facts put in words, is walked again only
// for the pairs that are reported, by the same steps in the same order.
import { describeLeaf } from '../evaluate/describe.js';
import type { Conditions, Group, Leaf, LeafOperator } from '../semantics/model.js';
import { catchAll } from './conditions.js';
import { fieldKey, leafValues } from '../semantics/fields.js';
import { AddressIndex, isInsideLeaf } from './address-index.js';
import { impliableOperators, impliesInField, impliesThroughValues, isTautology, matchesEveryPresentValue, valueImplies, type PatternVerdict } from './leaves.js';
import { presentVerdict } from '../evaluate/leaf.js';

export type Node =
  | { kind: 'leaf'; id: number; known: Map<Node, boolean> }
  | {
    kind: '$and' | '$or';
    children: Node[];
    /** An `$or` group proved to match every request, and why. */
    always: string | undefined;
    /** `proves(this, q)` for the nodes q asked about so far. */
    known: Map<Node, boolean>;
    /** A tree's root (one per class): a pair of roots is asked about once, so it is not remembered. */
    root?: true;
  };

/** A reason a node matches every request, or a leaf implied by another (put in words only for a reported proof). */
type Fact = string | { p: number; q: number };

/**
 * Distinct leaves (one object each: interned), and which of them each one implies (computed
 * once, when first asked). Leaves are filed by field and operator, so a leaf is compared only
 * with the leaves of its field it can imply (impliableOperators) and those that match every
 * present value: on rules with many distinct leaves, comparing each with every leaf of its
 * field was most of the shadow search.
 */
export class LeafTable {
  private readonly ids = new Map<Leaf, number>();
  readonly leaves: Leaf[] = [];
  /** field → operator → ids, ascending; '' for the leaves that match every present value. */
  private readonly byField = new Map<string, Map<LeafOperator | '', number[]>>();
  readonly tautology: boolean[] = [];
  private readonly implied: (Set<number> | undefined)[] = [];
  /** Field and value → the leaves of the field (but those matching every present value) the value satisfies, ascending. */
  private readonly satisfiedBy = new Map<string, number[]>();
  private readonly addresses = new AddressIndex();

  /** `patternVerdict`: a `$re` leaf's verdict on a value (leaves.ts), the analysis' remembered one. */
  constructor(private readonly patternVerdict: PatternVerdict = presentVerdict) {}

  id(leaf: Leaf): number {
    let id = this.ids.get(leaf);
    if (id === undefined) {
      id = this.leaves.length;
      this.ids.set(leaf, id);
      this.leaves.push(leaf);
      this.tautology.push(isTautology(leaf));
      const field = fieldKey(leaf);
      let byOperator = this.byField.get(field);
      if (byOperator === undefined) this.byField.set(field, (byOperator = new Map()));
      const filed = matchesEveryPresentValue(leaf) ? '' : leaf.operator;
      const same = byOperator.get(filed);
      if (same === undefined) byOperator.set(filed, [id]);
      else same.push(id);
      if (isInsideLeaf(leaf)) this.addresses.add(id, leaf);
    }
    return id;
  }

  /** The leaves `p` implies other than tautologies (leafImplies is false across fields, bar those), ascending. Call after interning every leaf. */
  impliedBy(p: number): Set<number> {
    let set = this.implied[p];
    if (set === undefined) {
      const leaf = this.leaves[p] as Leaf;
      set = impliesThroughValues(leaf) ? this.impliedByValues(leaf) : this.impliedByComparing(leaf);
      this.implied[p] = set;
    }
    return set;
  }

  /**
   * A text `$eq`/`$in` leaf implies the leaves that match every present value, and those its
   * values all satisfy: the leaves its first value satisfies are found once per value and field
   * and shared (rules use a few values in many leaves), then checked against its other values.
   */
  private impliedByValues(leaf: Leaf): Set<number> {
    const field = fieldKey(leaf);
    const [first, ...others] = leafValues(leaf) as [string, ...string[]];
    const key = `${field}\u0000${first}`;
    let satisfied = this.satisfiedBy.get(key);
    if (satisfied === undefined) {
      const byOperator = this.byField.get(field) as Map<LeafOperator | '', number[]>;
      const ids = [...byOperator].flatMap(([operator, list]) => (operator === '' ? [] : list));
      satisfied = ids.filter((q) => valueImplies(first, this.leaves[q] as Leaf, this.patternVerdict));
      this.satisfiedBy.set(key, satisfied);
    }
    const implied = satisfied.filter((q) => others.every((value) => valueImplies(value, this.leaves[q] as Leaf, this.patternVerdict)));
    return new Set([...(this.byField.get(field)?.get('') ?? []), ...implied].sort((a, b) => a - b));
  }

  /**
   * Any other leaf is compared with the leaves of its field it can imply; an address leaf's
   * ranges are looked up among the `$eq`/`$in` address leaves instead (address-index.ts).
   */
  private impliedByComparing(leaf: Leaf): Set<number> {
    const byOperator = this.byField.get(fieldKey(leaf)) as Map<LeafOperator | '', number[]>;
    const operators = impliableOperators(leaf);
    const indexed = isInsideLeaf(leaf) ? INSIDE_OPERATORS : undefined;
    const lists = [...byOperator].flatMap(([operator, list]) => ((operators === 'all' || operator === '' || operators.includes(operator)) && indexed?.has(operator) !== true ? [list] : []));
    const candidates = lists.length === 1 ? (lists[0] as number[]) : lists.flat().sort((a, b) => a - b);
    const compared = candidates.filter((q) => this.tautology[q] === true || impliesInField(leaf, this.leaves[q] as Leaf, this.patternVerdict));
    return new Set(indexed === undefined ? compared : [...compared, ...this.addresses.around(leaf)].sort((a, b) => a - b));
  }

  implies(p: number, q: number): boolean {
    return this.tautology[q] === true || this.impliedBy(p).has(q);
  }
}

const INSIDE_OPERATORS: ReadonlySet<LeafOperator | ''> = new Set(['$eq', '$in']);

export class Prover {
  readonly table: LeafTable;
  private readonly leafNodes = new Map<Leaf, Node>();
  private readonly groupNodes = new Map<Group, Node>();

  /** `catchAllOf`: `catchAll`, or the same remembered per group; `patternVerdict`: the leaf table's (LeafTable). */
  constructor(private readonly catchAllOf: (group: Group) => string | undefined = catchAll, patternVerdict?: PatternVerdict) {
    this.table = new LeafTable(patternVerdict);
  }

  /** A tree's node: its groups' nodes are shared with every tree using the same (interned) group. */
  tree(conditions: Conditions): Node {
    // A root $or of no groups is the only root whose children are all leaves; no leaf makes it match every request.
    return { kind: conditions.operator, children: conditions.children.map((group) => this.group(group)), always: undefined, known: new Map(), root: true };
  }

  /** Whether a proof that P implies Q is found. */
  proves(p: Node, q: Node): boolean {
    if (p.kind === 'leaf' && q.kind === 'leaf') return this.table.implies(p.id, q.id);
    if (p.kind !== 'leaf' && p.root === true && q.kind !== 'leaf' && q.root === true) return this.decide(p, q, undefined);
    let answer = p.known.get(q);
    if (answer === undefined) p.known.set(q, (answer = this.decide(p, q, undefined)));
    return answer;
  }

  /** The facts proving that P implies Q, in words, each once; undefined when no proof is found. */
  proof(p: Node, q: Node): string[] | undefined {
    if (!this.proves(p, q)) return undefined;
    const facts: Fact[] = [];
    this.decide(p, q, facts);
    return [...new Set(facts.map((fact) => this.sentence(fact)))];
  }

  /**
   * One step of the search (loops: this is the analysis's innermost work). With `facts`, on a
   * pair known to be proved, it also records the proof: the children it tries first are asked
   * without recording, so only the branch that succeeds is recorded.
   */
  private decide(p: Node, q: Node, facts: Fact[] | undefined): boolean {
    if (q.kind === '$or' && q.always !== undefined) {
      facts?.push(q.always);
      return true;
    }
    if (p.kind === '$or') {
      for (const child of p.children) if (!this.step(child, q, facts)) return false;
      return true;
    }
    if (q.kind === '$and') {
      for (const child of q.children) if (!this.step(p, child, facts)) return false;
      return true;
    }
    if (p.kind === 'leaf' && q.kind === 'leaf') {
      const proved = this.table.implies(p.id, q.id);
      if (proved) facts?.push({ p: p.id, q: q.id });
      return proved;
    }
    if (p.kind === '$and') {
      for (const child of p.children) if (this.proves(child, q)) return this.step(child, q, facts);
    }
    if (q.kind === '$or') {
      for (const child of q.children) if (this.proves(p, child)) return this.step(p, child, facts);
    }
    return false;
  }

  private step(p: Node, q: Node, facts: Fact[] | undefined): boolean {
    return facts === undefined ? this.proves(p, q) : this.decide(p, q, facts);
  }

  private sentence(fact: Fact): string {
    if (typeof fact === 'string') return fact;
    const p = this.table.leaves[fact.p] as Leaf;
    const q = this.table.leaves[fact.q] as Leaf;
    return this.table.tautology[fact.q] === true ? `${describeLeaf(q)} matches every request` : `${describeLeaf(p)} implies ${describeLeaf(q)}`;
  }

  group(group: Group): Node {
    let node = this.groupNodes.get(group);
    if (node === undefined) {
      const always = group.operator === '$or' ? this.catchAllOf(group) : undefined;
      node = { kind: group.operator, children: group.children.map((leaf) => this.leaf(leaf)), always, known: new Map() };
      this.groupNodes.set(group, node);
    }
    return node;
  }

  private leaf(leaf: Leaf): Node {
    let node = this.leafNodes.get(leaf);
    if (node === undefined) this.leafNodes.set(leaf, (node = { kind: 'leaf', id: this.table.id(leaf), known: new Map() }));
    return node;
  }
}

/** The proof that P implies Q with a prover of its own (tests, and the pairwise reference). */
export function implies(p: Conditions, q: Conditions): string[] | undefined {
  const prover = new Prover();
  return prover.proof(prover.tree(p), prover.tree(q));
}
