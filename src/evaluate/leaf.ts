// Whether one leaf condition matches a request, under the semantics the tool assumes
// (docs/evaluation.md, "Operators"). Pure: no I/O, no state other than compiled caches.
import { BlockList, isIP } from 'node:net';
import type { Leaf } from '../rules/model.js';
import { fieldOf, type TestRequest } from './request.js';

export interface EvaluationOptions {
  /** Compare values (not header names, which always compare case-insensitively) ignoring case. */
  caseInsensitiveValues?: boolean;
}

/** Operators that can match a field the request does not carry (docs/evaluation.md, "Absent fields"). */
export const MATCH_WHEN_ABSENT: ReadonlySet<Leaf['operator']> = new Set(['$notExists', '$ne', '$notIn', '$notEndsWith']);

export function leafMatches(leaf: Leaf, request: TestRequest, options: EvaluationOptions = {}): boolean {
  const field = fieldOf(request, leaf);
  if (field === undefined) return MATCH_WHEN_ABSENT.has(leaf.operator);
  const fold = options.caseInsensitiveValues === true ? (text: string) => text.toLowerCase() : (text: string) => text;
  const actual = fold(field);
  const one = fold(typeof leaf.value === 'string' ? leaf.value : (leaf.value?.[0] ?? ''));
  const written = Array.isArray(leaf.value) ? leaf.value : leaf.value === undefined ? [] : [leaf.value];
  const list = written.map(fold);
  const isAddress = leaf.conditionType === 'socketIps';
  switch (leaf.operator) {
    case '$exists': return true;
    case '$notExists': return false;
    case '$eq': return isAddress ? inRanges(field, [one]) : actual === one;
    case '$ne': return isAddress ? !inRanges(field, [one]) : actual !== one;
    case '$contains': return actual.includes(one);
    case '$startsWith': return actual.startsWith(one);
    case '$endsWith': return actual.endsWith(one);
    case '$notEndsWith': return !actual.endsWith(one);
    case '$re': return written.some((source) => regex(source, options).test(field));
    case '$in': return isAddress ? inRanges(field, list) : list.includes(actual);
    case '$notIn': return isAddress ? !inRanges(field, list) : !list.includes(actual);
  }
}

const compiledRegexes = new Map<string, RegExp>();

/** A rule's pattern as JavaScript compiles it; a pattern that does not compile matches nothing. */
function regex(source: string, options: EvaluationOptions): RegExp {
  const flags = options.caseInsensitiveValues === true ? 'i' : '';
  const key = `${flags}/${source}`;
  let compiled = compiledRegexes.get(key);
  if (compiled === undefined) {
    try {
      compiled = new RegExp(source, flags);
    } catch {
      compiled = /(?!)/;
    }
    compiledRegexes.set(key, compiled);
  }
  return compiled;
}

const blockLists = new Map<string, BlockList | undefined>();

/**
 * Whether `address` lies in any of the addresses or CIDR ranges. Node's BlockList does the
 * arithmetic for IPv4 and IPv6; an address that is not an IP address lies in no range.
 */
export function inRanges(address: string, ranges: readonly string[]): boolean {
  const version = isIP(address);
  if (version === 0) return false;
  const list = blockListOf(ranges);
  return list !== undefined && list.check(address, version === 4 ? 'ipv4' : 'ipv6');
}

function blockListOf(ranges: readonly string[]): BlockList | undefined {
  const key = ranges.join(' ');
  if (blockLists.has(key)) return blockLists.get(key);
  const list = new BlockList();
  for (const range of ranges) addRange(list, range);
  blockLists.set(key, list);
  return list;
}

function addRange(list: BlockList, range: string): void {
  const [address = '', prefix] = range.split('/');
  const version = isIP(address);
  if (version === 0) return;
  const type = version === 4 ? 'ipv4' : 'ipv6';
  if (prefix === undefined) list.addAddress(address, type);
  else if (/^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128)) list.addSubnet(address, Number(prefix), type);
}
