// Regions and leaves in words, for reviewers: "path starting "/api/login" and user agent
// containing "python"". Values are quoted as JSON strings but not made safe here: renderers
// pass the whole text through the sanitiser (src/render/sanitise.ts).
import type { Leaf } from '../semantics/model.js';
import { leafValues } from '../semantics/fields.js';

const FIELD_NAMES: Readonly<Record<Leaf['conditionType'], string>> = {
  userAgent: 'user agent', domain: 'domain', socketIps: 'client address', socketIpASN: 'client ASN', path: 'path',
  httpMethod: 'method', deviceType: 'device type', country: 'country', header: 'header', queryParam: 'query parameter', customParam: 'custom parameter',
};

/** What the operator says of the value, and its negation. */
const PHRASES: Readonly<Record<Leaf['operator'], [string, string]>> = {
  $eq: ['equal to', 'not equal to'],
  $ne: ['not equal to', 'equal to'],
  $contains: ['containing', 'not containing'],
  $startsWith: ['starting', 'not starting'],
  $endsWith: ['ending', 'not ending'],
  $notEndsWith: ['not ending', 'ending'],
  $re: ['matching', 'not matching'],
  $in: ['one of', 'none of'],
  $notIn: ['none of', 'one of'],
  $exists: ['present', 'absent'],
  $notExists: ['absent', 'present'],
};

/** Address leaves test whether the client address lies in a range. */
const ADDRESS_PHRASES: Partial<Record<Leaf['operator'], [string, string]>> = {
  $eq: ['in', 'not in'], $in: ['in', 'not in'], $ne: ['not in', 'in'], $notIn: ['not in', 'in'],
};

export function leafPhrase(leaf: Leaf, holds: boolean): string {
  const field = leaf.fieldOption === undefined ? FIELD_NAMES[leaf.conditionType] : `${FIELD_NAMES[leaf.conditionType]} ${JSON.stringify(leaf.fieldOption)}`;
  const phrases = leaf.conditionType === 'socketIps' ? ADDRESS_PHRASES[leaf.operator] ?? PHRASES[leaf.operator] : PHRASES[leaf.operator];
  const phrase = phrases[holds ? 0 : 1];
  if (leaf.value === undefined) return `${field} ${phrase}`;
  const values = leafValues(leaf);
  const written = values.map((value) => JSON.stringify(value)).join(leaf.operator === '$re' ? ' or ' : ', ');
  return `${field} ${phrase} ${written}`;
}

/** The conditions of a region joined with "and"; "every request" when there are none. */
export function regionDescription(constraints: readonly { leaf: Leaf; holds: boolean }[]): string {
  if (constraints.length === 0) return 'every request';
  return `requests with ${constraints.map(({ leaf, holds }) => leafPhrase(leaf, holds)).join(' and ')}`;
}
