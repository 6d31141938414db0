// The index behind the shadow search (shadows.ts): earlier rules filed under the leaves one of
// which any tree that implies them must imply, and the lazy walk over the lists a search reads.

/** Clauses of leaf ids; a tree implies Q only if its leaves imply one leaf of every clause. */
export type Requirement = number[][];

/** What one part of a tree implies: the leaves in any of these sets (the sets of its leaves, not unioned). */
export type Part = readonly Set<number>[];

/** Earlier active rules, each filed under the leaves of one clause of its requirement. */
export class RequirementIndex {
  private readonly requirements: Requirement[] = [];
  private readonly filed = new Map<number, number[]>();

  /** `uses`: how many rules imply each leaf, to file a rule under its least used clause. */
  constructor(private readonly uses: ReadonlyMap<number, number>) {}

  add(rule: number, clauses: Requirement): void {
    if (clauses.some((clause) => clause.length === 0)) return; // nothing implies it
    this.requirements[rule] = clauses;
    // A rule with no clause (every tree implies it) is filed under -1, which every lookup reads.
    for (const id of clauses.length === 0 ? [-1] : this.cheapest(clauses)) {
      const list = this.filed.get(id);
      if (list === undefined) this.filed.set(id, [rule]);
      else list.push(rule);
    }
  }

  /**
   * Earlier rules filed under a leaf the tree implies, ascending, with a test of whether the
   * tree meets a rule's whole requirement. `parts`: the leaves implied by each part of the tree
   * that must imply the earlier rule on its own; the lists are those of the part with the
   * shortest ones (each list once), the test checks every part.
   */
  candidates(parts: readonly Part[]): { lists: number[][]; meets: (rule: number) => boolean } {
    const listsOf = (part: Part) => {
      const lists = new Set<number[]>();
      const always = this.filed.get(-1);
      if (always !== undefined) lists.add(always);
      for (const set of part) {
        for (const id of set) {
          const list = this.filed.get(id);
          if (list !== undefined) lists.add(list);
        }
      }
      return [...lists];
    };
    const cost = (lists: number[][]) => lists.reduce((sum, list) => sum + list.length, 0);
    const lists = parts.map(listsOf).reduce((best, next) => (cost(next) < cost(best) ? next : best));
    // Loops rather than every/some with closures: this runs for most rules each search walks.
    const meets = (rule: number): boolean => {
      const clauses = this.requirements[rule] as Requirement;
      for (const part of parts) {
        for (const clause of clauses) if (!meetsClause(part, clause)) return false;
      }
      return true;
    };
    return { lists, meets };
  }

  private cheapest(clauses: Requirement): number[] {
    const cost = (clause: number[]) => clause.reduce((sum, id) => sum + (this.uses.get(id) ?? 0), 0);
    return clauses.reduce((best, clause) => (cost(clause) < cost(best) ? clause : best));
  }
}

function meetsClause(part: Part, clause: readonly number[]): boolean {
  for (const id of clause) for (const set of part) if (set.has(id)) return true;
  return false;
}

/**
 * The smallest number from `from` on in any of the ascending lists that passes `test`, or -1;
 * the lists are merged lazily, as most walks end after a few numbers.
 */
export function firstInLists(lists: readonly (readonly number[])[], from: number, test: (value: number) => boolean): number {
  if (lists.length === 1) {
    const list = lists[0] as readonly number[];
    for (let i = lowerBound(list, from); i < list.length; i++) if (test(list[i] as number)) return list[i] as number;
    return -1;
  }
  const at = lists.map((list) => lowerBound(list, from));
  let last = -1;
  for (;;) {
    let next = -1;
    let which = -1;
    for (let i = 0; i < lists.length; i++) {
      const value = (lists[i] as readonly number[])[at[i] as number];
      if (value !== undefined && (which < 0 || value < next)) [next, which] = [value, i];
    }
    if (which < 0) return -1;
    at[which] = (at[which] as number) + 1;
    if (next !== last && test(next)) return next;
    last = next;
  }
}

/** The position of the first number from `value` on in the ascending `list`. */
export function lowerBound(list: readonly number[], value: number): number {
  let [low, high] = [0, list.length];
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((list[mid] as number) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}
