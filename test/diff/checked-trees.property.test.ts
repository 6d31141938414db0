// The witness search's memory per assignment signature (src/diff/checked-trees.ts), kept in pages
// made as the signatures reach them, against a Map: every signature reads back what was last
// remembered for it, and 0 and 0 when nothing was, across page boundaries and far beyond the pages
// made so far. Counts how often it reaches its assertion, so that it cannot pass by never asserting.
import fc from 'fast-check';
import { CheckedTrees } from '../../src/diff/checked-trees.js';

// Signatures near the page boundaries (pages of 256, 512, 1,024… slots: number-ids.ts pageOf; and
// those of the 4,096-slot pages before them) and far out, counts up to a large stack, serials beyond 2^32.
const pageStarts = fc.constantFrom(256, 768, 1_792, 3_840, 7_936, 16_128).chain((start) => fc.integer({ min: start - 2, max: start + 1 }));
const signature = fc.oneof(fc.nat({ max: 10 }), pageStarts, fc.integer({ min: 4_090, max: 4_100 }), fc.integer({ min: 8_185, max: 8_200 }), fc.nat({ max: 300_000 }));
const write = fc.record({ signature, count: fc.nat({ max: 100_000 }), serial: fc.nat({ max: Number.MAX_SAFE_INTEGER }) });

test('each signature reads back what was last remembered for it, and nothing before', () => {
  let reached = 0;
  fc.assert(fc.property(fc.array(write, { maxLength: 40 }), fc.array(signature, { maxLength: 20 }), (writes, asked) => {
    const checked = new CheckedTrees();
    const reference = new Map<number, { count: number; serial: number }>();
    for (const { signature: at, count, serial } of writes) {
      checked.remember(at, count, serial);
      reference.set(at, { count, serial });
    }
    for (const at of [...asked, ...writes.map((one) => one.signature)]) {
      expect({ count: checked.count(at), serial: checked.serial(at) }).toEqual(reference.get(at) ?? { count: 0, serial: 0 });
      reached += 1;
    }
  }), { numRuns: 500 });
  expect(reached).toBeGreaterThan(3_000);
});
