// Proofs that a change to a rule set decides every request as before (docs/evaluation.md,
// "Mutation testing": equivalent mutants are not counted). Built on the leaf relations of
// leaves.ts, which are exact for every request under the assumption that a request carries a
// path and a method. Test requests need not, so leaves about the path or the method are never
// used here, and nothing is claimed when values compare ignoring case (the relations compare
// as written). Each answer says why, or is undefined: not proved.
import { describeLeaf } from '../evaluate/index.js';
import type { Conditions, Group, Leaf } from '../rules/model.js';
import { leafImplies, leavesContradict } from './leaves.js';
import { rangeWithin } from './ranges.js';

const ASSUMED_CARRIED = new Set<Leaf['conditionType']>(['path', 'httpMethod']);

function usable(leaf: Leaf): boolean {
  return !ASSUMED_CARRIED.has(leaf.conditionType);
}

/** Leaves every request matching the conditions matches. */
function requiredLeaves(conditions: Conditions): Leaf[] {
  if (conditions.operator !== '$and' && conditions.children.length !== 1) return [];
  return conditions.children.flatMap((group) => (group.operator === '$and' || group.children.length === 1 ? group.children : []));
}

/** No request matches both condition trees (so two adjacent rules may trade places). */
export function provedDisjoint(a: Conditions, b: Conditions): string | undefined {
  const right = requiredLeaves(b).filter(usable);
  for (const p of requiredLeaves(a).filter(usable)) {
    const q = right.find((leaf) => leavesContradict(p, leaf));
    if (q !== undefined) return `no request matches both rules: ${describeLeaf(p)} and ${describeLeaf(q)} never hold together`;
  }
  return undefined;
}

/**
 * Leaf `l` of the group adds nothing: in an `$and` group another leaf implies it, in an `$or`
 * group it implies another leaf (so dropping it changes no request's outcome).
 */
export function redundantLeaf(group: Group, l: number): string | undefined {
  const leaf = group.children[l];
  if (leaf === undefined || !usable(leaf)) return undefined;
  const others = group.children.filter((other, i) => i !== l && usable(other));
  const witness = group.operator === '$and' ? others.find((other) => leafImplies(other, leaf)) : others.find((other) => leafImplies(leaf, other));
  if (witness === undefined) return undefined;
  return group.operator === '$and'
    ? `${describeLeaf(witness)} implies ${describeLeaf(leaf)} in the same $and group`
    : `${describeLeaf(leaf)} implies ${describeLeaf(witness)} in the same $or group`;
}

/** A range of an address list changed within another range of the same list: the list covers the same addresses. */
export function sameAddresses(list: readonly string[], before: string, after: string): string | undefined {
  const outer = list.find((other) => other !== before && rangeWithin(before, other) && rangeWithin(after, other));
  return outer === undefined ? undefined : `${before} and ${after} both lie within ${outer}, also in the list`;
}
