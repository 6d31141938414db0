// What the live rules become when steps run on a list-move server (docs/behaviour.md, "Plan semantics"): the rule
// leaves its index, the others close the gap, and it is inserted at the index it is sent;
// a body without `priority` changes fields only.
import { UserError } from '../errors.js';
import type { LiveRule } from '../rules/model.js';
import { inPriorityOrder } from './fingerprint.js';
import type { PlanStep } from './types.js';

export function simulateSteps(live: readonly LiveRule[], steps: readonly PlanStep[]): LiveRule[] {
  const list = inPriorityOrder(live).map((rule) => ({ ...rule }));
  for (const step of steps) {
    const index = list.findIndex((rule) => rule.ruleId === step.ruleId);
    if (index < 0) {
      throw new UserError(`the plan updates rule "${step.name}" (${step.ruleId}), which is not in the live rules`);
    }
    const { priority, ...fields } = step.body;
    const [rule] = list.splice(index, 1) as [LiveRule];
    const target = priority === undefined ? index : Math.min(Math.max(priority, 0), list.length);
    list.splice(target, 0, { ...rule, ...structuredClone(fields) });
  }
  return list.map((rule, priority) => ({ ...rule, priority }));
}
