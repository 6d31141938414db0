// The `empty-group` check (docs/evaluation.md, "Rule-set analysis"). Groups of nothing decide
// like every() and some(): an empty `$and` matches every request, an empty `$or` none. Either
// is almost surely a mistake, and the first makes a blocking rule block everything wherever
// the rule stands, so it is reported for every rule, not only when later rules exist.
import type { DeclaredRule, Group } from '../semantics/model.js';

/** One message per empty group of `rule`, or one for a rule with no groups at all. */
export function emptyGroups(rule: DeclaredRule): string[] {
  const name = JSON.stringify(rule.name);
  const { operator, children } = rule.conditions;
  if (children.length === 0) return [`rule ${name} has no condition groups: its ${operator} of nothing ${effect(operator)}`];
  return children.flatMap((group, g) =>
    group.children.length === 0 ? [`group ${g + 1} of rule ${name} is empty: an empty ${group.operator} group ${effect(group.operator)}`] : [],
  );
}

function effect(operator: Group['operator']): string {
  return operator === '$and' ? 'matches every request' : 'matches no request';
}
