// What a group or a tree can be proved to do on its own, from the exact leaf relations
// (leaves.ts): match no request, or match every request. (Implication between trees is the
// prover's, prover.ts.) Sound, not complete: undefined or false means "not proved", never "disproved".
import type { Conditions, Group, Leaf } from '../semantics/model.js';
import { describeLeaf } from '../evaluate/describe.js';
import { presentVerdict } from '../evaluate/leaf.js';
import { isTautology, leafImplies, leavesContradict, negation, type PatternVerdict } from './leaves.js';

/** Two leaves of an `$and` group that no request matches together, described; undefined if none is proved (`patternVerdict`: leaves.ts). */
export function contradiction(group: Group, patternVerdict: PatternVerdict = presentVerdict): string | undefined {
  if (group.operator !== '$and') return undefined;
  const leaves = group.children;
  for (let i = 0; i < leaves.length; i++) {
    for (let j = i + 1; j < leaves.length; j++) {
      const a = leaves[i] as Leaf;
      const b = leaves[j] as Leaf;
      if (leavesContradict(a, b, patternVerdict)) return `${describeLeaf(a)} and ${describeLeaf(b)} never hold together`;
    }
  }
  return undefined;
}

/** The conditions can match no request (proved through contradicting groups; `contradictionOf`: `contradiction` or the same remembered). */
export function unsatisfiable(conditions: Conditions, contradictionOf: (group: Group) => string | undefined = contradiction): boolean {
  const dead = conditions.children.map((group) => contradictionOf(group) !== undefined);
  return conditions.operator === '$and' ? dead.some(Boolean) : dead.every(Boolean);
}

/** Why a group matches every request, or undefined when that is not proved (`patternVerdict`: leaves.ts). */
export function catchAll(group: Group, patternVerdict: PatternVerdict = presentVerdict): string | undefined {
  if (group.operator === '$and') {
    return group.children.every(isTautology) ? group.children.map((leaf) => `${describeLeaf(leaf)} matches every request`).join('; ') || 'an empty $and group matches every request' : undefined;
  }
  const always = group.children.find(isTautology);
  if (always !== undefined) return `${describeLeaf(always)} matches every request`;
  for (const leaf of group.children) {
    const opposite = negation(leaf);
    const pair = opposite === undefined ? undefined : group.children.find((other) => other !== leaf && leafImplies(opposite, other, patternVerdict));
    if (pair !== undefined) return `${describeLeaf(leaf)} or ${describeLeaf(pair)} holds for every request`;
  }
  return undefined;
}
