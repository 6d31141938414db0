// The JSON Schemas of the tool's files. Their validators are compiled at build time
// (scripts/build-validators.js writes src/generated/validators.ts), so validating costs no
// ajv import and no compilation at run time. The same files in schemas/ are what editors use
// through `# yaml-language-server: $schema=…`.
import type { ValidateFunction } from 'ajv';
import { validateConfig, validateRules } from '../generated/validators.js';

type SchemaName = 'rules' | 'config';

export function schemaValidator(name: SchemaName): ValidateFunction {
  return name === 'rules' ? validateRules : validateConfig;
}
