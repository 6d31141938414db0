// Proofs that a change to a rule set decides every request as before (docs/evaluation.md,
// "Mutation testing": equivalent mutants are not counted). Built on the leaf relations of
// leaves.ts, which are exact for every request under the assumption that a request carries a
// path (starting with "/") and a method. Test requests need not, so a leaf about the path or the
// method is used only where that assumption plays no part, and nothing is claimed when values
// compare ignoring case (the relations compare as written). Each answer says why, or is
// undefined: not proved.
import { describeLeaf } from '../evaluate/describe.js';
import { MATCH_WHEN_ABSENT } from '../evaluate/leaf.js';
import type { Conditions, Group, Leaf } from '../semantics/model.js';
import { leafImplies, leavesContradict } from './leaves.js';
import { leafValues } from '../semantics/fields.js';
import { rangesDisjoint, rangeWithin } from './ranges.js';

const ASSUMED_CARRIED = new Set<Leaf['conditionType']>(['path', 'httpMethod']);

function usable(leaf: Leaf): boolean {
  return !ASSUMED_CARRIED.has(leaf.conditionType);
}

/**
 * Usable in a proof that two leaves never hold together: besides leaves of other fields, a leaf
 * about the path or method that only a request carrying the field matches (then both leaves are
 * read from a present value, which the relations decide exactly).
 */
function usableForDisjointness(leaf: Leaf): boolean {
  return usable(leaf) || !MATCH_WHEN_ABSENT.has(leaf.operator);
}

/** Leaves every request matching the conditions matches. */
function requiredLeaves(conditions: Conditions): Leaf[] {
  if (conditions.operator !== '$and' && conditions.children.length !== 1) return [];
  return conditions.children.flatMap((group) => (group.operator === '$and' || group.children.length === 1 ? group.children : []));
}

/** Why no request matches both leaves, or undefined. */
function leavesNeverBoth(p: Leaf, q: Leaf): string | undefined {
  if (!usableForDisjointness(p) || !usableForDisjointness(q)) return undefined;
  if (!leavesContradict(p, q) && !addressesApart(p, q)) return undefined;
  return `${describeLeaf(p)} and ${describeLeaf(q)} never hold together`;
}

/** Why no request matching the group matches every leaf of `required`, or undefined. */
function groupExcludes(group: Group, required: readonly Leaf[]): string | undefined {
  const reasons = group.children.map((leaf) => required.map((other) => leavesNeverBoth(leaf, other)).find((reason) => reason !== undefined));
  if (group.operator === '$and' || group.children.length === 1) return reasons.find((reason) => reason !== undefined);
  return reasons.every((reason) => reason !== undefined) ? reasons.join('; ') : undefined;
}

/** Why no request matching `a` matches every leaf of `required`, or undefined. */
function treeExcludes(a: Conditions, required: readonly Leaf[]): string | undefined {
  if (required.length === 0) return undefined;
  const reasons = a.children.map((group) => groupExcludes(group, required));
  if (a.operator === '$and' || a.children.length === 1) return reasons.find((reason) => reason !== undefined);
  return reasons.every((reason) => reason !== undefined) ? reasons.join('; ') : undefined;
}

/** No request matches both condition trees (so two adjacent rules may trade places). */
export function provedDisjoint(a: Conditions, b: Conditions): string | undefined {
  const reason = treeExcludes(a, requiredLeaves(b)) ?? treeExcludes(b, requiredLeaves(a));
  return reason === undefined ? undefined : `no request matches both rules: ${reason}`;
}

/** Address leaves ($eq/$in) whose ranges are pairwise apart, IPv4 against IPv6 included. */
function addressesApart(p: Leaf, q: Leaf): boolean {
  const inside = (leaf: Leaf) => leaf.conditionType === 'socketIps' && (leaf.operator === '$eq' || leaf.operator === '$in');
  if (!inside(p) || !inside(q)) return false;
  return leafValues(p).every((x) => leafValues(q).every((y) => rangesApart(x, y)));
}

/**
 * An IPv6 range outside the IPv4-mapped (::ffff:0:0/96) and IPv4-compatible (::/96) blocks holds
 * no IPv4 address however the service maps one; ranges of one family are compared as they are.
 */
function rangesApart(x: string, y: string): boolean {
  const v6 = (range: string) => range.includes(':');
  if (v6(x) === v6(y)) return rangesDisjoint(x, y);
  const six = v6(x) ? x : y;
  return rangesDisjoint(six, '::ffff:0:0/96') && rangesDisjoint(six, '::/96');
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
