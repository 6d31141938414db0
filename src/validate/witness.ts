// Example requests that match given conditions, built from the leaves' own values and kept
// only when the evaluator confirms they match: a finding that says "for example …" names a
// request that really behaves so.
import { requestWith, type TestRequest } from '../evaluate/request.js';
import type { Conditions, Group, Leaf } from '../semantics/model.js';
import { fieldName, leafValues, requestField } from '../semantics/fields.js';
import type { Verdicts } from './verdicts.js';

/** Candidate requests are combined per group; this many at most at each step keeps it linear. */
const MAX_CANDIDATES = 16;

/** Every request has a path and a method (docs/evaluation.md, "Rule-set analysis"). */
export const BASE: TestRequest = { path: '/', method: 'GET' };

/** Candidate requests satisfying both condition trees (unverified: check them with the evaluator). */
export function candidatesForBoth(a: Conditions, b: Conditions): TestRequest[] {
  return merged(candidates(a), candidates(b)).map((request) => ({ ...BASE, ...request }));
}

/**
 * The first of `candidatesForBoth(a, b)` that both trees match, given each tree's own
 * `candidates` (worked out once per rule rather than once per pair), building no more
 * requests than it tries.
 */
export function firstCommonExample(a: Conditions, aCandidates: readonly TestRequest[], b: Conditions, bCandidates: readonly TestRequest[], verdicts: Verdicts): TestRequest | undefined {
  let tried = 0;
  for (const left of aCandidates) {
    for (const right of bCandidates) {
      // Read the fields of the merged request without building it: most pairs do not match.
      const field = (leaf: Leaf) => mergedField(leaf, left, right);
      if (verdicts.conditions(a, field) && verdicts.conditions(b, field)) return { ...BASE, ...mergeTwo(left, right) };
      if (++tried >= MAX_CANDIDATES) return undefined;
    }
  }
  return undefined;
}

/** `fieldOf({ ...BASE, ...mergeTwo(a, b) }, leaf)`, reading only the field the leaf tests, building nothing. */
export function mergedField(leaf: Leaf, a: TestRequest, b: TestRequest): string | undefined {
  const key = requestField(leaf);
  if (key === 'headers') return mergedHeader(a.headers, b.headers, fieldName(leaf).toLowerCase());
  if (key === 'query' || key === 'custom') {
    const name = fieldName(leaf);
    const from = hasOwnName(a[key], name) ? a[key] : hasOwnName(b[key], name) ? b[key] : undefined;
    return from?.[name];
  }
  const from = Object.hasOwn(a, key) ? a : Object.hasOwn(b, key) ? b : BASE;
  return from[key];
}

function hasOwnName(record: Record<string, string> | undefined, name: string): record is Record<string, string> {
  return record !== undefined && Object.hasOwn(record, name);
}

/**
 * The header `wanted` (lower case) of `{ ...b, ...a }` as fieldOf reads it: the first name in
 * that object's order (b's names, then a's new ones) equal to `wanted` ignoring case, with a's
 * value when a has that exact name too.
 */
function mergedHeader(a: Record<string, string> | undefined, b: Record<string, string> | undefined, wanted: string): string | undefined {
  if (b !== undefined) {
    for (const name of Object.keys(b)) {
      if (name.toLowerCase() === wanted) return a !== undefined && Object.hasOwn(a, name) ? a[name] : b[name];
    }
  }
  if (a !== undefined) {
    for (const name of Object.keys(a)) {
      if ((b === undefined || !Object.hasOwn(b, name)) && name.toLowerCase() === wanted) return a[name];
    }
  }
  return undefined;
}

/** How `candidates` builds its parts: directly, or remembered (overlaps.ts). */
export interface CandidateParts {
  ofGroup(group: Group): readonly TestRequest[];
  merged(left: readonly TestRequest[], right: readonly TestRequest[]): readonly TestRequest[];
}

const DIRECT: CandidateParts = { ofGroup: groupCandidates, merged };

/** The requests an `$and` starts merging from: one list, so that remembered merges can recognise it. */
const NOTHING_YET: readonly TestRequest[] = [{}];

/**
 * Requests built from the leaves' values, to be combined with another tree's (before BASE is
 * added). `parts`: the candidates of a group and the merge of two lists, or the same
 * remembered per (interned) group and per pair of lists, so that trees starting with the same
 * groups share their merges.
 */
export function candidates(conditions: Conditions, parts: CandidateParts = DIRECT): readonly TestRequest[] {
  const perGroup = conditions.children.map((group) => parts.ofGroup(group));
  return conditions.operator === '$and' ? perGroup.reduce((left, right) => parts.merged(left, right), NOTHING_YET) : perGroup.flat().slice(0, MAX_CANDIDATES);
}

/** The candidates of one group (requests are never changed once built, so they can be shared). */
export function groupCandidates(group: Group): TestRequest[] {
  return group.operator === '$and' ? group.children.map(leafCandidates).reduce(merged, [{}]) : group.children.flatMap(leafCandidates);
}

function leafCandidates(leaf: Leaf): TestRequest[] {
  const values = leafValues(leaf);
  switch (leaf.operator) {
    case '$eq': case '$in': case '$startsWith': case '$endsWith': case '$contains':
      return values.slice(0, 4).map((value) => requestWith(leaf, leaf.conditionType === 'socketIps' ? (value.split('/')[0] ?? value) : value));
    case '$exists': return [requestWith(leaf, leaf.conditionType === 'path' ? '/' : 'x')];
    default: return [{}];
  }
}

/** Every pair of candidates merged (fields of both), up to MAX_CANDIDATES. */
export function merged(left: readonly TestRequest[], right: readonly TestRequest[]): TestRequest[] {
  const out: TestRequest[] = [];
  for (const a of left) {
    for (const b of right) {
      out.push(mergeTwo(a, b));
      if (out.length >= MAX_CANDIDATES) return out;
    }
  }
  return out;
}

function mergeTwo(a: TestRequest, b: TestRequest): TestRequest {
  return {
    ...b, ...a,
    headers: { ...b.headers, ...a.headers }, query: { ...b.query, ...a.query }, custom: { ...b.custom, ...a.custom },
  };
}

/** A request in a few words, for messages. */
export function describeRequest(request: TestRequest): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(request)) {
    if (typeof value === 'string') parts.push(`${key} ${JSON.stringify(value)}`);
    else if (value !== undefined) for (const [name, text] of Object.entries(value as Record<string, string>)) parts.push(`${key.replace(/s$/, '')} ${JSON.stringify(name)}: ${JSON.stringify(text)}`);
  }
  return parts.join(', ');
}
