// Containment and disjointness of socketIps addresses and CIDR ranges, decided with Node's
// BlockList. Prefix-aligned blocks are either nested or disjoint, so a range lies inside
// another exactly when its prefix is at least as long and any address of it (the written
// one) lies in the other. Ranges of different address families are never related here:
// IPv4-mapped IPv6 addresses make that relation depend on the service.
import { BlockList, isIP } from 'node:net';

interface Range {
  address: string;
  family: 'ipv4' | 'ipv6';
  prefix: number;
}

function parse(text: string): Range | undefined {
  const [address = '', prefixText] = text.split('/');
  const version = isIP(address);
  if (version === 0) return undefined;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) return undefined;
  return { address, family: version === 4 ? 'ipv4' : 'ipv6', prefix };
}

/** Whether every address of range `inner` lies in range `outer`. */
export function rangeWithin(inner: string, outer: string): boolean {
  const a = parse(inner);
  const b = parse(outer);
  if (a === undefined || b === undefined || a.family !== b.family || b.prefix > a.prefix) return false;
  const list = new BlockList();
  list.addSubnet(b.address, b.prefix, b.family);
  return list.check(a.address, a.family);
}

/** Whether no address lies in both ranges (proved only for ranges of one family). */
export function rangesDisjoint(a: string, b: string): boolean {
  const x = parse(a);
  const y = parse(b);
  if (x === undefined || y === undefined || x.family !== y.family) return false;
  return !rangeWithin(a, b) && !rangeWithin(b, a);
}

/** Every range of `inner` inside some range of `outer` (sufficient for the union, not necessary). */
export function allWithin(inner: readonly string[], outer: readonly string[]): boolean {
  return inner.every((range) => outer.some((container) => rangeWithin(range, container)));
}
