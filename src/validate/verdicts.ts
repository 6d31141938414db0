// The evaluator's verdicts for the many candidate requests the analysis tries: a leaf's verdict
// depends only on the value the request carries in the leaf's field (or its absence), so each
// leaf is evaluated (by the evaluator, `leafVerdict`) once per distinct value and remembered.
import { leafVerdict, presentVerdict } from '../evaluate/leaf.js';
import { fieldOf, type TestRequest } from '../evaluate/request.js';
import type { Conditions, Group, Leaf } from '../semantics/model.js';

/** The value a request carries in the field a leaf tests (undefined: absent), as `fieldOf` reads it. */
export type FieldReader = (leaf: Leaf) => string | undefined;

/**
 * Remembers leaf verdicts for as long as it is kept (one analysis run), per leaf object: the
 * analysis passes interned leaves (interned.ts), one object for all the leaves written alike
 * (34 for the 5,000 generated rules of bench/validate.bench.js), so they share their verdicts.
 */
export class Verdicts {
  private readonly byLeaf = new Map<Leaf, Map<string | undefined, boolean>>();

  /**
   * Whether the leaf surely matches a request that carries `value` in its field: an undecided
   * verdict (a pattern out of time) counts as no match, so a request is confirmed only when
   * every verdict it rests on is (conditions are monotone: no leaf is under a negation).
   */
  value(leaf: Leaf, value: string | undefined): boolean {
    let byValue = this.byLeaf.get(leaf);
    if (byValue === undefined) this.byLeaf.set(leaf, (byValue = new Map()));
    let verdict = byValue.get(value);
    if (verdict === undefined) {
      verdict = (value === undefined ? leafVerdict(leaf, {}) : presentVerdict(leaf, value)) === true;
      byValue.set(value, verdict);
    }
    return verdict;
  }

  /** `value` for the value the request carries in the leaf's field. */
  leaf(leaf: Leaf, request: TestRequest): boolean {
    return this.value(leaf, fieldOf(request, leaf));
  }

  /** `conditionsVerdict` (surely true) for the request whose fields `field` reads: `$and` of nothing holds, `$or` of nothing does not. */
  conditions(conditions: Conditions, field: FieldReader): boolean {
    // Loops rather than every/some with closures: this runs for every candidate pair tried.
    const all = conditions.operator === '$and';
    for (const group of conditions.children) {
      if (this.group(group, field) !== all) return !all;
    }
    return all;
  }

  private group(group: Group, field: FieldReader): boolean {
    const all = group.operator === '$and';
    for (const leaf of group.children) {
      if (this.value(leaf, field(leaf)) !== all) return !all;
    }
    return all;
  }
}
