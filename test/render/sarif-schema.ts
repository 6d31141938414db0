// The SARIF 2.1.0 JSON Schema (draft-04, kept unchanged in test/fixtures/sarif), compiled once.
import { readFileSync } from 'node:fs';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';

const schema = JSON.parse(readFileSync(new URL('../fixtures/sarif/sarif-schema-2.1.0.json', import.meta.url), 'utf8')) as object;
const ajv = new Ajv04({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

/** The schema's complaints about `log`, as readable lines; [] when it is valid SARIF. */
export function sarifSchemaErrors(log: unknown): string[] {
  return validate(log) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
}
