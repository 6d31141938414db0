// An IPv4 address's class by the rules' ranges, looked up by its block (docs/replay.md,
// "Engines"): a /16 block wholly inside one part between the ranges' bounds has that part's
// class; in a /16 block a bound cuts, so has each /24 block wholly inside one part. Each level
// is one join with a small table; only an address in a /24 block a bound cuts is searched among
// the bounds (class-query.ts, rangeSearch), a few comparisons each.

/** The tables of the blocks wholly inside one part, by a block's bits: (p, the block's number; c, its class). */
export const IPV4_BLOCKS = { 16: 'botrules_ipv4_blocks16', 24: 'botrules_ipv4_blocks24' } as const;
/**
 * From how many bounds the blocks are looked up: with 6 bounds (a search three comparisons deep)
 * the joins cost more CPU than they save, with 257 and 497 they saved a fifth of the group
 * query (bench/README.md, "The duckdb engine, issue #37, round 2").
 */
export const BLOCKED_BOUNDS = 64;
/** Up to how many cut /16 blocks are looked up by their /24 blocks (256 rows each). */
const CUT_BLOCKS = 1024;

type Run = [first: bigint, end: bigint, id: number];

/** The runs of blocks of `bits` wholly inside one part, within [from, to): [first block, the block after the last, class]. */
function blockRuns(bounds: readonly bigint[], classes: readonly number[], bits: number, from: bigint, to: bigint): Run[] {
  const size = 1n << BigInt(32 - bits);
  const starts = [0n, ...bounds];
  const ends = [...bounds, 1n << 32n];
  return starts.flatMap((start, at): Run[] => {
    const low = start > from ? start : from;
    const high = (ends[at] as bigint) < to ? (ends[at] as bigint) : to;
    const first = (low + size - 1n) / size;
    const end = high / size;
    return first < end ? [[first, end, classes[at] as number]] : [];
  });
}

/** The /16 blocks a bound cuts: the bounds not at a /16 block's start. */
function cutBlocks(bounds: readonly bigint[]): bigint[] {
  return [...new Set(bounds.filter((bound) => bound % 65536n !== 0n).map((bound) => bound >> 16n))];
}

function tableSql(name: string, runs: readonly Run[]): string {
  if (runs.length === 0) return `CREATE OR REPLACE TEMP TABLE ${name} (p BIGINT, c INTEGER)`;
  const values = runs.map(([first, end, id]) => `(${first}, ${end}, ${id})`).join(', ');
  return `CREATE OR REPLACE TEMP TABLE ${name} AS SELECT CAST(unnest(range(a, b)) AS BIGINT) AS p, CAST(c AS INTEGER) AS c FROM (VALUES ${values}) AS r(a, b, c)`;
}

/** The statements creating the blocks' tables of these parts (bounds ascending, one more class than bounds), by bits. */
export function ipv4BlocksSql(bounds: readonly bigint[], classes: readonly number[]): Map<16 | 24, string> {
  const tables = new Map<16 | 24, string>([[16, tableSql(IPV4_BLOCKS[16], blockRuns(bounds, classes, 16, 0n, 1n << 32n))]]);
  const cut = cutBlocks(bounds);
  if (cut.length > 0 && cut.length <= CUT_BLOCKS) {
    tables.set(24, tableSql(IPV4_BLOCKS[24], cut.flatMap((block) => blockRuns(bounds, classes, 24, block << 16n, (block + 1n) << 16n))));
  }
  return tables;
}
