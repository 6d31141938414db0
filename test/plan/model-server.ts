// A model of the service's custom rules for property tests, written independently of the
// planner: PATCH with `priority` removes the rule and inserts it at that index (list-move),
// every other body field replaces the rule's field.
import type { LiveRule, PatchBody } from '../../src/semantics/model.js';

export class ModelServer {
  protected rules: LiveRule[];
  patches = 0;

  constructor(live: readonly LiveRule[]) {
    this.rules = [...live].sort((a, b) => a.priority - b.priority).map((r) => structuredClone(r));
  }

  list(): LiveRule[] {
    return this.rules.map((r, priority) => ({ ...structuredClone(r), priority }));
  }

  patch(ruleId: string, body: PatchBody): void {
    if ('ruleId' in body) throw new Error('ruleId sent in a body');
    this.patches += 1;
    const index = this.rules.findIndex((r) => r.ruleId === ruleId);
    if (index < 0) throw new Error(`no rule ${ruleId}`);
    const { priority, ...fields } = structuredClone(body);
    const [current] = this.rules.splice(index, 1) as [LiveRule];
    const updated = { ...current, ...fields };
    if (priority === undefined) {
      this.rules.splice(index, 0, updated);
    } else {
      if (priority < 0 || priority > this.rules.length) throw new Error(`priority ${priority} out of range`);
      this.rules.splice(priority, 0, updated);
    }
  }
}

/**
 * The same model with the service's create and delete: POST inserts a new rule at
 * `priority` (list-insert; at the end without one) under an id the server makes up; DELETE removes
 * one, the rules below moving up.
 */
export class LifecycleModelServer extends ModelServer {
  posts = 0;
  deletes = 0;
  private nextId = 1;

  post(body: PatchBody): string {
    if ('ruleId' in body) throw new Error('ruleId sent in a POST body');
    const { priority, ...fields } = structuredClone(body);
    for (const field of ['name', 'description', 'status', 'actions', 'conditions'] as const) {
      if (fields[field] === undefined) throw new Error(`POST body without ${field}`);
    }
    const rules = this.rules;
    const at = priority ?? rules.length;
    if (at < 0 || at > rules.length) throw new Error(`priority ${at} out of range for an insert`);
    const ruleId = `srv-${this.nextId++}`;
    rules.splice(at, 0, { ruleId, priority: 0, ...fields } as LiveRule);
    this.posts += 1;
    return ruleId;
  }

  delete(ruleId: string): void {
    const rules = this.rules;
    const index = rules.findIndex((r) => r.ruleId === ruleId);
    if (index < 0) throw new Error(`no rule ${ruleId} to delete`);
    rules.splice(index, 1);
    this.deletes += 1;
  }

  /** Every request: PATCH, POST and DELETE. */
  get requests(): number {
    return this.patches + this.posts + this.deletes;
  }
}

/** Independent canonical form for comparisons in tests: sets sorted, description defaulted. */
export function sameRuleFields(a: Omit<LiveRule, 'ruleId' | 'priority'>, b: Omit<LiveRule, 'ruleId' | 'priority'>): boolean {
  return canonicalText(a) === canonicalText(b);
}

function canonicalText(r: Omit<LiveRule, 'ruleId' | 'priority'>): string {
  const sortUnique = (xs: string[]): string[] => [...new Set(xs)].sort();
  const groups = r.conditions.children.map((g) =>
    JSON.stringify([
      g.operator,
      sortUnique(
        g.children.map((l) =>
          JSON.stringify([l.conditionType, l.operator, l.fieldOption ?? null, typeof l.value === 'string' && ['$in', '$notIn', '$re'].includes(l.operator) ? [l.value] : l.value ?? null]),
        ),
      ),
    ]),
  );
  return JSON.stringify([r.name, r.description ?? '', r.status, sortUnique([...r.actions]), r.conditions.operator, sortUnique(groups)]);
}
