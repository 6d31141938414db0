// Validation of PATCH bodies the way a real service would answer: known fields are checked
// (enums, the two-level tree, value shapes), unknown top-level fields are ignored, and
// fields it does not check inside `conditions` (a leaf's `caseSensitive`, say) are stored as
// they were sent, as a newer service version would (docs/behaviour.md, "Unknown fields").
// A failure is one message, sent back as a 400 `{ result: false, message }`.
import {
  ACTIONS, CONDITION_TYPES, GROUP_OPERATORS, LEAF_OPERATORS, STATUSES,
  isListOperator, isPresenceOperator, needsFieldOption,
  type Action, type Conditions, type Group, type Leaf, type PatchBody,
} from '../rules/model.js';
import { withUnknownFields } from '../semantics/unknown.js';

export class PatchInvalid extends Error {}

/** The checked fields of a body, plus the body's `ruleId` when it sent one. */
export interface CheckedPatch extends PatchBody {
  ruleId?: string;
}

/** Checks a parsed PATCH body; throws PatchInvalid with the message for the 400. */
export function checkPatchBody(body: unknown, ruleCount: number): CheckedPatch {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new PatchInvalid('the request body must be a JSON object');
  }
  const b = body as Record<string, unknown>;
  const patch: CheckedPatch = {};
  if ('ruleId' in b) patch.ruleId = nonEmptyString(b.ruleId, 'ruleId');
  if ('name' in b) patch.name = nonEmptyString(b.name, 'name');
  if ('description' in b) patch.description = string(b.description, 'description');
  if ('status' in b) patch.status = oneOf(b.status, STATUSES, 'status');
  if ('actions' in b) patch.actions = checkActions(b.actions);
  if ('conditions' in b) patch.conditions = checkConditions(b.conditions);
  if ('priority' in b) patch.priority = checkPriority(b.priority, ruleCount);
  return patch;
}

function checkPriority(value: unknown, ruleCount: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new PatchInvalid('priority must be an integer');
  }
  if (value < 0 || value > ruleCount - 1) {
    throw new PatchInvalid(`priority ${value} is out of range: it must be between 0 and ${ruleCount - 1}`);
  }
  return value;
}

function checkActions(value: unknown): Action[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new PatchInvalid('actions must be a non-empty list');
  }
  const actions = value.map((a, i) => oneOf(a, ACTIONS, `actions[${i}]`));
  if (new Set(actions).size !== actions.length) throw new PatchInvalid('actions must not repeat a value');
  return actions;
}

function checkConditions(value: unknown): Conditions {
  const root = object(value, 'conditions');
  const operator = oneOf(root.operator, GROUP_OPERATORS, 'conditions.operator');
  const children = list(root.children, 'conditions.children');
  return withUnknownFields({ operator, children: children.map((g, i) => checkGroup(g, `conditions.children[${i}]`)) }, root, 'tree');
}

function checkGroup(value: unknown, where: string): Group {
  const group = object(value, where);
  const operator = oneOf(group.operator, GROUP_OPERATORS, `${where}.operator`);
  const children = list(group.children, `${where}.children`);
  return withUnknownFields({ operator, children: children.map((leaf, i) => checkLeaf(leaf, `${where}.children[${i}]`)) }, group, 'tree');
}

function checkLeaf(value: unknown, where: string): Leaf {
  const leaf = object(value, where);
  if ('children' in leaf) {
    throw new PatchInvalid(`${where}: conditions have exactly two levels; a condition cannot have children`);
  }
  const operator = oneOf(leaf.operator, LEAF_OPERATORS, `${where}.operator`);
  const conditionType = oneOf(leaf.conditionType, CONDITION_TYPES, `${where}.conditionType`);
  const checked: Leaf = { conditionType, operator };
  if (needsFieldOption(conditionType)) {
    checked.fieldOption = nonEmptyString(leaf.fieldOption, `${where}.fieldOption`);
  } else if (leaf.fieldOption !== undefined) {
    throw new PatchInvalid(`${where}.fieldOption is only allowed for queryParam, header and customParam`);
  }
  if (isPresenceOperator(operator)) {
    if (leaf.value !== undefined) throw new PatchInvalid(`${where}.value is not allowed with ${operator}`);
  } else if (isListOperator(operator)) {
    checked.value = checkListValue(leaf.value, operator, `${where}.value`);
  } else {
    checked.value = nonEmptyString(leaf.value, `${where}.value`);
  }
  return withUnknownFields(checked, leaf, 'leaf');
}

function checkListValue(value: unknown, operator: string, where: string): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new PatchInvalid(`${where} must be a non-empty list of strings for ${operator}`);
  }
  const values = value.map((v, i) => nonEmptyString(v, `${where}[${i}]`));
  if (operator === '$re') {
    for (const pattern of values) {
      try {
        new RegExp(pattern);
      } catch {
        throw new PatchInvalid(`${where}: ${JSON.stringify(pattern)} is not a valid regular expression`);
      }
    }
  }
  return values;
}

function object(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new PatchInvalid(`${where} must be an object`);
  }
  return value as Record<string, unknown>;
}

function list(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value) || value.length === 0) throw new PatchInvalid(`${where} must be a non-empty list`);
  return value;
}

function string(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new PatchInvalid(`${where} must be a string`);
  return value;
}

function nonEmptyString(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new PatchInvalid(`${where} must be a non-empty string`);
  return value;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], where: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new PatchInvalid(`${where} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}`);
  }
  return value as T;
}
