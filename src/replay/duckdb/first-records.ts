// How far into an NDJSON log the duckdb engine numbers records (docs/replay.md, "Engines"). The
// groups are counted without numbers (on every thread); the report then needs only a few first
// records: the first EXAMPLES_PER_TRANSITION of each transition of outcome, the first of a rule
// pair with an undecided side and of each field's unusable values, and every odd record. Those
// usually lie near the log's start, so the log is numbered (on one thread) in prefixes of growing
// length until they are all found, and whole only when the next prefix would reach half the log.

/** Records of the log that the report needs: the first `wanted` of the records of these groups (fewer when they have fewer). */
export interface Wanted {
  groups: readonly number[];
  wanted: number;
}

/** A group as counted, with the first records (ascending) a numbered reading has found so far. */
export interface CountedGroup {
  count: number;
  firsts: readonly number[];
}

/** The first prefix numbered, and the factor from one prefix to the next. */
export const PREFIX: Readonly<{ first: number; growth: number }> = { first: 65_536, growth: 8 };

/**
 * Whether the records found hold every record wanted: a group's first records in a prefix are
 * its first in the log, so a want whose groups show `wanted` records in it (or all they have)
 * holds its first `wanted` of the log, and none can lie beyond them. `odd`: every odd record
 * (up to `limit`) must be found too.
 */
export function wantedFound(wants: readonly Wanted[], groups: readonly CountedGroup[], odd: { count: number; rows: readonly number[] }, limit: number): boolean {
  if (odd.rows.length < Math.min(odd.count, limit)) return false;
  return wants.every(({ groups: members, wanted }) => {
    let count = 0;
    let found = 0;
    for (const at of members) {
      const group = groups[at] as CountedGroup;
      count += group.count;
      found += group.firsts.length;
    }
    return found >= Math.min(wanted, count);
  });
}

/**
 * Numbers prefixes of growing length (`number(prefix)`), or the whole log of `total` records
 * (`number()`), until `found()`; returns how many records the last numbering read (0: none was needed).
 */
export async function numberUntilFound(total: number, found: () => boolean, number: (prefix?: number) => Promise<void>, prefixes = PREFIX): Promise<number> {
  let prefix = prefixes.first;
  let numbered = 0;
  while (!found()) {
    // A prefix of half the log or more costs about what the whole log costs: numbered whole, once.
    if (prefix * 2 >= total) {
      await number();
      return total;
    }
    await number(prefix);
    numbered = prefix;
    prefix *= prefixes.growth;
  }
  return numbered;
}
