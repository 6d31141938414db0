// The evaluator's confirmation of a region's witness (regions.ts; docs/behaviour.md, "Exhaustive
// behaviour diff"): which rule of each list decides the request, as decide() says. The lists of
// one search share nearly all their conditions (the rules before and after a change differ in a
// few), so each distinct condition tree (its conditionsId, entries.ts) is evaluated once per
// witness, not once per list: a memory of one slot per conditions id, valid for the witness begun.
// The distinct trees are indexed by what each needs of a request (tree-stack.ts): a tree whose
// guard the witness fails does not match it (false, never undecided), so only the trees the
// witness's field values name are asked; the others are passed over by a number compared. The
// index is made once it pays (guardedTrees). A tree is evaluated from its leaves' verdicts, each
// distinct leaf's worked out once per witness (request-verdicts.ts).
import type { Verdict } from '../evaluate/leaf.js';
import type { TestRequest } from '../evaluate/request.js';
import type { AtomTree } from './atoms.js';
import type { Entries, Entry } from './entries.js';
import type { RequestVerdicts } from './request-verdicts.js';
import { TreeStack } from './tree-stack.js';

/** Each list's deciding entry (undefined: no active rule matches), or the first whose match is undecided. */
export interface Confirmation {
  deciding: (Entry | undefined)[];
  undecided?: Entry;
}

const VERDICTS: readonly Verdict[] = [false, true, 'undecided'];

export class WitnessCheck {
  /** Per conditions id: the witness its verdict is for (a slot holds one when its stamp is the current one). */
  private readonly stamps: Uint32Array;
  private readonly verdicts: Uint8Array;
  private stamp = 0;
  /** Per conditions id: the witness for which its guard is met (equal to the stamp: it may match). */
  private readonly candidate: Uint32Array;
  /** The distinct trees by guard, and the conditions id at each position: made at the first witness (a search may confirm none). */
  private guarded: { stack: TreeStack; ids: number[] } | undefined;
  /** Trees evaluated while there is no index. */
  private evaluated = 0;

  private readonly lists: readonly Int32Array[];
  private readonly entries: readonly Entry[];
  private readonly trees: readonly AtomTree[];
  private readonly sharedHead: readonly number[];

  /** The search's entries (entries.ts): each list's entry numbers, per conditions id its tree by atoms, and the lists' shared starts. */
  constructor(
    search: Pick<Entries, 'lists' | 'entries' | 'conditionsCount' | 'trees' | 'sharedHead'>,
    private readonly evaluator: RequestVerdicts,
  ) {
    ({ lists: this.lists, entries: this.entries, trees: this.trees, sharedHead: this.sharedHead } = search);
    this.stamps = new Uint32Array(search.conditionsCount);
    this.verdicts = new Uint8Array(search.conditionsCount);
    this.candidate = new Uint32Array(search.conditionsCount);
  }

  /**
   * As decide() on each list's active rules: the first whose conditions match decides; one whose
   * match is undecided first leaves the outcome undecided (reported for the first such list).
   */
  confirm(witness: TestRequest): Confirmation {
    this.next();
    const guarded = this.guardedTrees();
    if (guarded !== undefined) for (const list of guarded.stack.candidates(witness)) for (const at of list) this.candidate[guarded.ids[at] as number] = this.stamp;
    const deciding: (Entry | undefined)[] = [];
    let found: Entry | undefined;
    let foundAt = -1;
    for (let list = 0; list < this.lists.length; list++) {
      const numbers = this.lists[list] as Int32Array;
      // The entries this list shares with the one before decided nothing there before `foundAt`:
      // the same entry decides here when it is among them, else the search goes on after them.
      const head = this.sharedHead[list] as number;
      if (foundAt !== -1 && foundAt < head) {
        deciding.push(found);
        continue;
      }
      found = undefined;
      foundAt = -1;
      for (let at = head; at < numbers.length; at++) {
        const entry = this.entries[numbers[at] as number] as Entry;
        if (guarded !== undefined && this.candidate[entry.conditionsId] !== this.stamp) continue;
        const verdict = this.verdictOf(entry, witness);
        if (verdict === 'undecided') return { deciding, undecided: entry };
        if (verdict) {
          found = entry;
          foundAt = at;
          break;
        }
      }
      deciding.push(found);
    }
    return { deciding };
  }

  /**
   * One tree per conditions id, with the id at each position of the stack; made once the trees
   * evaluated without it outnumber the ids (the cost of making it), so a search that confirms
   * few witnesses (the transition check makes hundreds of such searches) never pays for it,
   * and one that confirms many pays at most twice what the better of the two ways costs.
   */
  private guardedTrees(): { stack: TreeStack; ids: number[] } | undefined {
    if (this.guarded !== undefined || this.evaluated <= this.stamps.length) return this.guarded;
    const stack = new TreeStack(() => undefined);
    const ids: number[] = [];
    const pushed = new Uint8Array(this.stamps.length);
    for (const numbers of this.lists) {
      for (let at = 0; at < numbers.length; at++) {
        const entry = this.entries[numbers[at] as number] as Entry;
        if (pushed[entry.conditionsId] === 1) continue;
        pushed[entry.conditionsId] = 1;
        stack.push(entry.rule.conditions);
        ids.push(entry.conditionsId);
      }
    }
    return (this.guarded = { stack, ids });
  }

  private verdictOf(entry: Entry, witness: TestRequest): Verdict {
    const id = entry.conditionsId;
    if (this.stamps[id] === this.stamp) return VERDICTS[this.verdicts[id] as number] as Verdict;
    const verdict = this.evaluator.verdict(this.trees[id] as AtomTree, witness);
    this.evaluated += 1;
    this.stamps[id] = this.stamp;
    this.verdicts[id] = VERDICTS.indexOf(verdict);
    return verdict;
  }

  private next(): void {
    this.stamp += 1;
    if (this.stamp < 0xffffffff) return;
    this.stamps.fill(0);
    this.candidate.fill(0);
    this.stamp = 1;
  }
}
