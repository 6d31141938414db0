// What a leaf in normal form (normalise.ts) reads and compares with, for every part of the tool
// that decides or reasons about requests: the evaluator, the analysis, coverage and mutation,
// replay's compiled rule set. The normal form leaves `fieldOption` out for condition types
// without a named field and `value` out for presence operators; these readers say once what
// that means, so no consumer fills in a default of its own (`?? ''`, `?? []`).
import type { ConditionType, Leaf } from './model.js';

const NO_VALUES: readonly string[] = Object.freeze([]);

/**
 * The leaf's values as a list: a list operator's list, a scalar operator's one string (or the
 * several it was written with, which the normal form keeps so a plan shows them), none for
 * presence operators.
 */
export function leafValues(leaf: Leaf): readonly string[] {
  const value = leaf.value;
  if (value === undefined) return NO_VALUES;
  return typeof value === 'string' ? [value] : value;
}

/** The value a scalar operator compares with: its first value ('' when it has none). */
export function firstValue(leaf: Leaf): string {
  // Not leafValues(leaf)[0]: that makes a list of a scalar's one string, at every call.
  const value = leaf.value;
  if (value === undefined) return '';
  return typeof value === 'string' ? value : (value[0] ?? '');
}

/** The name of the header, query or custom parameter the leaf reads ('' for the other condition types). */
export function fieldName(leaf: Leaf): string {
  return leaf.fieldOption ?? '';
}

/** Header names compare ignoring case (HTTP says so); query and custom parameter names as written. */
export function sameFieldName(leaf: Leaf, name: string): boolean {
  return leaf.conditionType === 'header' ? name.toLowerCase() === fieldName(leaf).toLowerCase() : name === fieldName(leaf);
}

/** The fields of a request, by their names in logs, tests and SQL tables (docs/evaluation.md, "Fields of a request"): text fields, then maps of named values. */
export const TEXT_FIELDS = ['path', 'method', 'userAgent', 'ip', 'asn', 'country', 'domain', 'deviceType'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];
export const MAP_FIELDS = ['headers', 'query', 'custom'] as const;
export type MapField = (typeof MAP_FIELDS)[number];
export const REQUEST_FIELDS = [...TEXT_FIELDS, ...MAP_FIELDS] as const;
export type RequestField = (typeof REQUEST_FIELDS)[number];

/** The one table of which request field each condition type reads. */
const FIELD_OF_TYPE: Readonly<Record<ConditionType, RequestField>> = {
  userAgent: 'userAgent', domain: 'domain', socketIps: 'ip', socketIpASN: 'asn', path: 'path', httpMethod: 'method',
  deviceType: 'deviceType', country: 'country', header: 'headers', queryParam: 'query', customParam: 'custom',
};

/** The request field a leaf reads (a map field for headers, query and custom parameters, named by fieldName). */
export function requestField(leaf: Pick<Leaf, 'conditionType'>): RequestField {
  return FIELD_OF_TYPE[leaf.conditionType];
}

export function isMapField(field: RequestField): field is MapField {
  return field === 'headers' || field === 'query' || field === 'custom';
}

const fieldKeys = new WeakMap<Leaf, string>();

/**
 * The field a leaf reads, as a key: equal exactly for leaves that read the same field of a
 * request (header names ignoring case). Remembered per leaf object: the analysis asks it for
 * every pair of leaves it compares.
 */
export function fieldKey(leaf: Leaf): string {
  let key = fieldKeys.get(leaf);
  if (key === undefined) fieldKeys.set(leaf, (key = requestFieldKey(requestField(leaf), fieldName(leaf))));
  return key;
}

/** The fieldKey of the leaves that read `field` (for a map field, its value named `name`). */
export function requestFieldKey(field: RequestField, name = ''): string {
  return `${field}\u0000${field === 'headers' ? name.toLowerCase() : name}`;
}
