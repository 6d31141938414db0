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
  // A switch of constant property reads, not `request[requestField(leaf)]`: replay reads a field
  // per leaf per request, and the keyed read costs twice as much. It reads the field of
  // semantics/fields.ts' one table (requestWith builds the request from that table, and
  // test/evaluate/program-verdicts.property.test.ts checks that each reads what the other wrote).
  switch (leaf.conditionType) {
    case 'userAgent': return request.userAgent;
    case 'domain': return request.domain;
    case 'socketIps': return request.ip;
    case 'socketIpASN': return request.asn;
    case 'path': return request.path;
    case 'httpMethod': return request.method;
    case 'deviceType': return request.deviceType;
    case 'country': return request.country;
    case 'header': return headerValue(request.headers, fieldName(leaf));
    case 'queryParam': return ownValue(request.query, fieldName(leaf));
    case 'customParam': return ownValue(request.custom, fieldName(leaf));
  }
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
