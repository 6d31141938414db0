// socketIps addresses and CIDR ranges as numbers: an address family, its bits and a prefix
// length. The rule-set analysis relates ranges by this arithmetic (validate/ranges.ts); the
// behaviour search (diff/values.ts) takes the first and last address of each range and the
// ones just outside, so that every part of the address space the ranges cut out has a witness.
import { isIP } from 'node:net';

export interface AddressRange {
  bits: bigint;
  family: 4 | 6;
  prefix: number;
}

const parsed = new Map<string, AddressRange | undefined>();

export function parseRange(text: string): AddressRange | undefined {
  if (parsed.has(text)) return parsed.get(text);
  const range = parseAddress(text);
  parsed.set(text, range);
  return range;
}

/** parseRange without its memory, for texts that come from requests (a log brings millions of addresses). */
export function parseAddress(text: string): AddressRange | undefined {
  const [address = '', prefixText] = text.split('/');
  const version = isIP(address);
  if (version === 0) return undefined;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) return undefined;
  const bits = version === 4 ? ipv4Bits(address) : ipv6Bits(address);
  return bits === undefined ? undefined : { bits, family: version === 4 ? 4 : 6, prefix };
}

function ipv4Bits(address: string): bigint {
  return address.split('.').reduce((bits, part) => (bits << 8n) | BigInt(Number(part)), 0n);
}

/** An IPv6 address (isIP says it is one) as 128 bits; undefined for a zone index (`%eth0`), which is not related. */
function ipv6Bits(address: string): bigint | undefined {
  if (address.includes('%')) return undefined;
  const [head = '', tail] = address.split('::');
  const groups = (text: string): bigint[] => (text === '' ? [] : text.split(':').flatMap((part) => {
    if (!part.includes('.')) return [BigInt(parseInt(part, 16))];
    const v4 = ipv4Bits(part);
    return [v4 >> 16n, v4 & 0xffffn];
  }));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array<bigint>(8 - left.length - right.length).fill(0n), ...right];
  return all.reduce((bits, group) => (bits << 16n) | group, 0n);
}

/** The first and last address of a range, as bits, and the largest address of its family. */
export function rangeBounds(range: AddressRange): { first: bigint; last: bigint; max: bigint } {
  const width = BigInt(range.family === 4 ? 32 : 128);
  const hostBits = width - BigInt(range.prefix);
  const first = (range.bits >> hostBits) << hostBits;
  return { first, last: first + (1n << hostBits) - 1n, max: (1n << width) - 1n };
}

/** An address of the family written as text (IPv6 in full, eight groups). */
export function formatAddress(bits: bigint, family: 4 | 6): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((shift) => String((bits >> shift) & 0xffn)).join('.');
  return [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => ((bits >> shift) & 0xffffn).toString(16)).join(':');
}
