// What a rule's conditions require of a field: values (from `$eq` and `$in`), one of which the
// field must carry for the rule to match. Two rules that require disjoint values of one field
// match no request in common — the overlap index by which the behaviour search splits rule sets
// into parts it can search apart (changed-parts.ts). Sound rather than complete: a field is
// required only when every way the conditions can match tests it with `$eq` or `$in`; prefixes,
// patterns, negations and address ranges require nothing, so such rules overlap whatever they
// might. Values are compared ignoring case (an analysis may be asked to ignore it), so "disjoint"
// holds under either evaluation.
import { isAddressLeaf } from '../evaluate/leaf.js';
import { fieldKey, leafValues } from '../semantics/fields.js';
import type { Conditions, Group, Leaf } from '../semantics/model.js';

/** Field key (semantics/fields.ts) → the values, folded to lower case, one of which it must carry. */
export type Required = ReadonlyMap<string, ReadonlySet<string>>;

const NOTHING: Required = new Map();
/** Worked out once per conditions object: the transition check and the diff share the rule objects no PATCH changed. */
const REQUIRED = new WeakMap<Conditions, Required>();

export function requiredValues(conditions: Conditions): Required {
  let required = REQUIRED.get(conditions);
  if (required === undefined) REQUIRED.set(conditions, (required = combined(conditions.operator, conditions.children.map(groupRequired))));
  return required;
}

/** True when no request can match both: some field each requires, with no value in common. */
export function disjoint(a: Required, b: Required): boolean {
  return disjointBy(a, b, intersects);
}

/** True when some field both maps require holds what cannot `meet` (required-texts.ts asks it of texts). */
export function disjointBy<T>(a: ReadonlyMap<string, T>, b: ReadonlyMap<string, T>, meet: (one: T, other: T) => boolean): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const [field, held] of small) {
    const others = large.get(field);
    if (others !== undefined && !meet(held, others)) return true;
  }
  return false;
}

function intersects(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const value of small) if (large.has(value)) return true;
  return false;
}

function groupRequired(group: Group): Required {
  return combined(group.operator, group.children.map(leafRequired));
}

function leafRequired(leaf: Leaf): Required {
  if ((leaf.operator !== '$eq' && leaf.operator !== '$in') || isAddressLeaf(leaf)) return NOTHING;
  const values = leaf.operator === '$eq' ? leafValues(leaf).slice(0, 1) : leafValues(leaf);
  return new Map([[fieldKey(leaf), new Set(values.map((value) => value.toLowerCase()))]]);
}

/**
 * `$and`: every field any child requires, its values those every such child allows (an empty set:
 * nothing matches). `$or`: the fields every child requires, with the values of any of them.
 */
function combined(operator: '$and' | '$or', children: readonly Required[]): Required {
  if (children.length === 0) return NOTHING;
  if (operator === '$and') {
    const fields = new Map<string, ReadonlySet<string>>();
    for (const child of children) {
      for (const [field, values] of child) {
        const known = fields.get(field);
        fields.set(field, known === undefined ? values : new Set([...values].filter((value) => known.has(value))));
      }
    }
    return fields;
  }
  const [first, ...rest] = children as [Required, ...Required[]];
  const fields = new Map<string, ReadonlySet<string>>();
  for (const [field, values] of first) {
    if (!rest.every((child) => child.has(field))) continue;
    fields.set(field, new Set([values, ...rest.map((child) => child.get(field) as ReadonlySet<string>)].flatMap((set) => [...set])));
  }
  return fields;
}
