// The verdicts the analysis asks for its many candidate requests: the per-value view of the one
// verdict cache of the compiled rule set (evaluate/program-verdicts.ts), over the interned rules'
// leaves (interned.ts), for as long as it is kept (one analysis run); the leaf relations
// (leaves.ts) ask it for their `$re` verdicts too, so the analysis has one verdict memory.
import type { Verdict } from '../evaluate/leaf.js';
import { ProgramVerdicts } from '../evaluate/program-verdicts.js';
import { fieldOf, type TestRequest } from '../evaluate/request.js';
import type { Conditions, Group, Leaf } from '../semantics/model.js';
import type { ProgramBuilder } from '../semantics/program.js';

/** The value a request carries in the field a leaf tests (undefined: absent), as `fieldOf` reads it. */
type FieldReader = (leaf: Leaf) => string | undefined;

export class Verdicts {
  private readonly verdicts: ProgramVerdicts;
  /** Program leaf ids by leaf object, in a plain Map: this is asked for every candidate pair tried. */
  private readonly ids = new Map<Leaf, number>();

  constructor(private readonly program: ProgramBuilder) {
    this.verdicts = new ProgramVerdicts(program);
  }

  /**
   * Whether the leaf surely matches a request that carries `value` in its field: an undecided
   * verdict (a pattern out of time) counts as no match, so a request is confirmed only when
   * every verdict it rests on is (conditions are monotone: no leaf is under a negation).
   */
  value(leaf: Leaf, value: string | undefined): boolean {
    return this.verdicts.value(this.id(leaf), value) === true;
  }

  /** The leaf's verdict, three-valued, for a request that carries `value` in its field: the leaf relations' (leaves.ts) `$re` verdicts. */
  verdict(leaf: Leaf, value: string): Verdict {
    return this.verdicts.value(this.id(leaf), value);
  }

  private id(leaf: Leaf): number {
    let id = this.ids.get(leaf);
    if (id === undefined) this.ids.set(leaf, (id = this.program.leaf(leaf)));
    return id;
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
