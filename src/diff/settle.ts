// One step of the region search's walk (regions.ts): each undecided set moved past the rules no
// request of the current state matches, and decided where a rule is known to match. A rule's
// truth is worked out once per step however many sets hold it (set-walk.ts StepTruths), and where
// the sets stand in step only the first is walked (lockstep.ts).
import type { EvaluationOptions, Verdict } from '../evaluate/leaf.js';
import type { Assignment, AtomTree } from './atoms.js';
import { NO_RULE_OUTCOME, type DecidedOutcome, type Entry } from './entries.js';
import { cannotMatch } from './literal-pairs.js';
import type { LockstepRun } from './lockstep.js';
import { StepTruths, waysOf } from './set-walk.js';

export interface WalkedSets {
  /** Per set: its entries' numbers (entries.ts), and the entries by number. */
  sets: readonly Int32Array[];
  entries: readonly Entry[];
  /** Per conditions id: its tree by atoms. */
  atomTrees: readonly AtomTree[];
  /** Per conditions id: how many times its tree is among those no request of the state matches. */
  notMatching: Int32Array;
  assignment: Assignment;
  evaluation: EvaluationOptions;
}

export class Settle {
  private readonly truths: StepTruths;
  /**
   * Per entry number: 1 when its rule's ways of matching are few enough to split on, 2 when not,
   * 0 until asked. Asked at every step a set is alone (170,000 times a plan on the benchmark's
   * `apis` shape), where a look-up by conditions object was an eighth of the walk's time in a profile.
   */
  private readonly splittable: Int8Array;

  constructor(private readonly walked: WalkedSets) {
    this.truths = new StepTruths(walked.notMatching.length);
    this.splittable = new Int8Array(walked.entries.length);
  }

  /**
   * Moves each undecided set past the rules known not to match, and decides the sets whose rule
   * is known to match (`open` keeps the others). With one set undecided, whose rules are met in
   * its order whatever is settled, also past those no request of the state matches (passable).
   */
  all(pos: number[], decided: (DecidedOutcome | undefined)[], open: number[]): void {
    this.truths.next();
    const alone = open.length === 1;
    let kept = 0;
    for (const i of open) {
      this.set(i, pos, decided, alone);
      if (decided[i] === undefined) open[kept++] = i;
    }
    open.length = kept;
  }

  /**
   * all() where the undecided sets stand in step (lockstep.ts): the first set walked, the others
   * moved by as much; past the rules known in step, all() goes on from there.
   */
  inStep(run: LockstepRun, pos: number[], decided: (DecidedOutcome | undefined)[], open: number[]): void {
    this.truths.next();
    const { sets, entries } = this.walked;
    const first = open[0] as number;
    const numbers = sets[first] as Int32Array;
    do {
      for (let at = pos[first] as number; at < run.limit; at++) {
        const truth = this.truth((entries[numbers[at] as number] as Entry).conditionsId);
        if (truth === false) continue;
        pos[first] = at;
        run.follow(pos, open);
        if (truth === true) {
          for (const i of open) decided[i] = (entries[(sets[i] as Int32Array)[pos[i] as number] as number] as Entry).outcome;
          open.length = 0;
        }
        return;
      }
      pos[first] = run.limit;
      run.follow(pos, open);
    } while (run.extend(pos, open));
    this.all(pos, decided, open);
  }

  private set(i: number, pos: number[], decided: (DecidedOutcome | undefined)[], alone: boolean): void {
    const numbers = this.walked.sets[i] as Int32Array;
    for (let at = pos[i] as number; at < numbers.length; at++) {
      const number = numbers[at] as number;
      const entry = this.walked.entries[number] as Entry;
      const truth = this.truth(entry.conditionsId);
      if (truth === 'undecided' && !(alone && this.passable(entry, number))) {
        pos[i] = at;
        return;
      }
      if (truth === true) {
        pos[i] = at;
        decided[i] = entry.outcome;
        return;
      }
    }
    pos[i] = numbers.length;
    decided[i] = NO_RULE_OUTCOME;
  }

  /** A rule's truth in this step: false while its tree is among those that must not match. */
  private truth(id: number): Verdict {
    const { notMatching, assignment, atomTrees } = this.walked;
    return this.truths.known(id) ?? this.truths.remember(id, (notMatching[id] as number) > 0 ? false : assignment.treeTruth(atomTrees[id] as AtomTree));
  }

  /**
   * No request of the state matches the rule (literal-pairs.ts cannotMatch): split on, each of
   * its ways would be given up before a witness search, and among the trees that must not match
   * it would never be the first to match a request. A rule with too many ways is split on, to be
   * reported (docs/behaviour.md, "Exhaustive behaviour diff").
   */
  private passable(entry: Entry, number: number): boolean {
    const { atomTrees, assignment, evaluation } = this.walked;
    if (this.splittable[number] === 0) this.splittable[number] = waysOf(entry.rule.conditions) === undefined ? 2 : 1;
    return this.splittable[number] === 1 && cannotMatch(atomTrees[entry.conditionsId] as AtomTree, assignment, evaluation);
  }
}
