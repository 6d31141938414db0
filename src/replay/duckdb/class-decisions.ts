// Each set's decision for a tuple of classes (docs/replay.md, "Engines"), from what each class
// settles once instead of from a request made of the classes' values. A leaf reads one field, so
// its verdict is the same for every value of a class (value-classes.ts): worked out once per
// class, by the js program's own leaf verdicts (evaluate/program-verdicts.ts) on the class's
// value. A condition tree is monotone in its leaves' truths (no negation above a leaf), so with
// the other fields' leaves taken as true, a class whose leaves make a tree false rules that tree
// out whatever the other classes: per class and set, a bit per rule that can decide (the set's
// `reachable`, in priority order) says whether the class leaves it possible. A tuple's candidates
// are the AND of its classes' bits; walked in priority order, each candidate's tree is checked on
// the classes' leaf truths, and the first that holds decides, as the js program decides. On the
// replay benchmark's `payments` shape the 119,448 tuples of a 3,000,000-request log cost a few
// word ANDs each instead of a request built and the whole program run on it.
// A class with a leaf undecided within its time budget (`$re` on V8) is not decided here: its
// tuples are left to the caller (undefined), to be decided as before, on a request.
import { ProgramVerdicts } from '../../evaluate/program-verdicts.js';
import type { TestRequest } from '../../evaluate/request.js';
import type { NormalRule } from '../../semantics/model.js';
import type { ProgramTree, RuleProgram } from '../../semantics/program.js';
import type { RequestField } from '../coverage.js';
import { NO_RULE } from '../sql/emit.js';

/** What one class of one field settles. */
interface SettledClass {
  /** Per leaf of the field (by its place among the field's leaves): 1 where the leaf holds. */
  truths: Uint8Array;
  /** Per set (at its word offset), a bit per reachable rule: 1 where this class alone does not make its tree false. */
  possible: Uint32Array;
  /** A leaf of the field undecided on the class's value: the tuple is decided on a request. */
  undecided: boolean;
}

/** A tree's rule in one set: the word and bit of its place in the set's reachable rules. */
interface TreeSlot {
  word: number;
  bit: number;
}

export class ClassDecisions {
  /** Tuples left to the caller because a class had an undecided leaf. */
  undecidedTuples = 0;
  private readonly verdicts: ProgramVerdicts;
  /** Per leaf id: the place in the tuple of the field it reads (-1: a field the tuple lacks), and its place among that field's leaves. */
  private readonly leafSlot: Int32Array;
  private readonly leafPlace: Int32Array;
  /** Per tuple place: the field's leaf ids, and the trees holding one of them. */
  private readonly fieldLeaves: number[][];
  private readonly fieldTrees: number[][];
  /** The tuple places whose field some tree reads: only their classes rule rules out. */
  private readonly ruling: number[];
  /** Per tree, its rule in each set that reaches it. */
  private readonly treeSlots: TreeSlot[][];
  /** Per set: its first word, and how many words its bits take. */
  private readonly offsets: number[];
  private readonly words: number[];
  /** Every reachable rule possible: the bits before any class rules one out. */
  private readonly allPossible: Uint32Array;
  /** Per tuple place, per class id: what it settles (made when first met). */
  private readonly settled: (SettledClass | undefined)[][];
  /** The classes of the tuple being decided, by place (reused). */
  private readonly current: SettledClass[];

  /** `partOf` gives the request part a class's value makes (only its own field set), as the js reader read it. */
  constructor(private readonly program: RuleProgram<NormalRule>, fields: readonly RequestField[], private readonly partOf: (place: number, id: number) => TestRequest) {
    this.verdicts = new ProgramVerdicts(program);
    this.leafSlot = new Int32Array(program.leaves.length).fill(-1);
    this.leafPlace = new Int32Array(program.leaves.length);
    this.fieldLeaves = fields.map(() => []);
    program.leaves.forEach(({ field }, id) => {
      const place = fields.indexOf(field);
      if (place === -1) return;
      this.leafSlot[id] = place;
      this.leafPlace[id] = (this.fieldLeaves[place] as number[]).push(id) - 1;
    });
    this.fieldTrees = fields.map(() => []);
    program.trees.forEach((tree, id) => {
      const places = new Set(tree.groups.flatMap((group) => Array.from(group.leaves, (leaf) => this.leafSlot[leaf] as number)));
      for (const place of places) if (place !== -1) this.fieldTrees[place]?.push(id);
    });
    this.ruling = fields.map((_, place) => place).filter((place) => (this.fieldTrees[place] as number[]).length > 0);
    this.words = program.sets.map((set) => Math.ceil(set.reachable.length / 32));
    this.offsets = this.words.map((_, set) => this.words.slice(0, set).reduce((sum, count) => sum + count, 0));
    this.treeSlots = program.trees.map(() => []);
    this.allPossible = new Uint32Array(this.words.reduce((sum, count) => sum + count, 0));
    program.sets.forEach((set, at) => set.reachable.forEach((position, index) => {
      const slot = { word: (this.offsets[at] as number) + (index >>> 5), bit: 1 << (index & 31) };
      this.treeSlots[set.treeOf[position] as number]?.push(slot);
      this.allPossible[slot.word] = (this.allPossible[slot.word] as number) | slot.bit;
    }));
    this.settled = fields.map(() => []);
    this.current = new Array<SettledClass>(fields.length);
  }

  /** Each set's decision number (a rule's position, or NO_RULE) for the tuple of class ids, by place; undefined: decide it on a request. */
  codes(classes: ArrayLike<number>): number[] | undefined {
    for (const place of this.ruling) {
      const settled = this.settledClass(place, classes[place] as number);
      if (settled.undecided) {
        this.undecidedTuples += 1;
        return undefined;
      }
      this.current[place] = settled;
    }
    return this.program.sets.map((_, set) => this.decide(set));
  }

  /** The first reachable rule of the set whose tree holds on the current tuple's classes. */
  private decide(set: number): number {
    const { reachable, treeOf } = this.program.sets[set] as RuleProgram<NormalRule>['sets'][number];
    const offset = this.offsets[set] as number;
    for (let word = 0; word < (this.words[set] as number); word++) {
      let bits = this.allPossible[offset + word] as number;
      for (const place of this.ruling) bits &= (this.current[place] as SettledClass).possible[offset + word] as number;
      while (bits !== 0) {
        const lowest = bits & -bits;
        const position = reachable[word * 32 + 31 - Math.clz32(lowest)] as number;
        if (this.holds(this.program.trees[treeOf[position] as number] as ProgramTree)) return position;
        bits ^= lowest;
      }
    }
    return NO_RULE;
  }

  /** The tree's verdict on the current tuple's leaf truths (none undecided): `$and` of nothing holds, `$or` of nothing does not. */
  private holds(tree: ProgramTree): boolean {
    for (const group of tree.groups) {
      let holds = group.all;
      for (const leaf of group.leaves) {
        if ((this.truth(leaf) === 1) !== group.all) {
          holds = !group.all;
          break;
        }
      }
      if (holds !== tree.all) return holds;
    }
    return tree.all;
  }

  /** A leaf's truth on the current tuple: its class's, or where the tuple lacks its field, its verdict on an absent value. */
  private truth(leaf: number): number {
    const place = this.leafSlot[leaf] as number;
    if (place === -1) return this.verdicts.value(leaf, undefined) === true ? 1 : 0;
    return (this.current[place] as SettledClass).truths[this.leafPlace[leaf] as number] as number;
  }

  private settledClass(place: number, id: number): SettledClass {
    const known = (this.settled[place] as (SettledClass | undefined)[])[id];
    if (known !== undefined) return known;
    const settled = this.settle(place, id);
    (this.settled[place] as (SettledClass | undefined)[])[id] = settled;
    return settled;
  }

  /** The class's leaf truths, and the rules whose trees they leave possible with every other field's leaves true. */
  private settle(place: number, id: number): SettledClass {
    const leaves = this.fieldLeaves[place] as number[];
    this.verdicts.begin(this.partOf(place, id));
    const verdicts = leaves.map((leaf) => this.verdicts.leaf(leaf));
    const truths = Uint8Array.from(verdicts, (verdict) => (verdict === true ? 1 : 0));
    const possible = Uint32Array.from(this.allPossible);
    const undecided = verdicts.includes('undecided');
    if (undecided) return { truths, possible, undecided };
    const truth = (leaf: number) => this.leafSlot[leaf] !== place || truths[this.leafPlace[leaf] as number] === 1;
    for (const tree of this.fieldTrees[place] as number[]) {
      const { all, groups } = this.program.trees[tree] as ProgramTree;
      const holds = all ? groups.every((group) => anyOrAll(group.all, group.leaves, truth)) : groups.some((group) => anyOrAll(group.all, group.leaves, truth));
      if (holds) continue;
      for (const { word, bit } of this.treeSlots[tree] as TreeSlot[]) possible[word] = (possible[word] as number) & ~bit;
    }
    return { truths, possible, undecided };
  }
}

/** `$and` (all) or `$or` of the leaves' truths. */
function anyOrAll(all: boolean, leaves: Int32Array, truth: (leaf: number) => boolean): boolean {
  return all ? leaves.every(truth) : leaves.some(truth);
}
