// The lists of each part the search in proportion to the change searches (changed-parts.ts):
// every distinct list given, cut to the rules of each part, and the cut lists that are equal
// rule by rule searched once. The transition check's states each differ from the one before
// by one PATCH, which changes the cut of the part(s) of the rule it sends and no other: a
// part the PATCH leaves alone keeps the very array of the state before (list-delta.ts).
import type { NormalRule } from '../semantics/model.js';
import { idsHash, sameIds, type ActiveDelta, type IdsAlong } from './list-delta.js';

/** Lists of one part, each distinct list once. */
export interface ChangedPart {
  /** The distinct lists, each the part's active rules in priority order. */
  lists: NormalRule[][];
  /** Per list given: the index of its list in `lists`. */
  listOf: number[];
  /** The part's changed rules, for naming what a budget left unsearched. */
  changed: string[];
}

/** Parts a list may change against the one before and still be cut part by part; beyond it, it is cut whole. */
const MAX_TOUCHED_PARTS = 4;

/** The rules of one part: their numbers, and each as the part searches it (its ways there). */
export interface PartRules {
  ids: readonly number[];
  ruleOf: ReadonlyMap<number, NormalRule>;
}

/**
 * Each part's lists (`parts`: the rule numbers of each part, a rule in as many parts as its ways
 * are), cut from every distinct list (`distinct`: its rule numbers; `distinctOf`: per list given,
 * the index of its numbers in `distinct`, never decreasing); lists of a part that are then equal
 * rule by rule are one list. The lists given themselves are not needed: a walk of them
 * (list-delta.ts) is read once, and each list's cut is placed before the next is cut. The cuts of
 * every list, held until the parts were made, outlived the young generation: on the `scrapers`
 * benchmark shape about 12 of the 86 MB the analyses left in the heap's old generation until a
 * full collection (bench/plan-promoted.js).
 */
export function partsOf(parts: readonly PartRules[], distinctOf: readonly number[], distinct: IdsAlong, count: number, changed: Uint8Array): ChangedPart[] {
  const partsOfRule = Array.from({ length: count }, (): number[] => []);
  parts.forEach(({ ids }, part) => {
    for (const id of ids) (partsOfRule[id] as number[]).push(part);
  });
  const placed = parts.map(({ ruleOf }) => new PartLists(ruleOf));
  cutByPart(distinct, parts.length, partsOfRule, (byPart) => placed.forEach((lists, part) => lists.place(byPart[part] as number[])));
  return parts.map(({ ids, ruleOf }, part) => {
    const { lists, indexOf } = placed[part] as PartLists;
    return { lists, listOf: distinctOf.map((list) => indexOf[list] as number), changed: ids.filter((id) => changed[id] === 1).map((id) => (ruleOf.get(id) as NormalRule).name) };
  });
}

/** One part's distinct lists, as its cut of each distinct list given is placed, in order. */
class PartLists {
  readonly lists: NormalRule[][] = [];
  /** Per distinct list given: the index of its cut in `lists`. */
  readonly indexOf: number[] = [];
  private readonly byHash = new Map<number, number[]>();
  /** The cut placed before, kept to compare the next with (only the lists are kept for the others). */
  private previous: { kept: readonly number[]; index: number } | undefined;

  constructor(private readonly ruleOf: ReadonlyMap<number, NormalRule>) {}

  place(kept: readonly number[]): void {
    // The transition check's hundreds of states mostly cut to the list of the state before:
    // compared with it first, a list is looked up among the others only when it differs.
    if (this.previous === undefined || !sameIds(this.previous.kept, kept)) {
      const hash = idsHash(kept);
      let alike = this.byHash.get(hash);
      if (alike === undefined) this.byHash.set(hash, (alike = []));
      // A part's rule numbers and its rule objects go one to one: equal lists hold the same objects.
      let index = alike.find((known) => this.holds(this.lists[known] as NormalRule[], kept));
      if (index === undefined) {
        alike.push((index = this.lists.length));
        this.lists.push(kept.map((id) => this.ruleOf.get(id) as NormalRule));
      }
      this.previous = { kept, index };
    }
    this.indexOf.push(this.previous.index);
  }

  private holds(list: readonly NormalRule[], kept: readonly number[]): boolean {
    return list.length === kept.length && kept.every((id, at) => this.ruleOf.get(id) === list[at]);
  }
}

/**
 * Each distinct list's rule numbers of each part in order, handed to `place` list by list. A
 * list is compared with the one before it: the parts of no rule it added or left are the arrays
 * of the list before; only the others are cut again.
 */
function cutByPart(distinct: IdsAlong, parts: number, partsOfRule: readonly (readonly number[])[], place: (byPart: readonly number[][]) => void): void {
  const membership = new Membership(partsOfRule);
  let previous: { ids: Int32Array; byPart: number[][] } | undefined;
  // Read one list after another (IdsAlong): the list before is the only one held.
  for (const { ids, delta } of distinct.changes()) {
    const touched = previous === undefined || delta === undefined ? undefined : touchedParts(previous.ids, delta, partsOfRule);
    let byPart: number[][];
    if (previous === undefined) byPart = cutWhole(ids, parts, partsOfRule);
    else if (touched === undefined) byPart = keptWhereSame(previous.byPart, cutWhole(ids, parts, partsOfRule));
    else {
      byPart = [...previous.byPart];
      for (const part of touched) byPart[part] = cutOne(ids, membership.of(part));
    }
    place(byPart);
    previous = { ids, byPart };
  }
}

/**
 * The parts of the rules a list added or left against the one before (`delta`: list-delta.ts);
 * undefined when more than a few. The rules of the run it kept keep their order, and those of
 * its common start and end their places: a part holding none of the others cuts alike, however
 * far a move shifted the rules between its two places.
 */
function touchedParts(before: Int32Array, delta: ActiveDelta<number>, partsOfRule: readonly (readonly number[])[]): Set<number> | undefined {
  const touched = new Set<number>();
  const runEnd = delta.run.from + delta.run.length;
  const left = [...before.subarray(delta.start, delta.run.from), ...before.subarray(runEnd, before.length - delta.end)];
  for (const ids of [delta.before, delta.after, left]) {
    for (const id of ids) {
      for (const part of partsOfRule[id] as number[]) touched.add(part);
      if (touched.size > MAX_TOUCHED_PARTS) return undefined;
    }
  }
  return touched;
}

/**
 * `cut`, each part's numbers the very array of `before`'s when equal: a far move touches many
 * parts and changes the cut of its own rule's part only, and a part compares the very array
 * with the one before at once (sameIds).
 */
function keptWhereSame(before: readonly number[][], cut: number[][]): number[][] {
  return cut.map((kept, part) => (sameIds(before[part] as number[], kept) ? (before[part] as number[]) : kept));
}

function cutWhole(ids: Int32Array, parts: number, partsOfRule: readonly (readonly number[])[]): number[][] {
  const byPart = Array.from({ length: parts }, (): number[] => []);
  for (const id of ids) for (const part of partsOfRule[id] as number[]) (byPart[part] as number[]).push(id);
  return byPart;
}

function cutOne(ids: Int32Array, inPart: Uint8Array): number[] {
  const kept: number[] = [];
  for (const id of ids) if (inPart[id] === 1) kept.push(id);
  return kept;
}

/** Per part, 1 for each of its rules (made when first asked for: a part no PATCH touches needs none). */
class Membership {
  private readonly byPart: (Uint8Array | undefined)[] = [];

  constructor(private readonly partsOfRule: readonly (readonly number[])[]) {}

  of(part: number): Uint8Array {
    let inPart = this.byPart[part];
    if (inPart === undefined) {
      inPart = new Uint8Array(this.partsOfRule.length);
      this.partsOfRule.forEach((parts, id) => {
        if (parts.includes(part)) (inPart as Uint8Array)[id] = 1;
      });
      this.byPart[part] = inPart;
    }
    return inPart;
  }
}
