// The PATCH units an order search moves to close a window (search.ts): only those of
// rules that can match a request of an open class. Every request of a class is decided by the
// same rule at the start and at the end (both protect it), so a rule that can match none of
// them requires values of some field disjoint from both (required-values.ts); sending its PATCH
// earlier or later changes nothing for the class, and it keeps its slot in the planner's order.
import type { LiveRule, NormalRule } from '../../semantics/model.js';
import type { Region } from '../regions.js';
import { disjoint, requiredValues } from '../required-values.js';

/** Rule ids of the rules (at the start or the end) that can match a request of an open class. */
export function rulesNear(open: readonly Region[], start: readonly LiveRule[], final: readonly LiveRule[]): Set<string> {
  const deciding = new Set<string>();
  for (const region of open) {
    for (const outcome of [region.outcomes[0], region.outcomes[region.outcomes.length - 1]]) {
      if (outcome !== undefined && 'rule' in outcome && outcome.rule !== undefined) deciding.add(outcome.rule);
    }
  }
  const decidingRules = [...start, ...final].filter((rule) => deciding.has(rule.name)).map((rule: NormalRule) => requiredValues(rule.conditions));
  const near = new Set<string>();
  for (const rule of [...start, ...final]) {
    const required = requiredValues(rule.conditions);
    if (decidingRules.some((other) => !disjoint(required, other))) near.add(rule.ruleId);
  }
  return near;
}
