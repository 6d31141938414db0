// Where the region search's sets stand in step (regions.ts). The transition check walks the
// states of one plan side by side, hundreds of lists of thousands of rules, and at nearly every
// step all the lists still undecided stand at the same rule and hold the same rules for a long way
// after it: the states differ only where the plan's PATCHes are (on the benchmark's plans, 99 % of
// the steps, with 170 rules in step ahead on average). There the walk settles one list and moves
// the others by the same count, rather than asking every list at every step
// (docs/behaviour.md, "Safe transitions").
import { sameId } from './set-walk.js';

/**
 * Rules first looked ahead for how far the lists stay in step, then twice as many each time the
 * walk reaches the end of what was looked at, up to MAX_AHEAD: a run may go on for thousands of
 * rules. A first look of 2 made the searches of the benchmark's `gateways` plan (thirty parts of
 * a few hundred rules) 3 % slower in instructions than one of 128: each new run looked again.
 */
const FIRST_AHEAD = 128;
const MAX_AHEAD = 1024;

/** How far the undecided lists of one walk (one explore call: its own positions) are known to stand in step. */
export class LockstepRun {
  /** The first undecided list when the run was found, -1 when there is none. */
  private first = -1;
  private open = 0;
  /** Positions of the first list before which every undecided list holds the same rules as it. */
  private end = 0;
  /** Per list: its position less the first list's, through the run. */
  private readonly offsets: Int32Array;
  /** Rules looked ahead the last time. */
  private ahead: number;
  /** Whether "it matches" can matter, by the kind of outcome (RegionOptions.outcomeKind): no list decides through a run. */
  readonly answers = new Map<number, boolean>();

  constructor(
    private readonly lists: readonly Int32Array[],
    private readonly idOf: Int32Array,
    /** Rules looked ahead when a run is found (a test's short lists ask for fewer, to be extended). */
    private readonly firstAhead = FIRST_AHEAD,
  ) {
    this.ahead = firstAhead;
    this.offsets = new Int32Array(lists.length);
  }

  /** The position of the first list where the run ends (exclusive). */
  get limit(): number {
    return this.end;
  }

  /** The undecided lists (`open`, ascending) stand in step at the first one's position, as found before. */
  covers(pos: readonly number[], open: readonly number[]): boolean {
    return this.holds(open) && (pos[this.first] as number) < this.end;
  }

  /**
   * The walk goes on in this run: the first list stands in it or at its end, the others where
   * they stood (a step behind it, at the rule it passed); settling moves them, then `extend`.
   */
  reaches(pos: readonly number[], open: readonly number[]): boolean {
    return this.holds(open) && (pos[this.first] as number) <= this.end;
  }

  private holds(open: readonly number[]): boolean {
    return open.length > 1 && open[0] === this.first && open.length === this.open;
  }

  /** Whether the undecided lists stand in step now (each at a rule of the same id); if so, finds how far ahead they stay so. */
  start(pos: readonly number[], open: readonly number[]): boolean {
    this.first = -1;
    this.answers.clear();
    if (open.length < 2) return false;
    const first = open[0] as number;
    const from = pos[first] as number;
    this.ahead = this.firstAhead;
    const end = this.inStepUntil(first, pos, open, from);
    if (end === from) return false;
    this.first = first;
    this.open = open.length;
    this.end = end;
    for (const i of open) this.offsets[i] = (pos[i] as number) - from;
    return true;
  }

  /** The walk reached the end of the run (every list moved there, `follow`): whether the lists stay in step further, looking twice as far. */
  extend(pos: readonly number[], open: readonly number[]): boolean {
    const from = pos[this.first] as number;
    this.ahead = Math.min(this.ahead * 2, MAX_AHEAD);
    this.end = this.inStepUntil(this.first, pos, open, from);
    return this.end > from;
  }

  /** The first position of list `first` from `from` (at most `ahead` on) where some undecided list holds another rule. */
  private inStepUntil(first: number, pos: readonly number[], open: readonly number[], from: number): number {
    const numbers = this.lists[first] as Int32Array;
    const limit = Math.min(numbers.length, from + this.ahead);
    let end = from;
    while (end < limit && this.allHold(this.idOf[numbers[end] as number] as number, pos, open, end - from)) end++;
    return end;
  }

  /** Moves the other undecided lists to the first one's position, where settling each in turn would have left them. */
  follow(pos: number[], open: readonly number[]): void {
    const at = pos[this.first] as number;
    for (let k = 1; k < open.length; k++) {
      const i = open[k] as number;
      pos[i] = at + (this.offsets[i] as number);
    }
  }

  private allHold(id: number, pos: readonly number[], open: readonly number[], ahead: number): boolean {
    for (let k = 1; k < open.length; k++) {
      const i = open[k] as number;
      if (!sameId(this.lists[i] as Int32Array, this.idOf, (pos[i] as number) + ahead, id)) return false;
    }
    return true;
  }
}
