// Semantic checks of a rule's own fields.
import type { Problem } from '../../errors.js';
import { ACTIONS, type Action } from '../../semantics/model.js';
import type { Where } from './where.js';

/** `actions` names at least one action, each once (actions are compared as a set). */
export function actionsNonEmptyUnique(actions: readonly Action[], where: Where): Problem[] {
  if (actions.length === 0) return [where.at([], `actions must name at least one of ${ACTIONS.join(', ')}`)];
  return actions.flatMap((action, i) =>
    actions.indexOf(action) < i ? [where.at([i], `duplicate action "${action}" (actions are a set; list each once)`)] : [],
  );
}

/** Priority is position: a `priority` key would suggest a number that the tool ignores. */
export function priorityIsPosition(rule: Readonly<Record<string, unknown>>, where: Where): Problem[] {
  if (!('priority' in rule)) return [];
  return [
    where.at(['priority'], 'priority is not a rule field: the order of rules is their position (files in lexical path order, rules in file order); move the rule instead', { key: true }),
  ];
}
