// The ways a rule's conditions can match, each a conjunction of leaves: what the region search
// splits on (docs/behaviour.md, "Exhaustive behaviour diff") and what the built-in policies read.
import type { Conditions, Leaf } from '../semantics/model.js';

/** Most ways a rule can match that the search splits on, per rule: more are left unchecked. */
export const MAX_DISJUNCTS = 256;

/**
 * The ways a condition tree can match, each a set of leaves that must all hold (its
 * disjunctive normal form); undefined when there are more than MAX_DISJUNCTS.
 */
export function matchingWays(conditions: Conditions): Leaf[][] | undefined {
  const groupWays = conditions.children.map((group) => (group.operator === '$and' ? [group.children] : group.children.map((leaf) => [leaf])));
  if (conditions.operator === '$or') {
    const ways = groupWays.flat();
    return ways.length > MAX_DISJUNCTS ? undefined : ways;
  }
  let ways: Leaf[][] = [[]];
  for (const options of groupWays) {
    ways = ways.flatMap((way) => options.map((option) => [...way, ...option]));
    if (ways.length > MAX_DISJUNCTS) return undefined;
  }
  return ways;
}
