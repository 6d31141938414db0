// Where the region search's undecided sets stand in step (src/diff/lockstep.ts), against brute
// force: `start` finds them in step exactly when every undecided set stands at a rule of one id,
// and the run it finds, extended while they stay so, is as long as they hold the same ids, one by
// one; `follow` puts each set where walking it alone would have. The states of a plan are made as the transition check makes
// them: one list of rules, then moves and edits. The property counts how often it reaches a run.
import fc from 'fast-check';
import { LockstepRun } from '../../src/diff/lockstep.js';

/** A list of `size` rule ids, then each state one change further: a rule moved, or replaced by an edited one (a new id). */
const plans = fc.integer({ min: 2, max: 60 }).chain((size) =>
  fc.record({
    size: fc.constant(size),
    changes: fc.array(fc.record({ edit: fc.boolean(), from: fc.nat(size - 1), to: fc.nat(size - 1) }), { minLength: 1, maxLength: 6 }),
    at: fc.nat(size - 1),
    decided: fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
  }),
);

function statesOf(size: number, changes: readonly { edit: boolean; from: number; to: number }[]): Int32Array[] {
  let ids = Array.from({ length: size }, (_, i) => i);
  const states = [Int32Array.from(ids)];
  changes.forEach(({ edit, from, to }, change) => {
    ids = [...ids];
    if (edit) ids[from] = size + change;
    else ids.splice(to, 0, ...ids.splice(from, 1));
    states.push(Int32Array.from(ids));
  });
  return states;
}

/** How many rules from `pos` every open list holds alike, one by one. */
function inStepFor(lists: readonly Int32Array[], pos: readonly number[], open: readonly number[]): number {
  let run = 0;
  for (;;) {
    const ids = open.map((i) => (lists[i] as Int32Array)[(pos[i] as number) + run]);
    if (ids.some((id) => id === undefined || id !== ids[0])) return run;
    run += 1;
  }
}

describe('the region search where its sets stand in step', () => {
  it('finds a run exactly where the sets hold the same rules, and moves them alike', () => {
    let runs = 0;
    let longRuns = 0;
    let asked = 0;
    let extended = 0;
    fc.assert(
      fc.property(plans, ({ size, changes, at, decided }) => {
        const lists = statesOf(size, changes);
        const idOf = Int32Array.from({ length: size + changes.length }, (_, id) => id);
        // Each list at the rule the first list has at `at` (or at its start where that rule was edited away).
        const target = (lists[0] as Int32Array)[at] as number;
        const pos = lists.map((list) => Math.max(0, list.indexOf(target)));
        const open = lists.map((_, i) => i).filter((i) => i === 0 || decided[i] !== true);
        // Two rules looked ahead at first, so that runs of these short lists are extended.
        const run = new LockstepRun(lists, idOf, 2);
        const expected = open.length > 1 ? inStepFor(lists, pos, open) : 0;
        asked += 1;
        expect(run.start(pos, open)).toBe(expected > 0);
        if (expected === 0) return;
        runs += 1;
        // Walked to the end of what it looked at, then looking further, until the lists part:
        // the run found is the whole run, and the others follow the first list through it.
        const walked = [...pos];
        let found: number;
        do {
          found = run.limit - (pos[0] as number);
          for (let ahead = walked[0] as number; ahead <= run.limit; ahead++) {
            walked[0] = ahead;
            run.follow(walked, open);
            expect(open.map((i) => walked[i])).toEqual(open.map((i) => (pos[i] as number) + ahead - (pos[0] as number)));
            expect(run.covers(walked, open)).toBe(ahead < run.limit);
            expect(run.reaches(walked, open)).toBe(true);
          }
          extended += 1;
        } while (run.extend(walked, open));
        expect(found).toBe(expected);
        // Past the run, neither.
        walked[0] = run.limit + 1;
        expect([run.covers(walked, open), run.reaches(walked, open)]).toEqual([false, false]);
        if (expected > 1) longRuns += 1;
        // One list fewer undecided: the run found is not taken for theirs.
        expect(run.covers(pos, open.slice(0, -1))).toBe(false);
      }),
      { numRuns: 500 },
    );
    expect(asked).toBe(500);
    expect(runs).toBeGreaterThan(100);
    expect(longRuns).toBeGreaterThan(50);
    // Runs longer than the first look ahead were extended.
    expect(extended - runs).toBeGreaterThan(20);
  });
});
