// Which set the region search splits on (src/diff/set-walk.ts): the moved rule, which the
// other sets hold further ahead, rather than the rules the move displaced.
import { splitIndex } from '../../src/diff/set-walk.js';
import type { Entry } from '../../src/diff/entries.js';
import type { NormalRule } from '../../src/semantics/model.js';

const entry = (id: number): Entry => ({ rule: { name: `r${id}` } as NormalRule, conditionsId: id, id, outcome: { rule: `r${id}`, actions: ['hardBlock'] } });
const [s1, s2, s3, moved] = [entry(1), entry(2), entry(3), entry(4)] as [Entry, Entry, Entry, Entry];
/** The sets as the search holds them: entry numbers (here the ids) and the id of each number. */
const idOf = Int32Array.from([0, 1, 2, 3, 4]);
const numbered = (sets: readonly (readonly Entry[])[]): Int32Array[] => sets.map((set) => Int32Array.from(set, (e) => e.id));
/** Both sets undecided. */
const open = [0, 1];

describe('splitIndex', () => {
  it('splits on a rule moved up, not on the rule it displaced', () => {
    expect(splitIndex(numbered([[s1, s2, s3, moved], [moved, s1, s2, s3]]), idOf, [0, 0], open)).toBe(1);
  });

  it('splits on a rule moved down in the first set too', () => {
    expect(splitIndex(numbered([[moved, s1, s2, s3], [s1, s2, s3, moved]]), idOf, [0, 0], open)).toBe(0);
  });

  it('takes the first undecided set when all stand at one rule, and passes over decided sets', () => {
    expect(splitIndex(numbered([[s1, s2], [s1, s2]]), idOf, [0, 0], open)).toBe(0);
    expect(splitIndex(numbered([[moved, s1], [s1, moved], [s1, moved]]), idOf, [0, 0, 0], [1, 2])).toBe(1);
  });
});
