// Each set's decision for a tuple of classes (docs/replay.md, "Engines"), from what each class
// settles once instead of from a request made of the classes' values. A leaf reads one field, so
// its verdict is the same for every value of a class (value-classes.ts): the verdicts the class
// was made by (field-verdicts.ts), given as those that differ from where the field is absent.
// A condition tree is monotone in its leaves' truths (no negation above a leaf), and so is
// each of its ways to hold (a group of an `$or` tree; an `$and` tree whole): with the other
// fields' leaves taken as true, a class whose leaves make a way false rules that way out whatever
// the other classes. Per class and set, a bit per way of the rules that can decide (the set's
// `reachable`, in priority order) says whether the class leaves it possible; a tuple's
// candidates are the AND of its classes' bits. Walked in priority order, each candidate rule's
// tree is checked on the classes' leaf truths, and the first that holds decides, as the js
// program decides. On the replay benchmark's `payments` shape the 119,448 tuples of a
// 3,000,000-request log cost a few word ANDs each instead of a request built and the program run on it.
// A class with a leaf undecided within its time budget (`$re` on V8) is not decided here: its
// tuples are left to the caller (undefined), to be decided as before, on a request.
import { MATCH_WHEN_ABSENT } from '../../evaluate/leaf.js';
import type { NormalRule } from '../../semantics/model.js';
import type { ProgramTree, RuleProgram } from '../../semantics/program.js';
import type { RequestField } from '../coverage.js';
import { NO_RULE } from '../sql/emit.js';
import type { Mark } from './field-verdicts.js';

/** What one class of one field settles. */
interface SettledClass {
  /** Per leaf of the field (by its place among the field's leaves): 1 where the leaf holds. */
  truths: Uint8Array;
  /** Per set (from its first word), a bit per way: 1 where this class alone does not make the way false. */
  possible: Uint32Array;
  /** A bit per way with a clause of several fields (Way.either): 1 where a leaf of this field in it holds. */
  either: Uint32Array;
  /** A leaf of the field undecided on the class's value: the tuple is decided on a request. */
  undecided: boolean;
}

/** One way a tree can hold: one group of an `$or` tree, or a whole `$and` tree (group -1). */
interface Way {
  tree: number;
  group: number;
  /** Its bit in each set whose reachable rules have its tree: the word, and the bit in it. */
  slots: { word: number; bit: number }[];
  /** Set while a class is settled, so that a way is looked at once however many of its leaves changed. */
  seen: number;
  /**
   * The leaves of its first `$or` group over several fields, if any: the way holds only where one
   * of them does, which no field alone can rule out (an `$and` of `$or` groups such as "this path
   * or this agent, and this method or this host"), but the OR of each field's `either` bits can.
   */
  either: Int32Array | undefined;
}

export class ClassDecisions {
  /** Tuples left to the caller because a class had an undecided leaf. */
  undecidedTuples = 0;
  /** Per leaf id: the place in the tuple of the field it reads (-1: a field the tuple lacks), and its place among that field's leaves. */
  private readonly leafSlot: Int32Array;
  private readonly leafPlace: Int32Array;
  /** Per tuple place: the field's leaf ids, in order, and the ways with one of them; per leaf id, the ways with it. */
  private readonly fieldLeaves: number[][];
  private readonly fieldWays: Way[][];
  private readonly leafWays: Way[][];
  /** Per tuple place: what the field absent settles (the class others start from), made when first needed. */
  private readonly absent: (SettledClass | undefined)[];
  /** Classes settled so far: the mark of the ways looked at for the current one. */
  private settling = 0;
  /** The tuple places whose field some way reads: only their classes rule ways out. */
  private readonly ruling: number[];
  /** Per set: its first word, how many words its bits take, and each bit's rule position. */
  private readonly offsets: number[] = [];
  private readonly words: number[] = [];
  private readonly wayRules: Int32Array[] = [];
  /** Every way possible: the bits before any class rules one out; the ways without an `either` clause. */
  private readonly allPossible: Uint32Array;
  private readonly noEither: Uint32Array;
  /** Per tuple place, per class id: what it settles (made when first met). */
  private readonly settled: (SettledClass | undefined)[][];
  /** The classes of the tuple being decided, by place (reused). */
  private readonly current: SettledClass[];

  /**
   * `changesOf` gives a class's verdicts that may differ from those where its field is absent,
   * by the places of the field's leaves among the program's leaves on that field (FieldClasses.changes).
   */
  constructor(private readonly program: RuleProgram<NormalRule>, fields: readonly RequestField[], private readonly changesOf: (place: number, id: number) => ReadonlyMap<number, Mark>) {
    this.leafSlot = new Int32Array(program.leaves.length).fill(-1);
    this.leafPlace = new Int32Array(program.leaves.length);
    this.fieldLeaves = fields.map(() => []);
    program.leaves.forEach(({ field }, id) => {
      const place = fields.indexOf(field);
      if (place === -1) return;
      this.leafSlot[id] = place;
      this.leafPlace[id] = (this.fieldLeaves[place] as number[]).push(id) - 1;
    });
    this.leafWays = program.leaves.map(() => []);
    const ways = this.waysOf(program);
    this.allPossible = new Uint32Array(this.words.reduce((sum, count) => sum + count, 0));
    this.noEither = new Uint32Array(this.allPossible.length);
    this.fieldWays = fields.map(() => []);
    for (const way of ways) {
      const { groups } = program.trees[way.tree] as ProgramTree;
      const own = way.group === -1 ? groups : [groups[way.group] as ProgramTree['groups'][number]];
      // Only a clause all of whose fields are in the tuple: the OR is taken over the tuple's classes.
      const either = own.find((group) => !group.all && group.leaves.every((leaf) => this.leafSlot[leaf] !== -1) && new Set(Array.from(group.leaves, (leaf) => this.leafSlot[leaf])).size > 1);
      way.either = either?.leaves;
      for (const { word, bit } of way.slots) {
        this.allPossible[word] = (this.allPossible[word] as number) | bit;
        if (either === undefined) this.noEither[word] = (this.noEither[word] as number) | bit;
      }
      const leaves = new Set(own.flatMap((group) => Array.from(group.leaves)));
      for (const leaf of leaves) this.leafWays[leaf]?.push(way);
      for (const place of new Set([...leaves].map((leaf) => this.leafSlot[leaf] as number))) if (place !== -1) this.fieldWays[place]?.push(way);
    }
    this.absent = fields.map(() => undefined);
    this.ruling = fields.map((_, place) => place).filter((place) => (this.fieldWays[place] as Way[]).length > 0);
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

  /** Each set's ways in priority order (an `$or` tree's groups in their order), their bits placed; the ways, one per tree and group. */
  private waysOf(program: RuleProgram<NormalRule>): Way[] {
    const ways = new Map<string, Way>();
    let word = 0;
    program.sets.forEach(({ reachable, treeOf }) => {
      const rules: number[] = [];
      for (const position of reachable) {
        const tree = treeOf[position] as number;
        const { all, groups } = program.trees[tree] as ProgramTree;
        for (const group of all ? [-1] : groups.map((_, at) => at)) {
          let way = ways.get(`${tree} ${group}`);
          if (way === undefined) ways.set(`${tree} ${group}`, (way = { tree, group, slots: [], seen: 0, either: undefined }));
          way.slots.push({ word: word + (rules.length >>> 5), bit: 1 << (rules.length & 31) });
          rules.push(position);
        }
      }
      this.offsets.push(word);
      this.words.push(Math.ceil(rules.length / 32));
      this.wayRules.push(Int32Array.from(rules));
      word += Math.ceil(rules.length / 32);
    });
    return [...ways.values()];
  }

  /** The first reachable rule of the set whose tree holds on the current tuple's classes. */
  private decide(set: number): number {
    const { treeOf } = this.program.sets[set] as RuleProgram<NormalRule>['sets'][number];
    const rules = this.wayRules[set] as Int32Array;
    const offset = this.offsets[set] as number;
    // An `$or` tree's ways are side by side: a rule whose tree did not hold is not checked again for its next way.
    let failed = -1;
    for (let word = 0; word < (this.words[set] as number); word++) {
      let bits = this.allPossible[offset + word] as number;
      let either = this.noEither[offset + word] as number;
      for (const place of this.ruling) {
        const settled = this.current[place] as SettledClass;
        bits &= settled.possible[offset + word] as number;
        either |= settled.either[offset + word] as number;
      }
      bits &= either;
      while (bits !== 0) {
        const lowest = bits & -bits;
        bits ^= lowest;
        const position = rules[word * 32 + 31 - Math.clz32(lowest)] as number;
        if (position === failed) continue;
        if (this.holds(this.program.trees[treeOf[position] as number] as ProgramTree)) return position;
        failed = position;
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
    if (place === -1) return MATCH_WHEN_ABSENT.has((this.program.leaves[leaf] as RuleProgram<NormalRule>['leaves'][number]).leaf.operator) ? 1 : 0;
    return (this.current[place] as SettledClass).truths[this.leafPlace[leaf] as number] as number;
  }

  private settledClass(place: number, id: number): SettledClass {
    const known = (this.settled[place] as (SettledClass | undefined)[])[id];
    if (known !== undefined) return known;
    const settled = this.settle(place, id);
    (this.settled[place] as (SettledClass | undefined)[])[id] = settled;
    return settled;
  }

  /**
   * The class's leaf truths, and the ways they leave possible with every other field's leaves
   * true: the field absent's, with only the ways of the leaves whose verdict differs looked at again.
   */
  private settle(place: number, id: number): SettledClass {
    const absent = this.absent[place] ?? (this.absent[place] = this.settleAbsent(place));
    const truths = absent.truths.slice();
    const changes = this.changesOf(place, id);
    for (const [at, mark] of changes) {
      if (mark === 'u') return { ...absent, truths, undecided: true };
      truths[at] = mark === 't' ? 1 : 0;
    }
    const [possible, either] = [absent.possible.slice(), absent.either.slice()];
    const mark = ++this.settling;
    const leaves = this.fieldLeaves[place] as number[];
    for (const at of changes.keys()) {
      for (const way of this.leafWays[leaves[at] as number] as Way[]) {
        if (way.seen === mark) continue;
        way.seen = mark;
        this.rule(way, place, truths, possible, either);
      }
    }
    return { truths, possible, either, undecided: false };
  }

  /** What the field absent settles: each leaf's verdict where its value is absent, every way of the field looked at. */
  private settleAbsent(place: number): SettledClass {
    const leaves = this.fieldLeaves[place] as number[];
    const truths = Uint8Array.from(leaves, (leaf) => (MATCH_WHEN_ABSENT.has((this.program.leaves[leaf] as RuleProgram<NormalRule>['leaves'][number]).leaf.operator) ? 1 : 0));
    const [possible, either] = [this.allPossible.slice(), new Uint32Array(this.allPossible.length)];
    for (const way of this.fieldWays[place] as Way[]) this.rule(way, place, truths, possible, either);
    return { truths, possible, either, undecided: false };
  }

  /**
   * The way's bits set where the field's truths leave it possible (the other fields' leaves taken
   * as true), else cleared; and its `either` bits where a leaf of the field in that clause holds.
   */
  private rule(way: Way, place: number, truths: Uint8Array, possible: Uint32Array, either: Uint32Array): void {
    const truth = (leaf: number) => this.leafSlot[leaf] !== place || truths[this.leafPlace[leaf] as number] === 1;
    const holds = (group: ProgramTree['groups'][number]) => (group.all ? group.leaves.every(truth) : group.leaves.some(truth));
    const { groups } = this.program.trees[way.tree] as ProgramTree;
    const possibly = way.group === -1 ? groups.every(holds) : holds(groups[way.group] as ProgramTree['groups'][number]);
    for (const { word, bit } of way.slots) possible[word] = possibly ? (possible[word] as number) | bit : (possible[word] as number) & ~bit;
    if (way.either === undefined) return;
    const some = way.either.some((leaf) => this.leafSlot[leaf] === place && truths[this.leafPlace[leaf] as number] === 1);
    for (const { word, bit } of way.slots) either[word] = some ? (either[word] as number) | bit : (either[word] as number) & ~bit;
  }
}
