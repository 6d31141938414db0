// The IPv4 class of the duckdb engine's group query (src/replay/duckdb/class-query.ts
// ipv4ClassSql, the block tables of src/replay/duckdb/ipv4-blocks.ts), run in DuckDB: for any
// bounds, cut /16 and /24 blocks among them, an address's class is the class of the part between
// the bounds that holds it, at the bounds and beside them too; also past the /16 blocks that are
// looked up by their /24 blocks.
import fc from 'fast-check';
import { duckdbForFile } from '../../helpers/duckdb.js';
import { ipv4BlockJoins, ipv4ClassSql } from '../../../src/replay/duckdb/group-query.js';
import { ipv4BlocksSql } from '../../../src/replay/duckdb/ipv4-blocks.js';

const connection = duckdbForFile();

const TOP = 2n ** 32n;

/** The class of the part holding `address`: part i lies from bounds[i - 1] up to bounds[i]. */
function expected(bounds: readonly bigint[], classes: readonly number[], address: bigint): number {
  const part = bounds.filter((bound) => bound <= address).length;
  return classes[part] as number;
}

/** DuckDB's classes of the addresses, in order, and the block sizes it looked up. */
async function classesOf(bounds: readonly bigint[], classes: readonly number[], addresses: readonly bigint[]): Promise<{ found: number[]; blocks: (16 | 24)[] }> {
  const tables = ipv4BlocksSql(bounds, classes);
  for (const create of tables.values()) await connection().run(create);
  const blocks = [...tables.keys()];
  const values = addresses.map((address, at) => `(${at}, CAST(${address} AS BIGINT))`).join(', ');
  const sql = `SELECT ${ipv4ClassSql({ bounds: [...bounds], classes: [...classes], blocks })} FROM (VALUES ${values}) AS t(i, botrules_ipv4) ${ipv4BlockJoins(blocks).join(' ')} ORDER BY t.i`;
  const reader = await connection().runAndReadAll(sql);
  return { found: reader.getRows().map(([value]) => Number(value)), blocks };
}

/** Bounds near a few places (so /16 and /24 blocks are cut, and some not), ascending, within (0, 2^32). */
const boundsArbitrary = fc.tuple(fc.array(fc.bigInt({ min: 0n, max: TOP - 1n }), { minLength: 1, maxLength: 4 }),
  fc.array(fc.tuple(fc.nat(3), fc.bigInt({ min: 0n, max: 1n << 20n })), { minLength: 1, maxLength: 40 }))
  .map(([places, offsets]) => [...new Set(offsets.map(([at, offset]) => ((places[at % places.length] as bigint) + offset * (offset % 3n === 0n ? 256n : 1n)) % TOP))]
    .filter((bound) => bound > 0n).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

/** Addresses at, beside and between the bounds, and at the edges of their blocks. */
function addressesNear(bounds: readonly bigint[], more: readonly bigint[]): bigint[] {
  const near = bounds.flatMap((bound) => [bound - 1n, bound, bound + 1n, (bound >> 8n) << 8n, ((bound >> 16n) << 16n) + 65535n]);
  return [...new Set([0n, TOP - 1n, ...near, ...more])].filter((address) => address >= 0n && address < TOP);
}

test('an address has the class of its part, found by block or by search', async () => {
  await fc.assert(fc.asyncProperty(boundsArbitrary, fc.array(fc.bigInt({ min: 0n, max: TOP - 1n }), { maxLength: 20 }), fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 41, maxLength: 41 }),
    async (bounds, more, ids) => {
      const classes = ids.slice(0, bounds.length + 1);
      const addresses = addressesNear(bounds, more);
      const { found } = await classesOf(bounds, classes, addresses);
      expect(found).toEqual(addresses.map((address) => expected(bounds, classes, address)));
    }), { numRuns: 60 });
});

test('past 1,024 cut /16 blocks, addresses in them are searched among the bounds', async () => {
  const bounds = Array.from({ length: 1100 }, (_, at) => (BigInt(at + 1) << 16n) + 77n);
  const classes = bounds.map((_, at) => 1 + (at % 5)).concat([6]);
  const addresses = addressesNear(bounds, []);
  const { found, blocks } = await classesOf(bounds, classes, addresses);
  expect(blocks).toEqual([16]);
  expect(found).toEqual(addresses.map((address) => expected(bounds, classes, address)));
});
