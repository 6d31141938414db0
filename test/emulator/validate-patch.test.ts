// The emulator's PATCH check: the compiled schema (schemas/patch-body.schema.json) plus the
// checks it cannot make, worded as the service's 400 messages. Every single and paired mutant
// of valid bodies is either accepted whole or refused with one of those messages, naming a
// place that exists in the body sent (or a field missing from a part that exists).
import { readFileSync } from 'node:fs';
import { checkPatchBody, PatchInvalid } from '../../src/emulator/validate-patch.js';
import { ACTIONS, CONDITION_TYPES, GROUP_OPERATORS, LEAF_OPERATORS, LIST_OPERATORS, PRESENCE_OPERATORS, FIELD_OPTION_TYPES, STATUSES } from '../../src/semantics/model.js';
import { documentsFrom } from '../schemas/mutations.js';
import { patchBodies } from '../schemas/samples.js';

const RULE_COUNT = 3;

/** The message forms; PATH is `name`, `actions[1]`, `conditions.children[0].children[2].value[1]`. */
const PATH = String.raw`([A-Za-z]+(?:\[\d+\]|\.[A-Za-z]+)*)`;
const FORMS: RegExp[] = [
  /^the request body must be a JSON object$/,
  new RegExp(String.raw`^${PATH} must be one of ([^;]+); got (.+)$`),
  new RegExp(String.raw`^${PATH} must be (an object|an integer|a string|a non-empty string|a non-empty list|a non-empty list of strings for \$(?:in|notIn|re))$`),
  new RegExp(String.raw`^${PATH} (must not repeat a value)$`),
  new RegExp(String.raw`^${PATH} is only allowed for queryParam, header and customParam$`),
  new RegExp(String.raw`^${PATH} is not allowed with \$(?:exists|notExists)$`),
  new RegExp(String.raw`^${PATH}: conditions have exactly two levels; a condition cannot have children$`),
  new RegExp(String.raw`^${PATH}: ".*" is not a valid regular expression$`),
  new RegExp(String.raw`^priority -?\d+ is out of range: it must be between 0 and ${RULE_COUNT - 1}$`),
];

/** The value at a message's PATH in the body, and whether its parent part exists. */
function lookUp(body: unknown, path: string): { parentExists: boolean; value: unknown } {
  const steps = path.split(/\.|(?=\[)/).map((s) => (s.startsWith('[') ? Number(s.slice(1, -1)) : s));
  let node: unknown = body;
  for (const [i, step] of steps.entries()) {
    if (node === null || typeof node !== 'object') return { parentExists: false, value: undefined };
    if (i === steps.length - 1) return { parentExists: true, value: (node as Record<string | number, unknown>)[step] };
    node = (node as Record<string | number, unknown>)[step];
  }
  return { parentExists: true, value: node };
}

/** Whether what a message claims of a value holds: the value there really breaks the rule it names. */
function isTrueOf(claim: string, got: string | undefined, value: unknown): boolean {
  if (got !== undefined) return got === String(JSON.stringify(value)) && !claim.split(', ').includes(value as string);
  if (claim === 'must not repeat a value') return Array.isArray(value) && new Set(value).size < value.length;
  if (claim === 'an object') return value === null || typeof value !== 'object' || Array.isArray(value);
  if (claim === 'an integer') return !Number.isInteger(value);
  if (claim === 'a string') return typeof value !== 'string';
  if (claim === 'a non-empty string') return typeof value !== 'string' || value.trim() === '';
  return !Array.isArray(value) || value.length === 0;
}

function refusal(body: unknown): string | undefined {
  try {
    checkPatchBody(body, RULE_COUNT);
    return undefined;
  } catch (err) {
    if (!(err instanceof PatchInvalid)) throw err;
    return err.message;
  }
}

test('every mutant of a valid body is accepted or refused with a message that names a real place', () => {
  const problems: string[] = [];
  let refused = 0;
  let total = 0;
  for (const sample of patchBodies) {
    for (const { label, value } of documentsFrom(sample)) {
      total += 1;
      const message = refusal(value);
      if (message === undefined) continue;
      refused += 1;
      const form = FORMS.map((f) => f.exec(message)).find((m) => m !== null);
      if (!form) {
        problems.push(`${label}: ${message}`);
        continue;
      }
      const [, path, claim, got] = form;
      if (path === undefined) continue;
      const found = lookUp(value, path);
      if (!found.parentExists) problems.push(`${label}: ${message} (no such place)`);
      if (claim !== undefined && !isTrueOf(claim, got, found.value)) problems.push(`${label}: ${message} (but the value there is ${JSON.stringify(found.value)})`);
    }
  }
  expect(problems.slice(0, 5)).toEqual([]);
  expect(refused).toBeGreaterThan(total / 2);
  expect(refused).toBeLessThan(total);
});

test('an accepted body is stored as sent: known top-level fields, and every field inside the tree', () => {
  const [full] = patchBodies as [Record<string, unknown>];
  expect(checkPatchBody(structuredClone(full), RULE_COUNT)).toEqual(full);
  expect(checkPatchBody({ status: 'active', unknownTopLevel: { kept: false } }, RULE_COUNT)).toEqual({ status: 'active' });
});

test('a field named __proto__ inside the tree stays a field', () => {
  const leaf = JSON.parse('{"conditionType":"path","operator":"$eq","value":"/","__proto__":{"polluted":true}}') as object;
  const patch = checkPatchBody({ conditions: { operator: '$or', children: [{ operator: '$and', children: [leaf] }] } }, RULE_COUNT);
  const stored: object | undefined = patch.conditions?.children[0]?.children[0];
  expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
  expect(Object.prototype.hasOwnProperty.call(stored, '__proto__')).toBe(true);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

test("the schema's lists are the rule model's", () => {
  const schema = JSON.parse(readFileSync(new URL('../../schemas/patch-body.schema.json', import.meta.url), 'utf8')) as {
    properties: Record<string, { enum?: string[]; items?: { enum: string[] } }>;
    definitions: { tree: { properties: { operator: { enum: string[] } } }; leaf: { allOf: [
      { properties: { operator: { enum: string[] }; conditionType: { enum: string[] } } },
      { if: { properties: { conditionType: { enum: string[] } } } },
      { if: { properties: { operator: { enum: string[] } } }; else: { if: { properties: { operator: { enum: string[] } } } } },
    ] } };
  };
  const [kinds, fieldOption, value] = schema.definitions.leaf.allOf;
  expect(schema.properties.status?.enum).toEqual([...STATUSES]);
  expect(schema.properties.actions?.items?.enum).toEqual([...ACTIONS]);
  expect(schema.definitions.tree.properties.operator.enum).toEqual([...GROUP_OPERATORS]);
  expect(kinds.properties.operator.enum).toEqual([...LEAF_OPERATORS]);
  expect(kinds.properties.conditionType.enum).toEqual([...CONDITION_TYPES]);
  expect(fieldOption.if.properties.conditionType.enum).toEqual([...FIELD_OPTION_TYPES]);
  expect(value.if.properties.operator.enum).toEqual([...PRESENCE_OPERATORS]);
  expect(value.else.if.properties.operator.enum).toEqual([...LIST_OPERATORS]);
});
