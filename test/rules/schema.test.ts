// Pins the authoring schema: its vocabularies are the model's, it is strict at every level,
// and the per-operator and per-conditionType branches are the contract's (§1).
import { readFileSync } from 'node:fs';
import { schemaValidator } from '../../src/rules/schemas.js';
import {
  ACTIONS, CONDITION_TYPES, FIELD_OPTION_TYPES, GROUP_OPERATORS, LEAF_OPERATORS, LIST_OPERATORS, PRESENCE_OPERATORS, STATUSES,
} from '../../src/semantics/model.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A schema of schemas/ as editors read it. */
const readSchema = (name: 'rules' | 'config'): Json => JSON.parse(readFileSync(new URL(`../../schemas/${name}.schema.json`, import.meta.url), 'utf8')) as Json;

const schema = readSchema('rules') as Json;
const defs = schema.definitions as Json;

/** The `then` of the allOf branch whose `if` selects exactly these values of `key`. */
function branchFor(key: string, values: readonly string[]): Json | undefined {
  const branch = (defs.leaf.allOf as Json[]).find((b) => {
    const selected = b.if?.properties?.[key]?.enum as string[] | undefined;
    return selected !== undefined && [...selected].sort().join() === [...values].sort().join();
  });
  return branch?.then as Json | undefined;
}

describe('schemas/rules.schema.json', () => {
  it('is draft-07 and compiles in ajv strict mode', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(typeof schemaValidator('rules')).toBe('function');
  });

  it('uses the vocabularies of the rule model', () => {
    expect(defs.rule.properties.actions.items.enum).toEqual(ACTIONS);
    expect(defs.rule.properties.status.enum).toEqual(STATUSES);
    expect(defs.conditions.properties.operator.enum).toEqual(GROUP_OPERATORS);
    expect(defs.group.properties.operator.enum).toEqual(GROUP_OPERATORS);
    expect(defs.leaf.properties.operator.enum).toEqual(LEAF_OPERATORS);
    expect(defs.leaf.properties.conditionType.enum).toEqual(CONDITION_TYPES);
  });

  it('rejects unknown keys at the top, keeps fields it does not know in rules, and requires operator at both tree levels', () => {
    expect(schema.additionalProperties).toBe(false);
    // Fields the service stores that botrules does not know are data (docs/behaviour.md, "Unknown fields").
    for (const node of [defs.rule, defs.conditions, defs.group, defs.leaf]) expect(node.additionalProperties).toBe(true);
    expect(defs.leaf.properties.children).toMatchObject({ not: {} });
    expect(schema.required).toEqual(['rules']);
    expect(defs.rule.required).toEqual(['name', 'actions', 'conditions']);
    expect(defs.conditions.required).toEqual(['operator', 'children']);
    expect(defs.group.required).toEqual(['operator', 'children']);
    expect(defs.leaf.required).toEqual(['conditionType', 'operator']);
    expect(defs.conditions.properties.children.items).toEqual({ $ref: '#/definitions/group' });
    expect(defs.group.properties.children.items).toEqual({ $ref: '#/definitions/leaf' });
  });

  it('shapes value per operator: a list (or one string), one string, or nothing', () => {
    const valueOperators = LEAF_OPERATORS.filter((op) => !LIST_OPERATORS.includes(op) && !PRESENCE_OPERATORS.includes(op));
    expect(branchFor('operator', LIST_OPERATORS)).toEqual({
      required: ['value'],
      properties: { value: { type: ['string', 'array'], items: { type: 'string' }, minItems: 1 } },
    });
    expect(branchFor('operator', valueOperators)).toEqual({ required: ['value'], properties: { value: { type: 'string' } } });
    expect(branchFor('operator', PRESENCE_OPERATORS)).toEqual({ properties: { value: false } });
  });

  it('requires fieldOption exactly for queryParam, header and customParam', () => {
    const others = CONDITION_TYPES.filter((t) => !FIELD_OPTION_TYPES.includes(t));
    expect(branchFor('conditionType', FIELD_OPTION_TYPES)).toEqual({ required: ['fieldOption'], properties: { fieldOption: true } });
    expect(branchFor('conditionType', others)).toEqual({ properties: { fieldOption: false } });
  });

  it('marks priority as not allowed, with an explanation editors show', () => {
    expect(defs.rule.properties.priority.not).toEqual({});
    expect(defs.rule.properties.priority.description).toMatch(/Priority is position/);
  });

  it('gives every field a title for editor completion', () => {
    const fields = [defs.rule.properties, defs.leaf.properties, defs.conditions.properties, defs.group.properties];
    for (const properties of fields) {
      for (const [name, field] of Object.entries(properties as Json)) {
        const target = field.$ref ? defs[String(field.$ref).replace('#/definitions/', '')] : field;
        expect([name, typeof target.title]).toEqual([name, 'string']);
      }
    }
  });
});

describe('schemas/config.schema.json', () => {
  const config = readSchema('config') as Json;
  it('is strict and asks for environment variable names, never tokens', () => {
    expect(typeof schemaValidator('config')).toBe('function');
    expect(config.additionalProperties).toBe(false);
    expect(config.definitions.app.additionalProperties).toBe(false);
    expect(Object.keys(config.definitions.app.properties)).toEqual(['name', 'rulesDir', 'tokenEnv', 'unmanaged', 'service', 'maxDeletes', 'maxChanges', 'maxNewlyBlocked']);
    expect(config.definitions.app.properties.tokenEnv.pattern).toBe('^BOTRULES_[A-Z0-9_]+$');
    expect(config.properties.unmanaged.enum).toEqual(['keep', 'pause', 'fail', 'delete']);
  });
});
