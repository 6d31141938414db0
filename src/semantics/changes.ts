// What changes when a live rule is made to say what a declared rule says: each changed
// top-level field with its live value and the value sent, the PATCH body that sends exactly
// those values, and the unknown fields that sending them would remove (docs/behaviour.md,
// "Plan semantics", "Unknown fields").
import { changedFields, leafKey, RULE_FIELDS, type RuleField } from './canonical.js';
import type { PatchBody, NormalRule } from './model.js';
import { carryUnknownFields, type UnknownFieldDrop } from './unknown.js';

/** One changed rule field: the live value and the value the step sends. */
export type FieldChange = { [F in RuleField]: { field: F; before: NormalRule[F]; after: NormalRule[F] } }[RuleField];

interface RuleChanges {
  /** In RULE_FIELDS order; empty when the rules mean the same. */
  changes: FieldChange[];
  /** Only the changed fields (`conditions` whole when any part of it changed). */
  body: PatchBody;
  /** Unknown fields of live parts the body replaces; empty unless `conditions` changes. */
  drops: UnknownFieldDrop[];
}

/**
 * The changes that make `live` say what `declared` says. `fields` are the changed fields
 * when the caller already knows them (changedFields). A changed `conditions` is sent whole,
 * carrying every unknown field of a live part that stays (unknown.ts).
 */
export function ruleChanges(live: NormalRule, declared: NormalRule, fields: readonly RuleField[] = changedFields(live, declared)): RuleChanges {
  const result: RuleChanges = { changes: [], body: {}, drops: [] };
  for (const field of RULE_FIELDS) {
    if (!fields.includes(field)) continue;
    if (field === 'conditions') {
      const carried = carryUnknownFields(declared.conditions, live.conditions, leafKey);
      result.body.conditions = carried.conditions;
      result.drops = carried.drops;
      result.changes.push({ field, before: structuredClone(live.conditions), after: structuredClone(carried.conditions) });
    } else if (field === 'actions') {
      result.body.actions = [...declared.actions];
      result.changes.push({ field, before: [...live.actions], after: [...declared.actions] });
    } else {
      const change = { field, before: live[field], after: declared[field] } as FieldChange;
      (result.body as Record<string, unknown>)[field] = declared[field];
      result.changes.push(change);
    }
  }
  return result;
}
