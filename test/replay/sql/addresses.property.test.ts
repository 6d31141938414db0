// Client addresses in the emitted SQL (src/replay/sql/addresses.ts): the address grammar is
// the one isIP accepts, and DuckDB turns every written form of an IPv6 address (`::` anywhere,
// leading zeros, upper case, a trailing IPv4 address, a zone index) into its 128 bits.
import { isIP } from 'node:net';
import { DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { addressSelect, IPV4, IPV4_COLUMN, IPV6, IPV6_COLUMN } from '../../../src/replay/sql/addresses.js';
import { DIALECT } from '../../../src/replay/sql/dialects.js';

const ipv4Pattern = new RegExp(`^(?:${IPV4})$`);
const ipv6Pattern = new RegExp(`^(?:${IPV6})$`);

test('the address patterns accept what isIP accepts', () => {
  const near = fc.stringMatching(/^[0-9a-fA-Fg:.%-]{0,45}$/);
  // A written address with a group or a colon more or less at either end: often one group too many.
  const edited = fc.tuple(written, fc.constantFrom('1:', ':', '', 'a.'), fc.constantFrom(':1', ':', '', '.1')).map(([[text], before, after]) => `${before}${text.split('%')[0]}${after}`);
  const sample = fc.oneof(near, edited, written.map(([text]) => text), fc.ipV4(), fc.ipV6(), fc.ipV4Extended());
  fc.assert(fc.property(sample, (text) => {
    expect(ipv6Pattern.test(text)).toBe(isIP(text) === 6);
    expect(ipv4Pattern.test(text)).toBe(isIP(text) === 4);
  }), { numRuns: 20_000 });
});

/** An IPv6 address as 8 groups, written in one of its forms; with the 32 hex digits it stands for. */
const written: fc.Arbitrary<[string, string]> = fc.record({
  groups: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), { minLength: 8, maxLength: 8 }),
  ipv4Tail: fc.boolean(),
  compress: fc.nat(),
  pad: fc.array(fc.nat(3), { minLength: 8, maxLength: 8 }),
  upper: fc.boolean(),
  zone: fc.option(fc.stringMatching(/^[0-9a-zA-Z.:-]{1,6}$/), { nil: undefined }),
}).map(({ groups, ipv4Tail, compress, pad, upper, zone }) => {
  const hexGroups = ipv4Tail ? groups.slice(0, 6) : groups;
  let parts = hexGroups.map((group, i) => group.toString(16).padStart(Math.min(4, group.toString(16).length + (pad[i] ?? 0)), '0'));
  if (upper) parts = parts.map((part) => part.toUpperCase());
  const tail = ipv4Tail ? [`${(groups[6] as number) >> 8}.${(groups[6] as number) & 255}.${(groups[7] as number) >> 8}.${(groups[7] as number) & 255}`] : [];
  // One run of zero groups (if any) written as `::`.
  const runs: [number, number][] = [];
  hexGroups.forEach((group, i) => {
    if (group !== 0) return;
    const last = runs[runs.length - 1];
    if (last !== undefined && last[0] + last[1] === i) last[1] += 1;
    else runs.push([i, 1]);
  });
  const run = runs.length === 0 || compress % 3 === 0 ? undefined : runs[compress % runs.length];
  let text: string;
  if (run === undefined) text = [...parts, ...tail].join(':');
  else {
    const [start, length] = run;
    const after = [...parts.slice(start + length), ...tail];
    text = `${parts.slice(0, start).join(':')}::${after.join(':')}`;
  }
  const hex = groups.map((group) => group.toString(16).padStart(4, '0')).join('');
  return [zone === undefined ? text : `${text}%${zone}`, hex];
});

test('DuckDB reads every written form of an IPv6 address as its 128 bits', async () => {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await instance.connect();
  try {
    await fc.assert(fc.asyncProperty(fc.array(written, { minLength: 1, maxLength: 200 }), async (addresses) => {
      for (const [text] of addresses) expect(isIP(text)).toBe(6);
      const rows = addresses.map(([text]) => `(${DIALECT.duckdb.text(text)})`).join(', ');
      const select = addressSelect(`(VALUES ${rows}) AS requests(ip)`, DIALECT.duckdb, true);
      const result = await connection.runAndReadAll(`SELECT ip, ${IPV4_COLUMN}, ${IPV6_COLUMN} FROM (${select})`);
      const got = new Map(result.getRows().map(([ip, ipv4, ipv6]) => [ip, [ipv4, ipv6]]));
      for (const [text, hex] of addresses) expect([text, got.get(text)]).toEqual([text, [null, hex]]);
    }), { numRuns: 100 });
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
});
