// Whether one leaf condition matches a request, under the semantics the tool assumes
// (docs/evaluation.md, "Operators"). Pure: no I/O, no state other than compiled caches. Each
// leaf is compiled once (its values folded, its patterns compiled, its address ranges in one
// BlockList) and then only asked about the value a request carries.
import { BlockList, isIP, SocketAddress } from 'node:net';
import type { Leaf } from '../semantics/model.js';
import { firstValue, leafValues } from '../semantics/fields.js';
import { parseRange, rangeBounds } from './addresses.js';
import { compilePattern, type CompiledPattern, type Verdict } from './pattern.js';
import { fieldOf, type TestRequest } from './request.js';

export type { Verdict } from './pattern.js';

export interface EvaluationOptions {
  /** Compare values (not header names, which always compare case-insensitively) ignoring case. */
  caseInsensitiveValues?: boolean;
}

/** Operators that can match a field the request does not carry (docs/evaluation.md, "Absent fields"). */
export const MATCH_WHEN_ABSENT: ReadonlySet<Leaf['operator']> = new Set(['$notExists', '$ne', '$notIn', '$notEndsWith']);

/** A leaf compiled: whether it matches a value its field carries. */
export type PresentTest = (value: string) => Verdict;

const compiledLeaves = [new WeakMap<Leaf, PresentTest>(), new WeakMap<Leaf, PresentTest>()];

/** Whether the leaf matches the request: 'undecided' only when a `$re` pattern ran out of its time budget. */
export function leafVerdict(leaf: Leaf, request: TestRequest, options: EvaluationOptions = {}): Verdict {
  const field = fieldOf(request, leaf);
  if (field === undefined) return MATCH_WHEN_ABSENT.has(leaf.operator);
  return presentVerdict(leaf, field, options);
}

/** `leafVerdict` for a request that carries `value` in the leaf's field (the analysis asks this for many values). */
export function presentVerdict(leaf: Leaf, value: string, options: EvaluationOptions = {}): Verdict {
  return leafTest(leaf, options)(value);
}

/** The leaf compiled once, for a caller that asks it about many values (replay's compiled rule set). */
export function leafTest(leaf: Leaf, options: EvaluationOptions = {}): PresentTest {
  const ignoreCase = options.caseInsensitiveValues === true;
  const cache = compiledLeaves[ignoreCase ? 1 : 0] as WeakMap<Leaf, PresentTest>;
  let test = cache.get(leaf);
  if (test === undefined) cache.set(leaf, (test = compileLeaf(leaf, ignoreCase)));
  return test;
}

/** The leaf's `$re` patterns, compiled as leafVerdict runs them (none for other operators). */
export function leafPatterns(leaf: Leaf, options: EvaluationOptions = {}): CompiledPattern[] {
  return leaf.operator === '$re' ? leafValues(leaf).map((source) => compilePattern(source, options.caseInsensitiveValues === true)) : [];
}

const ADDRESS_OPERATORS: ReadonlySet<Leaf['operator']> = new Set(['$eq', '$ne', '$in', '$notIn']);

/** A client-address leaf that tests whether the address lies in its ranges (not a text operator on it). */
export function isAddressLeaf(leaf: Leaf): boolean {
  return leaf.conditionType === 'socketIps' && ADDRESS_OPERATORS.has(leaf.operator);
}

function compileLeaf(leaf: Leaf, ignoreCase: boolean): PresentTest {
  const fold = ignoreCase ? (text: string) => text.toLowerCase() : (text: string) => text;
  const written = leafValues(leaf);
  const list = written.map(fold);
  const one = fold(firstValue(leaf));
  if (isAddressLeaf(leaf)) {
    const ranges = new AddressRanges(leaf.operator === '$eq' || leaf.operator === '$ne' ? [firstValue(leaf)] : written);
    const inside = leaf.operator === '$eq' || leaf.operator === '$in';
    return (address) => ranges.contain(address) === inside;
  }
  switch (leaf.operator) {
    case '$exists': return () => true;
    case '$notExists': return () => false;
    case '$eq': return (value) => fold(value) === one;
    case '$ne': return (value) => fold(value) !== one;
    case '$contains': return (value) => fold(value).includes(one);
    case '$startsWith': return (value) => fold(value).startsWith(one);
    case '$endsWith': return (value) => fold(value).endsWith(one);
    case '$notEndsWith': return (value) => !fold(value).endsWith(one);
    case '$in': return (value) => list.includes(fold(value));
    case '$notIn': return (value) => !list.includes(fold(value));
    case '$re': {
      // Any pattern that matches decides; an undecided one decides only when no other matches.
      const patterns = leafPatterns(leaf, { caseInsensitiveValues: ignoreCase });
      return (value) => {
        let undecided = false;
        for (const pattern of patterns) {
          const verdict = pattern.test(value);
          if (verdict === true) return true;
          if (verdict === 'undecided') undecided = true;
        }
        return undecided ? 'undecided' : false;
      };
    }
  }
}

/**
 * Addresses and CIDR ranges (IPv4 and IPv6) in one BlockList, built once per leaf; Node's
 * BlockList does the arithmetic (an IPv4-mapped IPv6 address lies in the IPv4 range). The
 * address asked about is parsed once for all leaves (socketOf): building a SocketAddress costs
 * more than the check. When the address is written as IPv4 and no IPv6 range holds an
 * IPv4-mapped address (the only IPv6 addresses the BlockList relates to IPv4 ones), the check is
 * the same arithmetic on two numbers against the IPv4 ranges, done here: replay asks it for
 * millions of addresses, and the behaviour search for each of its requests.
 */
export class AddressRanges {
  private readonly list = new BlockList();
  /** Each IPv4 range as its network and mask, when no IPv6 range may hold an IPv4 address; else undefined. */
  private readonly ipv4: { network: number; mask: number }[] | undefined = [];

  constructor(ranges: readonly string[]) {
    for (const range of ranges) {
      const added = addRange(this.list, range);
      if (added === undefined) continue;
      if (added.type === 'ipv6') {
        if (mayHoldIpv4(range)) this.ipv4 = undefined;
      } else this.ipv4?.push(ipv4Range(added.address, added.prefix ?? 32));
    }
  }

  /** An address that is not an IP address lies in no range. */
  contain(address: string): boolean {
    const number = this.ipv4 === undefined ? undefined : ipv4Number(address);
    if (this.ipv4 !== undefined && number !== undefined) {
      for (const { network, mask } of this.ipv4) if (((number & mask) >>> 0) === network) return true;
      return false;
    }
    const socket = socketOf(address);
    return socket !== undefined && this.list.check(socket);
  }
}

/** The IPv4-mapped IPv6 addresses, ::ffff:0:0/96: as the BlockList relates them, an IPv4 address is one of them. */
const MAPPED_FIRST = 0xffffn << 32n;
const MAPPED_LAST = MAPPED_FIRST + 0xffffffffn;

/** Whether an IPv6 range (one the BlockList took) may hold an IPv4 address: whether it meets ::ffff:0:0/96. */
function mayHoldIpv4(range: string): boolean {
  const parsed = parseRange(range);
  // A form the arithmetic does not read (a zone index): the BlockList decides every address.
  if (parsed === undefined) return true;
  const { first, last } = rangeBounds(parsed);
  return first <= MAPPED_LAST && last >= MAPPED_FIRST;
}

function ipv4Range(address: string, prefix: number): { network: number; mask: number } {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return { network: ((ipv4Number(address) ?? 0) & mask) >>> 0, mask };
}

/**
 * An IPv4 address written as isIP accepts it (four decimal parts, 0 to 255, no leading zero)
 * as a number; undefined for anything else, which the BlockList then decides.
 */
export function ipv4Number(text: string): number | undefined {
  let number = 0;
  let part = 0;
  let digits = 0;
  let parts = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i === text.length ? 46 : text.charCodeAt(i);
    if (code === 46) {
      if (digits === 0 || part > 255 || parts === 4) return undefined;
      number = number * 256 + part;
      parts += 1;
      part = 0;
      digits = 0;
    } else if (code >= 48 && code <= 57) {
      if (digits > 0 && part === 0) return undefined; // a leading zero
      part = part * 10 + (code - 48);
      digits += 1;
      if (digits > 3) return undefined;
    } else {
      return undefined;
    }
  }
  return parts === 4 ? number : undefined;
}

/** Parsed addresses, bounded: a log of a million distinct addresses must not grow memory. */
const SOCKETS_KEPT = 10_000;
const sockets = new Map<string, SocketAddress | undefined>();

function socketOf(address: string): SocketAddress | undefined {
  if (sockets.has(address)) return sockets.get(address);
  const version = isIP(address);
  const socket = version === 0 ? undefined : new SocketAddress({ address, family: version === 4 ? 'ipv4' : 'ipv6' });
  if (sockets.size >= SOCKETS_KEPT) sockets.clear();
  sockets.set(address, socket);
  return socket;
}

/** Adds an address or CIDR range to the list; what it added, or undefined when it is neither. */
function addRange(list: BlockList, range: string): { address: string; type: 'ipv4' | 'ipv6'; prefix?: number } | undefined {
  const [address = '', prefix] = range.split('/');
  const version = isIP(address);
  if (version === 0) return undefined;
  const type = version === 4 ? 'ipv4' : 'ipv6';
  if (prefix === undefined) {
    list.addAddress(address, type);
    return { address, type };
  }
  if (!/^[0-9]{1,3}$/.test(prefix) || Number(prefix) > (version === 4 ? 32 : 128)) return undefined;
  list.addSubnet(address, Number(prefix), type);
  return { address, type, prefix: Number(prefix) };
}
