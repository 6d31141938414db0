// The JSON Schemas of the tool's files. Their validators are compiled at build time
// (scripts/build-validators.js writes src/generated/validators.ts), so validating costs no
// ajv import and no compilation at run time. The same files in schemas/ are what editors use
// through `# yaml-language-server: $schema=…`.
import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { validateConfig, validateRules } from '../generated/validators.js';

/** schemas/ sits two levels above this module both in src/rules and in dist/rules. */
const SCHEMAS_DIR = new URL('../../schemas/', import.meta.url);

type SchemaName = 'rules' | 'config';

export function schemaValidator(name: SchemaName): ValidateFunction {
  return name === 'rules' ? validateRules : validateConfig;
}

export function readSchema(name: SchemaName): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`${name}.schema.json`, SCHEMAS_DIR), 'utf8')) as Record<string, unknown>;
}
