// The JSON Schemas of the tool's files, compiled once per process on first use (compiling
// costs milliseconds, so commands that never read a rule file never pay for it). The same
// files in schemas/ are what editors use through `# yaml-language-server: $schema=…`.
import { readFileSync } from 'node:fs';
import AjvModule, { type ValidateFunction } from 'ajv';

// ajv is CommonJS: under Node's ESM loader the default import is module.exports itself.
const Ajv = (AjvModule as unknown as { default?: typeof AjvModule.default }).default ?? (AjvModule as unknown as typeof AjvModule.default);

/** schemas/ sits two levels above this module both in src/rules and in dist/rules. */
const SCHEMAS_DIR = new URL('../../schemas/', import.meta.url);

export type SchemaName = 'rules' | 'config';

let ajv: InstanceType<typeof Ajv> | undefined;
const compiled = new Map<SchemaName, ValidateFunction>();

export function schemaValidator(name: SchemaName): ValidateFunction {
  let validate = compiled.get(name);
  if (!validate) {
    ajv ??= new Ajv({ strict: true, allErrors: true, allowUnionTypes: true, verbose: true });
    validate = ajv.compile(readSchema(name));
    compiled.set(name, validate);
  }
  return validate;
}

export function readSchema(name: SchemaName): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`${name}.schema.json`, SCHEMAS_DIR), 'utf8')) as Record<string, unknown>;
}
