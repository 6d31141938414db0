// Small builders for rules in planner tests.
import type { Conditions, DeclaredRule, LiveRule, NormalRule, Rule } from '../../src/semantics/model.js';
import { declared, live, normal } from '../helpers/rules.js';

export function conditionsFor(agent: string): Conditions {
  return {
    operator: '$or',
    children: [
      {
        operator: '$and',
        children: [
          { conditionType: 'userAgent', operator: '$contains', value: agent },
          { conditionType: 'socketIps', operator: '$in', value: ['203.0.113.0/24'] },
        ],
      },
    ],
  };
}

/** A rule in normal form (through the rule-file normaliser), `overrides` written as a file would. */
export function rule(name: string, overrides: Partial<Rule> = {}): NormalRule {
  return normal({
    name,
    description: '',
    status: 'active',
    actions: ['hardBlock'],
    conditions: conditionsFor(name),
    ...overrides,
  });
}

export function idOf(name: string): string {
  return `id-${name}`;
}

/** Live rules in the given order, ids derived from names. */
export function liveRules(rules: readonly Rule[]): LiveRule[] {
  return rules.map((r, priority) => live({ ...structuredClone(r), ruleId: r.ruleId ?? idOf(r.name) }, priority));
}

/** Declared rules in the given order, one file, one rule every 10 lines; no ruleId unless given. */
export function declaredRules(rules: readonly Rule[], file = 'rules/10-main.yaml'): DeclaredRule[] {
  return rules.map((r, index) => declared({ ...structuredClone(r), source: { file, line: index * 10 + 2, col: 5 } }));
}

/** A declared copy of live rules (same order, same fields, matched by name). */
export function declaredFromLive(live: readonly LiveRule[]): DeclaredRule[] {
  return declaredRules(live.map(({ ruleId: _id, priority: _p, ...fields }) => fields));
}
