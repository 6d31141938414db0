// Client addresses in SQL without an address type (docs/replay.md, "Where the traffic lives"):
// the `inet` extension cannot be had offline and the warehouses' types differ, so the address
// text is turned into numbers with string functions every dialect has. An IPv4 address is a
// 64-bit integer; an IPv6 address is its 128 bits as 32 lower-case hex digits, which compare as
// text in the order of the numbers. Ranges are compared as Node's BlockList (the reference
// evaluator, evaluate/leaf.ts) compares them: IPv4 ranges are the IPv4-mapped part of the IPv6
// space (::ffff:a.b.c.d lies in 10.0.0.0/8), an IPv4 address lies in an IPv6 range that covers
// its mapped form, a zone index (`fe80::1%eth0`) is ignored, and text that isIP does not accept
// lies in no range.
import { isIP } from 'node:net';
import { parseRange, rangeBounds } from '../../evaluate/addresses.js';
import type { Dialect } from './dialects.js';

/** An IPv4 address as isIP accepts it: four decimal parts 0-255, no leading zero. */
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])';
export const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const GROUP = '[0-9a-fA-F]{1,4}';

/**
 * An IPv6 address as isIP accepts it: eight groups, or fewer around one `::` standing for at
 * least one group of zeros; the last two groups may be written as an IPv4 address; a zone index.
 */
export const IPV6 = `(?:${ipv6Forms().join('|')})(?:%[0-9a-zA-Z.:-]+)?`;

function ipv6Forms(): string[] {
  const groups = (count: number) => (count === 0 ? '' : `${GROUP}(?::${GROUP}){${count - 1}}`);
  const forms = [groups(8), `${groups(6)}:${IPV4}`];
  for (let left = 0; left <= 7; left++) {
    const right = [''];
    if (left <= 6) right.push(`${GROUP}(?::${GROUP}){0,${6 - left}}`);
    if (left <= 5) right.push(`(?:${GROUP}:){0,${5 - left}}${IPV4}`);
    forms.push(`${groups(left)}::(?:${right.filter((one) => one !== '').join('|')})?`);
  }
  return forms;
}

/** IPv4 addresses lie in the IPv6 space as ::ffff:a.b.c.d, as Node's BlockList compares them. */
const MAPPED = 0xffff_0000_0000n;
const IPV4_LAST = MAPPED + 0xffff_ffffn;

/** The columns the address selection adds: the row's IPv4 address as a number, its IPv6 address as 32 hex digits (NULL when `ip` is not one). */
export const IPV4_COLUMN = 'botrules_ipv4';
export const IPV6_COLUMN = 'botrules_ipv6';

interface AddressIntervals {
  /** The parts of the ranges IPv4 addresses can lie in, as IPv4 numbers. */
  ipv4: [bigint, bigint][];
  /** The ranges in the IPv6 space, as 32 hex digits each end. */
  ipv6: [string, string][];
}

/** The ranges as the evaluator reads them (leaf.ts addRange): a text that is no range adds nothing. */
export function addressIntervals(ranges: readonly string[]): AddressIntervals {
  const intervals: AddressIntervals = { ipv4: [], ipv6: [] };
  for (const text of ranges) {
    const range = rangeOf(text);
    if (range === undefined) continue;
    intervals.ipv6.push([hex(range.first), hex(range.last)]);
    const low = range.first > MAPPED ? range.first : MAPPED;
    const high = range.last < IPV4_LAST ? range.last : IPV4_LAST;
    if (low <= high) intervals.ipv4.push([low - MAPPED, high - MAPPED]);
  }
  return intervals;
}

/** A range in the IPv6 space, or undefined when the evaluator adds nothing for it. */
function rangeOf(text: string): { first: bigint; last: bigint } | undefined {
  const [written = '', prefix] = text.split('/');
  const version = isIP(written);
  if (version === 0) return undefined;
  if (prefix !== undefined && (!/^[0-9]{1,3}$/.test(prefix) || Number(prefix) > (version === 4 ? 32 : 128))) return undefined;
  // BlockList drops a zone index from the ranges it is given, as from the addresses it checks.
  const address = written.split('%')[0] as string;
  const range = parseRange(prefix === undefined ? address : `${address}/${Number(prefix)}`);
  if (range === undefined) return undefined;
  const { first, last } = rangeBounds(range);
  return range.family === 4 ? { first: first + MAPPED, last: last + MAPPED } : { first, last };
}

function hex(bits: bigint): string {
  return bits.toString(16).padStart(32, '0');
}

/**
 * `<source>` with IPV4_COLUMN (and, when `ipv6`, IPV6_COLUMN) added: each address parsed once
 * per row, whatever the number of address leaves. The IPv6 text is normalised in steps, each a
 * column of its own so that no step's expression is repeated inside the next one's.
 */
export function addressSelect(source: string, dialect: Dialect, ipv6: boolean): string {
  const ip = dialect.identifier('ip');
  const number = `(${[1, 2, 3, 4].map((part) => `${dialect.toInteger(dialect.textPart(ip, '.', part))} * ${256 ** (4 - part)}`).join(' + ')})`;
  const ipv4 = `CASE WHEN ${dialect.fullRegex(ip, IPV4)} THEN ${number} END AS ${IPV4_COLUMN}`;
  if (!ipv6) return `SELECT *, ${ipv4} FROM ${source}`;
  // 1. An IPv6 address, lower-case, without its zone index; the long pattern only for texts with a colon.
  const written = `CASE WHEN ${dialect.contains(ip, "':'")} THEN (CASE WHEN ${dialect.fullRegex(ip, IPV6)} THEN lower(${dialect.replaceRegex(ip, '%.*$', '')}) END) END AS botrules_ip6a`;
  // 2. A trailing IPv4 address as two groups of hex digits.
  const a = 'botrules_ip6a';
  const head = dialect.replaceRegex(a, '[0-9.]+$', '');
  const octet = (part: number) => dialect.toInteger(dialect.textPart(part === 1 ? dialect.substringFrom(a, `length(${head}) + 1`) : a, '.', part));
  const groups = `${head} || ${hexOctet(octet(1), dialect)} || ${hexOctet(octet(2), dialect)} || ':' || ${hexOctet(octet(3), dialect)} || ${hexOctet(octet(4), dialect)}`;
  const hexOnly = `CASE WHEN ${dialect.contains(a, "'.'")} THEN ${groups} ELSE ${a} END AS botrules_ip6b`;
  // 3. `::` written out as the groups of zeros it stands for: eight groups in all, seven colons. A
  // `::` that opens or closes the address leaves an empty group at that end: padded to 0000 below.
  const c = 'botrules_ip6b';
  const colons = `(length(${c}) - length(replace(${c}, ':', '')))`;
  const expanded = `replace(${c}, '::', ':' || ${dialect.repeat("'0:'", `8 - ${colons}`)}) AS botrules_ip6c`;
  // 4. Each group as four hex digits.
  const d = 'botrules_ip6c';
  const digits = [1, 2, 3, 4, 5, 6, 7, 8].map((part) => dialect.leftPad(dialect.textPart(d, ':', part), 4, '0')).join(' || ');
  const stages = [ipv4, written, hexOnly, expanded].reduce((from, column, stage) => `(SELECT *, ${column} FROM ${from}) AS botrules_stage${stage}`, source);
  return `SELECT *, ${digits} AS ${IPV6_COLUMN} FROM ${stages}`;
}

/** A number 0-255 as two hex digits. */
function hexOctet(octet: string, dialect: Dialect): string {
  const high = dialect.integerDivide(octet, 16);
  const digit = (position: string) => dialect.substring("'0123456789abcdef'", `${position} + 1`, 1);
  return `${digit(high)} || ${digit(`${octet} - 16 * ${high}`)}`;
}
