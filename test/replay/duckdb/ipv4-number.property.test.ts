// The IPv4 number of the duckdb engine's class query (src/replay/duckdb/class-query.ts
// ipv4NumberSql), run in DuckDB: the address's number exactly where Node's isIP reads the text as an
// IPv4 address, NULL for every other text (leading zeros, signs, spaces, exponents, other digits,
// too few or too many parts).
import { isIP } from 'node:net';
import fc from 'fast-check';
import { duckdbForFile } from '../../helpers/duckdb.js';
import { ipv4NumberSql } from '../../../src/replay/duckdb/class-query.js';

const connection = duckdbForFile();

/** The number Node reads of an IPv4 text, or null. */
function expected(text: string): bigint | null {
  if (isIP(text) !== 4) return null;
  return text.split('.').reduce((sum, part) => sum * 256n + BigInt(part), 0n);
}

/** DuckDB's numbers of the texts, in order. */
async function numbers(texts: readonly string[]): Promise<(bigint | null)[]> {
  const values = texts.map((text) => `('${text.replaceAll("'", "''")}', ${texts.indexOf(text)})`).join(', ');
  const reader = await connection().runAndReadAll(`SELECT ${ipv4NumberSql('t', "string_split(t, '.')")}, ${ipv4NumberSql('t')} FROM (VALUES ${values}) AS v(t, i) ORDER BY i`);
  return reader.getRows().map(([value, isAddress]) => {
    // Without the parts only whether it is an address: 0 for one.
    expect(isAddress === null).toBe(value === null);
    return value === null ? null : BigInt(value as number | bigint);
  });
}

const EDGES = ['0.0.0.0', '255.255.255.255', '1.2.3.4', '01.2.3.4', '1.2.3.04', '00.1.1.1', '256.1.1.1', '1.2.3', '1.2.3.4.5', ' 1.2.3.4',
  '1.2.3.4 ', '+1.2.3.4', '1e2.1.1.1', '1..3.4', '-0.1.1.1', '1.2.3.4\n', '\u0661.2.3.4', '0x1.2.3.4', '', '...', '1_0.1.1.1',
  '10.0.0.0/8', '1.2.3.4%eth0', '1.2.3.+4', '1.2.3.4.', '.1.2.3.4', '199.255.0.10', '::ffff:1.2.3.4', '1.2.3.٤'];

it('gives the number of exactly the texts isIP reads as IPv4 addresses', async () => {
  expect(await numbers(EDGES)).toEqual(EDGES.map(expected));
});

it('agrees with isIP on random texts near the address form', async () => {
  const part = fc.oneof(fc.integer({ min: 0, max: 300 }).map(String), fc.stringMatching(/^[0-9+\- e.x]{0,4}$/));
  const text = fc.oneof(fc.ipV4(), fc.ipV4Extended(), fc.array(part, { minLength: 1, maxLength: 6 }).map((parts) => parts.join('.')));
  await fc.assert(fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 50 }), async (texts) => {
    const unique = [...new Set(texts)];
    expect(await numbers(unique)).toEqual(unique.map(expected));
  }), { numRuns: 60 });
});
