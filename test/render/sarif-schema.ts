// The SARIF 2.1.0 JSON Schema (draft-04, kept unchanged in test/fixtures/sarif), compiled once.
import { readFileSync } from 'node:fs';
import ajvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import type { ErrorObject } from 'ajv';

// Both are CommonJS and also export themselves as `default`, which is what TypeScript sees.
const Ajv04 = ajvDraft04.default;
const addFormats = ajvFormats.default;

const schema = JSON.parse(readFileSync(new URL('../fixtures/sarif/sarif-schema-2.1.0.json', import.meta.url), 'utf8')) as object;
const ajv = new Ajv04({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

/** The schema's complaints about `log`, as readable lines; [] when it is valid SARIF. */
export function sarifSchemaErrors(log: unknown): string[] {
  return validate(log) ? [] : (validate.errors ?? []).map((error: ErrorObject) => `${error.instancePath} ${error.message ?? ''}`);
}
