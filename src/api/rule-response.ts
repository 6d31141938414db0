// Checks the custom-rule answers against schemas/api-rules-response.schema.json before
// anything reads them, so a surprising answer is a clear RemoteError rather than a crash.
// Its listEnvelope and updateEnvelope definitions are compiled at build time
// (scripts/build-validators.js), so checking an answer needs no ajv at run time.
import type { ErrorObject } from 'ajv';
import { RemoteError } from '../errors.js';
import { validateListEnvelope, validateUpdateEnvelope } from '../generated/validators.js';
import { pointerSegments, readablePath, valueAt } from '../io/json-pointer.js';
import type { LooseRule } from '../semantics/normalise.js';

/**
 * A customRule as the schema guarantees it (docs/service-api.md, "Custom rule"): the loose rule
 * the normaliser reads, every field of its tree optional as api.md makes them, and its ruleId.
 */
export type ApiRule = LooseRule & { ruleId?: string };

interface ApiEnvelope<T> {
  result?: boolean;
  message?: string;
  content?: T;
}

export function validateListAnswer(body: unknown, operation: string): ApiEnvelope<ApiRule[]> {
  if (!validateListEnvelope(body)) throw malformedAnswer('a rule list', body, validateListEnvelope.errors, operation);
  return body as ApiEnvelope<ApiRule[]>;
}

export function validateUpdateAnswer(body: unknown, operation: string): ApiEnvelope<ApiRule> {
  if (!validateUpdateEnvelope(body)) throw malformedAnswer('an updated rule', body, validateUpdateEnvelope.errors, operation);
  return body as ApiEnvelope<ApiRule>;
}

/** "the service returned a rule list botrules does not understand: content[3].actions[0] is not one of …" */
function malformedAnswer(what: string, body: unknown, errors: ErrorObject[] | null | undefined, operation: string): RemoteError {
  const first = errors?.[0];
  const problem = first ? describeSchemaError(first, body) : 'its shape is not the documented one';
  return new RemoteError(`the service returned ${what} botrules does not understand: ${problem}`, { operation });
}

function describeSchemaError(error: ErrorObject, body: unknown): string {
  const path = readablePath(error.instancePath);
  const subject = path === '' ? 'the answer' : path;
  const rule = ruleNameAt(error.instancePath, body);
  const where = rule ? `${subject} (rule "${rule}")` : subject;
  const found = excerpt(valueAt(body, pointerSegments(error.instancePath)));
  switch (error.keyword) {
    case 'required':
      return `${where} has no ${String(error.params.missingProperty)}`;
    case 'enum':
      return `${where} is not one of ${(error.params.allowedValues as unknown[]).join(', ')} (it is ${found})`;
    case 'type':
      return `${where} is not ${typeNames(String(error.params.type))} (it is ${found})`;
    default:
      return `${where} ${error.message ?? 'is not valid'} (it is ${found})`;
  }
}

function typeNames(types: string): string {
  const names: Record<string, string> = {
    string: 'a string', array: 'a list', object: 'an object', integer: 'an integer', boolean: 'true or false', number: 'a number',
  };
  return types.split(',').map((t) => names[t] ?? t).join(' or ');
}

/** The name of the rule a pointer falls in, when it can be read, for a message a human can place. */
function ruleNameAt(pointer: string, body: unknown): string | undefined {
  const match = /^\/content(\/\d+)?/.exec(pointer);
  if (!match) return undefined;
  const rule = valueAt(body, pointerSegments(match[0]));
  const name = rule && typeof rule === 'object' ? (rule as Record<string, unknown>).name : undefined;
  return typeof name === 'string' ? name.slice(0, 80) : undefined;
}

function excerpt(value: unknown): string {
  if (value === undefined) return 'missing';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
