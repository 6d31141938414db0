// The request a test describes, and how a leaf's condition type reads a field from it
// (docs/evaluation.md, "Fields of a request").
import type { Leaf } from '../semantics/model.js';
import { fieldName, isMapField, requestField } from '../semantics/fields.js';

/** A request as a test file describes it; every field is optional (absent = not carried). */
export interface TestRequest {
  path?: string;
  method?: string;
  userAgent?: string;
  ip?: string;
  asn?: string;
  country?: string;
  domain?: string;
  deviceType?: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  custom?: Record<string, string>;
}

/**
 * The value a leaf tests, or undefined when the request does not carry that field.
 * Header names compare case-insensitively (HTTP says so); query and custom parameter names as written.
 */
export function fieldOf(request: TestRequest, leaf: Leaf): string | undefined {
  const field = requestField(leaf);
  if (field === 'headers') return headerValue(request.headers, fieldName(leaf));
  if (field === 'query' || field === 'custom') return ownValue(request[field], fieldName(leaf));
  return request[field];
}

function headerValue(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined;
  const wanted = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() === wanted) return headers[key];
  }
  return undefined;
}

/** Own keys only: a parameter called "constructor" or "__proto__" is a name like any other. */
function ownValue(record: Record<string, string> | undefined, name: string): string | undefined {
  if (record === undefined || !Object.prototype.hasOwnProperty.call(record, name)) return undefined;
  return record[name];
}

/** A request that carries `value` in the field `leaf` tests. */
export function requestWith(leaf: Leaf, value: string): TestRequest {
  const field = requestField(leaf);
  return isMapField(field) ? { [field]: { [fieldName(leaf)]: value } } : { [field]: value };
}
