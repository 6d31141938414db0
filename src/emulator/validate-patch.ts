// Validation of PATCH bodies the way a real service would answer. The shape is
// schemas/patch-body.schema.json, compiled at build time (enums, the two-level tree, value
// shapes); two checks need more than the body and follow it here: the priority range (the
// application's rule count) and that each `$re` pattern compiles. Unknown top-level fields are
// ignored; fields the schema does not check inside `conditions` (a leaf's `caseSensitive`, say)
// are stored as they were sent, as a newer service version would (docs/behaviour.md, "Unknown
// fields"). A failure is one message, sent back as a 400 `{ result: false, message }`.
import type { ErrorObject } from 'ajv';
import { validatePatchBody, validatePostBody } from '../generated/validators.js';
import type { Conditions, Group, Leaf, PatchBody } from '../semantics/model.js';
import { withUnknownFields } from '../semantics/unknown.js';
import { definedFields } from '../defined.js';
import { pointerSegments, readablePathOf as where } from '../io/json-pointer.js';

export class PatchInvalid extends Error {}

/** The checked fields of a body, plus the body's `ruleId` when it sent one. */
interface CheckedPatch extends PatchBody {
  ruleId?: string;
}

/** A body the schema accepted: the known fields have their types; others may be present. */
type AcceptedBody = CheckedPatch & Record<string, unknown>;

/** Checks a parsed PATCH body; throws PatchInvalid with the message for the 400. */
export function checkPatchBody(body: unknown, ruleCount: number): CheckedPatch {
  if (!validatePatchBody(body)) {
    const [first] = validatePatchBody.errors ?? [];
    throw new PatchInvalid(first ? messageOf(first, body) : 'the request body is not a valid update');
  }
  const accepted = body as AcceptedBody;
  if (accepted.priority !== undefined) checkPriorityRange(accepted.priority, ruleCount);
  if (accepted.conditions !== undefined) checkPatterns(accepted.conditions);
  return knownFields(accepted);
}

/**
 * Checks a parsed POST body (a new rule: `--capabilities create`) as strictly as a PATCH body,
 * against schemas/post-body.schema.json: the whole rule, no ruleId, and a priority from 0 to
 * `ruleCount` (list-insert: at the end is allowed). Throws PatchInvalid with the 400's message.
 */
export function checkPostBody(body: unknown, ruleCount: number): CheckedPatch & { name: string } {
  if (body !== null && typeof body === 'object' && 'ruleId' in body) {
    throw new PatchInvalid('a new rule must not carry a ruleId: the service gives it one');
  }
  if (!validatePostBody(body)) {
    const [first] = validatePostBody.errors ?? [];
    throw new PatchInvalid(first ? messageOf(first, body) : 'the request body is not a valid rule');
  }
  const accepted = body as AcceptedBody & { name: string };
  if (accepted.priority !== undefined) checkPriorityRange(accepted.priority, ruleCount + 1);
  if (accepted.conditions !== undefined) checkPatterns(accepted.conditions);
  return { ...knownFields(accepted), name: accepted.name };
}

/** The fields the service updates, in their documented order; the tree keeps its unknown fields. */
function knownFields(body: AcceptedBody): CheckedPatch {
  const { ruleId, name, description, status, actions, conditions, priority } = body;
  return definedFields({ ruleId, name, description, status, actions: actions && [...actions], conditions: conditions && copyTree(conditions), priority });
}

function copyTree(tree: Conditions): Conditions {
  const children = tree.children.map((group: Group) => withUnknownFields({ operator: group.operator, children: group.children.map(copyLeaf) }, group, 'tree'));
  return withUnknownFields({ operator: tree.operator, children }, tree, 'tree');
}

function copyLeaf(leaf: Leaf): Leaf {
  const { conditionType, operator, fieldOption, value } = leaf;
  return withUnknownFields({ conditionType, operator, ...definedFields({ fieldOption, value: Array.isArray(value) ? [...value] : value }) }, leaf, 'leaf');
}

function checkPriorityRange(priority: number, ruleCount: number): void {
  if (priority < 0 || priority > ruleCount - 1) {
    throw new PatchInvalid(`priority ${priority} is out of range: it must be between 0 and ${ruleCount - 1}`);
  }
}

function checkPatterns(tree: Conditions): void {
  tree.children.forEach((group, g) => group.children.forEach((leaf, l) => {
    if (leaf.operator !== '$re' || !Array.isArray(leaf.value)) return;
    for (const pattern of leaf.value) {
      try {
        new RegExp(pattern);
      } catch {
        const where = `conditions.children[${g}].children[${l}].value`;
        throw new PatchInvalid(`${where}: ${JSON.stringify(pattern)} is not a valid regular expression`);
      }
    }
  }));
}

/** The part of the schema an error message is worded from (ajv's `verbose` hands it over). */
interface SchemaPart {
  type?: string;
  enum?: string[];
  pattern?: string;
  items?: SchemaPart;
  properties?: Record<string, SchemaPart>;
  not?: { required?: string[] };
}

/** The 400's message for the first problem ajv found, in the service's words. */
function messageOf(error: ErrorObject, body: unknown): string {
  const path = pointerSegments(error.instancePath);
  const schema = error.parentSchema as SchemaPart;
  switch (error.keyword) {
    case 'required': {
      const field = String((error.params as { missingProperty: string }).missingProperty);
      // The root of a POST body: the whole rule is required, and the schema part says only that.
      if (path.length === 0 && schema.properties === undefined) return `a new rule needs ${field}`;
      return expected(schema.properties?.[field] ?? {}, [...path, field], undefined, body);
    }
    case 'uniqueItems':
      return `${where(path)} must not repeat a value`;
    case 'not':
      return forbidden(schema.not?.required?.[0] ?? '', path, body);
    default:
      return expected(schema, path, error.data, body);
  }
}

/** What the schema part at `path` expects, said of the value found there. */
function expected(schema: SchemaPart, path: string[], value: unknown, body: unknown): string {
  const at = where(path);
  if (schema.enum) return `${at} must be one of ${schema.enum.join(', ')}; got ${JSON.stringify(value)}`;
  switch (schema.type) {
    case 'object':
      return path.length === 0 ? 'the request body must be a JSON object' : `${at} must be an object`;
    case 'array':
      return schema.items?.type === 'string'
        ? `${at} must be a non-empty list of strings for ${String(operatorOf(path.slice(0, -1), body))}`
        : `${at} must be a non-empty list`;
    case 'integer':
      return `${at} must be an integer`;
    case 'string':
      return schema.pattern === undefined ? `${at} must be a string` : `${at} must be a non-empty string`;
    default:
      return `${at} is not valid`;
  }
}

/** The message for a field the leaf at `path` must not carry. */
function forbidden(field: string, path: string[], body: unknown): string {
  const at = where(path);
  if (field === 'children') return `${at}: conditions have exactly two levels; a condition cannot have children`;
  if (field === 'fieldOption') return `${at}.fieldOption is only allowed for queryParam, header and customParam`;
  return `${at}.${field} is not allowed with ${String(operatorOf(path, body))}`;
}

/** The `operator` of the leaf at `path` in the body. */
function operatorOf(path: string[], body: unknown): unknown {
  let node: unknown = body;
  for (const segment of path) node = (node as Record<string, unknown>)[segment];
  return (node as Record<string, unknown>).operator;
}
