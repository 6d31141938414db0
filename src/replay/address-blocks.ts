// Rules by the client-address blocks they hold (docs/replay.md, "Throughput"): an `$eq`/`$in`
// leaf on socketIps matches only addresses inside one of its ranges, and address blocks aligned
// to their prefix are either nested or disjoint, so the blocks around an address are found by
// masking it to each prefix length the rules use, one map lookup per length, whatever the
// number of rules and however the ranges cut the bytes (a /20 as cheaply as a /16).
//
// Node's BlockList, which decides the leaf (evaluate/leaf.ts), treats an IPv4 address and its
// IPv4-mapped IPv6 form (`::ffff:a.b.c.d`) as the same address. Each block is therefore filed
// in both spaces where it has a form there, and an address is looked up in its own space only.
// Looking up selects candidates; the leaf still decides each, so a block filed too widely costs
// a try, never an answer.
import { isIP } from 'node:net';
import { parseAddress, type AddressRange } from '../evaluate/addresses.js';
import { ipv4Number } from '../evaluate/leaf.js';

/** The IPv4-mapped block of IPv6, `::ffff:0:0/96`: where IPv6 holds the IPv4 addresses. */
const MAPPED = 0xffffn << 32n;
const MAPPED_PREFIX = 96;

/** Blocks of one family by prefix length: the block's network (the address masked) → rule positions, ascending. */
interface Blocks<N> {
  byPrefix: Map<number, Map<N, number[]>>;
  /** The prefix lengths in use and their blocks, ascending: what a lookup walks. */
  prefixes: { prefix: number; byNetwork: Map<N, number[]> }[];
}

/**
 * The last address read and its number: the live and the declared sets each have an index and
 * ask about the same request's address one after the other.
 */
let lastText = '';
let lastNumber: number | undefined;

function ipv4Of(text: string): number | undefined {
  if (text !== lastText) [lastText, lastNumber] = [text, ipv4Number(text)];
  return lastNumber;
}

export class AddressBlocks {
  private readonly v4: Blocks<number> = { byPrefix: new Map(), prefixes: [] };
  private readonly v6: Blocks<bigint> = { byPrefix: new Map(), prefixes: [] };
  /** Every rule filed, ascending: an address this index cannot read (a zone index) may lie in any of them. */
  private readonly every: number[] = [];

  /** Whether every range of a leaf can be filed: a range BlockList accepts but this index cannot read would be missed. */
  static files(ranges: readonly string[]): boolean {
    return ranges.every((text) => isIP(text.split('/')[0] ?? '') === 0 || parseAddress(text) !== undefined);
  }

  /** Files the rule at `position` under each range (positions come ascending); texts that are no address are no range (as for BlockList). */
  add(ranges: readonly string[], position: number): void {
    for (const text of ranges) {
      const range = parseAddress(text);
      if (range === undefined) continue;
      if (range.family === 4) {
        file(this.v4, Number(range.bits), range.prefix, position);
        file(this.v6, MAPPED | range.bits, range.prefix + MAPPED_PREFIX, position);
      } else {
        file(this.v6, range.bits, range.prefix, position);
        const v4 = ipv4Part(range);
        if (v4 !== undefined) file(this.v4, v4.bits, v4.prefix, position);
      }
      if (this.every[this.every.length - 1] !== position) this.every.push(position);
    }
  }

  /** Pushes onto `found` the lists of the rules whose blocks may hold `value` (each ascending). */
  select(value: string, found: (readonly number[])[]): void {
    const v4 = ipv4Of(value);
    if (v4 !== undefined) {
      for (const { prefix, byNetwork } of this.v4.prefixes) push(found, byNetwork.get(maskV4(v4, prefix)));
      return;
    }
    if (isIP(value) === 0) return; // not an address: in no range
    const range = parseAddress(value);
    // An address this index cannot read as IPv6 bits (a zone index, `fe80::1%eth0`) may lie in any block.
    if (range === undefined || range.family === 4) {
      found.push(this.every);
      return;
    }
    for (const { prefix, byNetwork } of this.v6.prefixes) push(found, byNetwork.get(maskV6(range.bits, prefix)));
  }
}

/** The IPv4 block a range of IPv6 holds: its part of `::ffff:0:0/96` (all of IPv4 when it holds that block whole). */
function ipv4Part(range: AddressRange): { bits: number; prefix: number } | undefined {
  if (range.prefix <= MAPPED_PREFIX) return maskV6(MAPPED, range.prefix) === maskV6(range.bits, range.prefix) ? { bits: 0, prefix: 0 } : undefined;
  return maskV6(range.bits, MAPPED_PREFIX) === MAPPED ? { bits: Number(range.bits & 0xffffffffn), prefix: range.prefix - MAPPED_PREFIX } : undefined;
}

function file<N extends number | bigint>(blocks: Blocks<N>, bits: N, prefix: number, position: number): void {
  const network = (typeof bits === 'bigint' ? maskV6(bits, prefix) : maskV4(bits as number, prefix)) as N;
  let byNetwork = blocks.byPrefix.get(prefix);
  if (byNetwork === undefined) {
    blocks.byPrefix.set(prefix, (byNetwork = new Map()));
    blocks.prefixes.push({ prefix, byNetwork });
    blocks.prefixes.sort((a, b) => a.prefix - b.prefix);
  }
  const list = byNetwork.get(network);
  if (list === undefined) byNetwork.set(network, [position]);
  else if (list[list.length - 1] !== position) list.push(position);
}

function push(found: (readonly number[])[], list: readonly number[] | undefined): void {
  if (list !== undefined) found.push(list);
}

/** The address's first `prefix` bits, the rest zero, as an unsigned number (a shift by 32 is no shift in JavaScript). */
function maskV4(bits: number, prefix: number): number {
  return prefix === 0 ? 0 : (bits & ((0xffffffff << (32 - prefix)) >>> 0)) >>> 0;
}

function maskV6(bits: bigint, prefix: number): bigint {
  const host = BigInt(128 - prefix);
  return (bits >> host) << host;
}
