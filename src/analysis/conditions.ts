// Relations between condition trees, built from the exact leaf relations (leaves.ts):
// "every request that matches P matches Q" with the leaf facts that prove it, whether a tree
// can match no request, and whether it matches every request. Sound, not complete: false
// or undefined means "not proved", never "disproved".
import type { Conditions, Group, Leaf } from '../rules/model.js';
import { describeLeaf } from '../evaluate/describe.js';
import { isTautology, leafImplies, leavesContradict, negation } from './leaves.js';

/** A group's node keeps the group it was made from (`group`), so what is known of the group is known of the node. */
type Node = { kind: 'leaf'; leaf: Leaf } | { kind: '$and' | '$or'; children: Node[]; group?: Group };

export type { Node as ConditionTree };

export function groupNode(group: Group): Node {
  return { kind: group.operator, children: group.children.map((leaf) => ({ kind: 'leaf', leaf })), group };
}

/** `nodeOfGroup`: `groupNode`, or the same remembered per (interned) group, so what is remembered per node is shared. */
export function treeOf(conditions: Conditions, nodeOfGroup: (group: Group) => Node = groupNode): Node {
  return { kind: conditions.operator, children: conditions.children.map(nodeOfGroup) };
}

/**
 * How one leaf relates to another, a leaf in words, and why a group matches every request:
 * `leafImplies`, `describeLeaf` and `catchAll`, or the same remembered (checks.ts).
 */
export interface LeafFacts {
  implies(p: Leaf, q: Leaf): boolean;
  describe(leaf: Leaf): string;
  catchAll?(group: Group): string | undefined;
}

const DIRECT: LeafFacts = { implies: leafImplies, describe: describeLeaf };

/**
 * The facts ("A implies B") proving that P implies Q, or undefined when not proved.
 * `P = or(...)` implies Q when each child does and P implies `Q = and(...)` when it implies each
 * child (both exact); `and(...)` implies Q when one child does, P implies `or(...)` when it
 * implies one child (both sufficient). Facts are put in words once the proof is found, each once.
 */
export function implies(p: Node, q: Node, leaves: LeafFacts = DIRECT): string[] | undefined {
  const facts = factsOf(p, q, leaves);
  return facts === undefined ? undefined : [...new Set(facts.map((fact) => sentence(fact, leaves)))];
}

/** A reason a node matches every request, or a leaf implied by another. */
type Fact = string | { p: Leaf; q: Leaf };

/**
 * Proofs already found (or not) per pair of nodes: the analysis shares group nodes between
 * trees (treeOf's `nodeOfGroup`), so the same pair of groups comes up for many pairs of rules.
 * Weak: the entries go with the trees.
 */
const knownFacts = new WeakMap<Node, Map<Node, Fact[] | undefined>>();

function factsOf(p: Node, q: Node, leaves: LeafFacts): Fact[] | undefined {
  let known = knownFacts.get(p);
  if (known === undefined) knownFacts.set(p, (known = new Map()));
  if (known.has(q)) return known.get(q);
  const facts = factsOnce(p, q, leaves);
  known.set(q, facts);
  return facts;
}

function factsOnce(p: Node, q: Node, leaves: LeafFacts): Fact[] | undefined {
  const always = q.kind === '$or' && q.children.every((child) => child.kind === 'leaf') ? catchAllOf(q, leaves) : undefined;
  if (always !== undefined) return [always];
  if (p.kind === '$or') return every(p.children, (child) => factsOf(child, q, leaves));
  if (q.kind === '$and') return every(q.children, (child) => factsOf(p, child, leaves));
  if (p.kind === 'leaf' && q.kind === 'leaf') return leaves.implies(p.leaf, q.leaf) ? [{ p: p.leaf, q: q.leaf }] : undefined;
  if (p.kind === '$and') {
    for (const child of p.children) {
      const proof = factsOf(child, q, leaves);
      if (proof !== undefined) return proof;
    }
  }
  if (q.kind === '$or') {
    for (const child of q.children) {
      const proof = factsOf(p, child, leaves);
      if (proof !== undefined) return proof;
    }
  }
  return undefined;
}

function sentence(fact: Fact, leaves: LeafFacts): string {
  if (typeof fact === 'string') return fact;
  return isTautology(fact.q) ? `${leaves.describe(fact.q)} matches every request` : `${leaves.describe(fact.p)} implies ${leaves.describe(fact.q)}`;
}

/** Why an `$or` node of leaves matches every request: asked for each node it is compared with, so worked out once per node (or per group). */
const catchAllReasons = new WeakMap<Node, string | undefined>();
function catchAllOf(node: Node, leaves: LeafFacts): string | undefined {
  if (node.kind !== 'leaf' && node.group !== undefined && leaves.catchAll !== undefined) return leaves.catchAll(node.group);
  if (!catchAllReasons.has(node)) catchAllReasons.set(node, catchAll(groupOf(node)));
  return catchAllReasons.get(node);
}

function groupOf(node: Node): Group {
  const children = node.kind === 'leaf' ? [node.leaf] : node.children.flatMap((child) => (child.kind === 'leaf' ? [child.leaf] : []));
  return { operator: node.kind === '$and' ? '$and' : '$or', children };
}

function every(children: readonly Node[], proofOf: (child: Node) => Fact[] | undefined): Fact[] | undefined {
  const facts: Fact[] = [];
  for (const child of children) {
    const proof = proofOf(child);
    if (proof === undefined) return undefined;
    facts.push(...proof);
  }
  return facts;
}

/** Two leaves of an `$and` group that no request matches together, described; undefined if none is proved. */
export function contradiction(group: Group): string | undefined {
  if (group.operator !== '$and') return undefined;
  const leaves = group.children;
  for (let i = 0; i < leaves.length; i++) {
    for (let j = i + 1; j < leaves.length; j++) {
      const a = leaves[i] as Leaf;
      const b = leaves[j] as Leaf;
      if (leavesContradict(a, b)) return `${describeLeaf(a)} and ${describeLeaf(b)} never hold together`;
    }
  }
  return undefined;
}

/** The conditions can match no request (proved through contradicting groups; `contradictionOf`: `contradiction` or the same remembered). */
export function unsatisfiable(conditions: Conditions, contradictionOf: (group: Group) => string | undefined = contradiction): boolean {
  const dead = conditions.children.map((group) => contradictionOf(group) !== undefined);
  return conditions.operator === '$and' ? dead.some(Boolean) : dead.every(Boolean);
}

/** Why a group matches every request, or undefined when that is not proved. */
export function catchAll(group: Group): string | undefined {
  if (group.operator === '$and') {
    return group.children.every(isTautology) ? group.children.map((leaf) => `${describeLeaf(leaf)} matches every request`).join('; ') || 'an empty $and group matches every request' : undefined;
  }
  const always = group.children.find(isTautology);
  if (always !== undefined) return `${describeLeaf(always)} matches every request`;
  for (const leaf of group.children) {
    const opposite = negation(leaf);
    const pair = opposite === undefined ? undefined : group.children.find((other) => other !== leaf && leafImplies(opposite, other));
    if (pair !== undefined) return `${describeLeaf(leaf)} or ${describeLeaf(pair)} holds for every request`;
  }
  return undefined;
}
