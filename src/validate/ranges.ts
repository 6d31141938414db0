// Containment and disjointness of socketIps addresses and CIDR ranges, by arithmetic on the
// addresses' bits (a BlockList per question built a SocketAddress per check: a third of the
// analysis of rules with many address leaves). Prefix-aligned blocks are either nested or
// disjoint, so a range lies inside another exactly when its prefix is at least as long and its
// first `outer.prefix` bits are the other's. Ranges of different address families are never
// related here: IPv4-mapped IPv6 addresses make that relation depend on the service.
import { parseRange as parse } from '../evaluate/addresses.js';

/** inner → outer → rangeWithin: rule files hold few distinct ranges, each pair asked about many times. */
const within = new Map<string, Map<string, boolean>>();

/** Whether every address of range `inner` lies in range `outer`. */
export function rangeWithin(inner: string, outer: string): boolean {
  let byOuter = within.get(inner);
  if (byOuter === undefined) within.set(inner, (byOuter = new Map()));
  let answer = byOuter.get(outer);
  if (answer === undefined) byOuter.set(outer, (answer = rangeWithinOnce(inner, outer)));
  return answer;
}

function rangeWithinOnce(inner: string, outer: string): boolean {
  const a = parse(inner);
  const b = parse(outer);
  if (a === undefined || b === undefined || a.family !== b.family || b.prefix > a.prefix) return false;
  const shift = BigInt((a.family === 4 ? 32 : 128) - b.prefix);
  return a.bits >> shift === b.bits >> shift;
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
