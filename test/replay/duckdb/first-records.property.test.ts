// How far the duckdb engine numbers an NDJSON log (src/replay/duckdb/first-records.ts): on random
// logs of groups, with random wants (the first one to three records of some groups together, as a
// transition's examples are) and odd records, the prefixes numbered until every wanted record is
// found give each want exactly its first records in the log and every odd record, and the
// numbering stops at the first prefix that holds them all (the whole log only when that prefix
// would reach half of it; nothing when nothing is wanted).
import fc from 'fast-check';
import { numberUntilFound, wantedFound, type CountedGroup, type Wanted } from '../../../src/replay/duckdb/first-records.js';

/** As the grouping query numbers: each group's first three records (1-based, ascending). */
const FIRSTS = 3;

const cases = fc.record({
  groups: fc.integer({ min: 1, max: 6 }),
  // Draws modulo the rarity: one below the number of groups is that group, any other the first group (most of the log).
  log: fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 400 }),
  rarity: fc.integer({ min: 6, max: 300 }),
  odd: fc.array(fc.nat(), { maxLength: 4 }),
  wants: fc.array(fc.record({ groups: fc.uniqueArray(fc.nat({ max: 5 }), { minLength: 1, maxLength: 3 }), wanted: fc.integer({ min: 1, max: 3 }) }), { maxLength: 4 }),
  first: fc.integer({ min: 1, max: 16 }),
  growth: fc.integer({ min: 2, max: 4 }),
});

it('finds every wanted record, and numbers no further than the first prefix holding them', async () => {
  await fc.assert(fc.asyncProperty(cases, async ({ groups: groupCount, log: draws, rarity, odd: oddDraws, wants: drawn, first, growth }) => {
    // Record i (1-based) is odd, or belongs to group draws[i - 1] % rarity (the first group where that is no group): the other groups are rare.
    const oddRows = new Set(oddDraws.map((draw) => (draw % draws.length) + 1));
    const groupOf = (row: number) => {
      const draw = (draws[row - 1] as number) % rarity;
      return oddRows.has(row) ? -1 : draw < groupCount ? draw : 0;
    };
    const rows = draws.map((_, at) => at + 1);
    const counted: (CountedGroup & { firsts: number[] })[] = [];
    for (let at = 0; at < groupCount; at += 1) {
      const count = rows.filter((row) => groupOf(row) === at).length;
      if (count > 0) counted.push({ count, firsts: [] });
    }
    const present = [...new Set(rows.map(groupOf).filter((at) => at >= 0))].sort((a, b) => a - b);
    const indexOf = (group: number) => present.indexOf(group);
    const wants: Wanted[] = drawn.map(({ groups, wanted }) => ({ groups: groups.filter((group) => present.includes(group)).map(indexOf), wanted }))
      .filter((want) => want.groups.length > 0);
    const odd = { count: oddRows.size, rows: [] as number[] };
    const number = (prefix?: number): Promise<void> => {
      const upTo = prefix ?? rows.length;
      counted.forEach((group, at) => group.firsts.splice(0, group.firsts.length, ...rows.filter((row) => row <= upTo && groupOf(row) === present[at]).slice(0, FIRSTS)));
      odd.rows = rows.filter((row) => row <= upTo && oddRows.has(row));
      return Promise.resolve();
    };
    const numbered = await numberUntilFound(rows.length, () => wantedFound(wants, counted, odd, 100), number, { first, growth });

    // Each want's first records in the log, and every odd record, found.
    let deepest = odd.count === 0 ? 0 : Math.max(...oddRows);
    for (const { groups, wanted } of wants) {
      const members = groups.map((at) => present[at]);
      const expected = rows.filter((row) => members.includes(groupOf(row))).slice(0, wanted);
      const found = groups.flatMap((at) => (counted[at] as CountedGroup).firsts).sort((a, b) => a - b).slice(0, wanted);
      expect(found).toEqual(expected);
      deepest = Math.max(deepest, ...expected);
    }
    expect([...odd.rows].sort((a, b) => a - b)).toEqual([...oddRows].sort((a, b) => a - b));

    // Numbered as far as the first prefix of the sequence holding the deepest record, or whole.
    let prefix = first;
    while (prefix < deepest) prefix *= growth;
    const expectedNumbered = deepest === 0 ? 0 : prefix * 2 >= rows.length ? rows.length : prefix;
    expect(numbered).toBe(expectedNumbered);
  }), { numRuns: 500 });
});
