// Exact relations between two leaves: "every request that matches p matches q" (implies) and
// "no request matches both" (contradicts). Each answer is true only when it is proved for
// every request under docs/evaluation.md; whatever is not decided exactly (regular expressions
// other than identical ones, unrelated fields, mixed text and address operators) is false,
// meaning "unknown", and is never reported. Values compare as written (case-sensitive).
import { isAddressLeaf, MATCH_WHEN_ABSENT, presentVerdict, type Verdict } from '../evaluate/leaf.js';
import type { Leaf, LeafOperator } from '../semantics/model.js';
import { fieldKey, firstValue, leafValues } from '../semantics/fields.js';
import { allWithin, rangesDisjoint } from './ranges.js';

/**
 * Fields every HTTP request carries, so a leaf about them never meets an absent field:
 * a path (starting with "/") and a method (docs/evaluation.md, "Rule-set analysis").
 */
const ALWAYS_CARRIED = new Set(['path', 'httpMethod']);

/** Patterns that match the empty text at some position, hence every text. */
const MATCH_EVERYTHING = new Set(['', '.*', '.*?', '^', '^.*', '.*$', '(?:)', '[\\s\\S]*', '[^]*']);

const NEGATION: Partial<Record<LeafOperator, LeafOperator>> = {
  $eq: '$ne', $ne: '$eq', $in: '$notIn', $notIn: '$in', $exists: '$notExists', $notExists: '$exists',
  $endsWith: '$notEndsWith', $notEndsWith: '$endsWith',
};

function alwaysCarried(leaf: Leaf): boolean {
  return ALWAYS_CARRIED.has(leaf.conditionType);
}

const values = leafValues;
const one = firstValue;

/** The leaf that matches exactly the requests `leaf` does not, when there is one. */
export function negation(leaf: Leaf): Leaf | undefined {
  const operator = NEGATION[leaf.operator];
  return operator === undefined ? undefined : { ...leaf, operator };
}

/** Matches every request (absent fields included). */
export function isTautology(leaf: Leaf): boolean {
  return alwaysCarried(leaf) && matchesEveryPresentValue(leaf);
}

/** Matches every value of its field when the field is present. */
export function matchesEveryPresentValue(leaf: Leaf): boolean {
  switch (leaf.operator) {
    case '$exists': return true;
    case '$startsWith': return one(leaf) === '' || (leaf.conditionType === 'path' && one(leaf) === '/');
    case '$contains':
    case '$endsWith': return one(leaf) === '';
    case '$re': return values(leaf).some((pattern) => MATCH_EVERYTHING.has(pattern));
    default: return false;
  }
}

/** Every request that matches `p` matches `q`. */
export function leafImplies(p: Leaf, q: Leaf, patternVerdict: PatternVerdict = presentVerdict): boolean {
  if (isTautology(q)) return true;
  if (fieldKey(p) !== fieldKey(q)) return false;
  return impliesInField(p, q, patternVerdict);
}

/**
 * leafImplies for leaves of one field (equal fieldKey) when q is no tautology: the prover's leaf
 * table knows both of its leaves already, and asks this for every pair it compares.
 */
export function impliesInField(p: Leaf, q: Leaf, patternVerdict: PatternVerdict = presentVerdict): boolean {
  const absentPossible = !alwaysCarried(p);
  if (absentPossible && MATCH_WHEN_ABSENT.has(p.operator) && !MATCH_WHEN_ABSENT.has(q.operator)) return false;
  return presentImplies(p, q, patternVerdict);
}

/** No request matches both. */
export function leavesContradict(p: Leaf, q: Leaf, patternVerdict: PatternVerdict = presentVerdict): boolean {
  if (fieldKey(p) !== fieldKey(q)) return false;
  const notQ = negation(q);
  if (notQ !== undefined && leafImplies(p, notQ, patternVerdict)) return true;
  const notP = negation(p);
  if (notP !== undefined && leafImplies(q, notP, patternVerdict)) return true;
  return presentOnlyDisjoint(p, q, patternVerdict) || presentOnlyDisjoint(q, p, patternVerdict);
}

/** Cases without a negation leaf: exact values against any text test, and two prefixes. */
function presentOnlyDisjoint(p: Leaf, q: Leaf, patternVerdict: PatternVerdict): boolean {
  if (isAddressLeaf(p) || isAddressLeaf(q)) return false;
  // An undecided verdict (a pattern out of time) proves nothing.
  if (p.operator === '$eq' || p.operator === '$in') return values(p).every((value) => verdictOn(q, value, patternVerdict) === false);
  if (p.operator === '$startsWith' && q.operator === '$startsWith') return !one(p).startsWith(one(q)) && !one(q).startsWith(one(p));
  return false;
}

/**
 * A `$re` leaf's verdict on a value its field carries. The leaf table asks each pattern about
 * the values of every `$eq`/`$in` leaf of its field, a few distinct values many times over, and
 * a pattern's run costs far more than a lookup: the analysis passes its compiled program's
 * per-value view (verdicts.ts), which remembers each verdict under the interned leaf. Other
 * operators' compiled tests cost less than a lookup and are always run.
 */
export type PatternVerdict = (leaf: Leaf, value: string) => Verdict;

function verdictOn(q: Leaf, value: string, patternVerdict: PatternVerdict): Verdict {
  return q.operator === '$re' ? patternVerdict(q, value) : presentVerdict(q, value);
}

/**
 * For a text `$eq` or `$in` leaf, implication is about its values alone: p ⇒ q (in p's field,
 * q no tautology) exactly when q matches every present value or `valueImplies` holds for each of
 * p's values (presentImplies below). The leaf table files q by the values that satisfy it.
 */
export function impliesThroughValues(p: Leaf): boolean {
  return (p.operator === '$eq' || p.operator === '$in') && !isAddressLeaf(p) && values(p).length > 0;
}

/** A request carrying `value` in q's field surely matches q. */
export function valueImplies(value: string, q: Leaf, patternVerdict: PatternVerdict = presentVerdict): boolean {
  return verdictOn(q, value, patternVerdict) === true;
}

/** For every present value of the field: p ⇒ q. */
function presentImplies(p: Leaf, q: Leaf, patternVerdict: PatternVerdict): boolean {
  if (matchesEveryPresentValue(q) || p.operator === '$notExists') return true;
  if (isAddressLeaf(p) || isAddressLeaf(q)) return addressImplies(p, q);
  const a = one(p);
  const b = one(q);
  const list = values(q);
  switch (p.operator) {
    case '$eq':
    case '$in': return values(p).every((value) => verdictOn(q, value, patternVerdict) === true);
    case '$exists': return false;
    case '$startsWith': return textImplies(q, { startsWith: () => a.startsWith(b), contains: () => a.includes(b), ne: (m) => !m.startsWith(a) });
    case '$endsWith':
      if (q.operator === '$notEndsWith') return !a.endsWith(b) && !b.endsWith(a);
      return textImplies(q, { endsWith: () => a.endsWith(b), contains: () => a.includes(b), ne: (m) => !m.endsWith(a) });
    case '$contains': return textImplies(q, { contains: () => a.includes(b), ne: (m) => !m.includes(a) });
    case '$ne': return (q.operator === '$ne' && a === b) || (q.operator === '$notIn' && list.every((m) => m === a));
    case '$notIn': return (q.operator === '$ne' && values(p).includes(b)) || (q.operator === '$notIn' && list.every((m) => values(p).includes(m)));
    case '$notEndsWith': return ['$notEndsWith', '$ne', '$notIn'].includes(q.operator) && list.every((m) => m.endsWith(a));
    case '$re': return q.operator === '$re' && values(p).every((pattern) => list.includes(pattern));
    default: return false;
  }
}

/**
 * The operators of the leaves `p` can imply in its field other than those that match every
 * present value (which anything implies), read off presentImplies below: every other leaf is
 * implied by none. 'all': any operator may be. Lets the analysis's leaf table ask leafImplies
 * about a few leaves of each field rather than about all of them (a superset is safe: the
 * table still asks leafImplies; a missing operator would lose a proof, so keep the two in step).
 */
export function impliableOperators(p: Leaf): 'all' | readonly LeafOperator[] {
  if (p.operator === '$notExists') return 'all';
  if (isAddressLeaf(p)) return ['$eq', '$ne', '$in', '$notIn'];
  return IMPLIABLE[p.operator] ?? 'all';
}

const NOT_EQUAL: readonly LeafOperator[] = ['$ne', '$notIn'];
const IMPLIABLE: Partial<Record<LeafOperator, readonly LeafOperator[]>> = {
  $exists: [],
  $startsWith: ['$startsWith', '$contains', ...NOT_EQUAL],
  $endsWith: ['$notEndsWith', '$endsWith', '$contains', ...NOT_EQUAL],
  $contains: ['$contains', ...NOT_EQUAL],
  $ne: NOT_EQUAL,
  $notIn: NOT_EQUAL,
  $notEndsWith: ['$notEndsWith', ...NOT_EQUAL],
  $re: ['$re'],
};

interface TextRelations {
  startsWith?: () => boolean;
  endsWith?: () => boolean;
  contains?: () => boolean;
  /** For $ne and each value of $notIn: the value can never match p. */
  ne: (value: string) => boolean;
}

function textImplies(q: Leaf, relations: TextRelations): boolean {
  switch (q.operator) {
    case '$startsWith': return relations.startsWith?.() ?? false;
    case '$endsWith': return relations.endsWith?.() ?? false;
    case '$contains': return relations.contains?.() ?? false;
    case '$ne':
    case '$notIn': return values(q).every(relations.ne);
    default: return false;
  }
}

/** socketIps with $eq/$in (the address lies in a range) and $ne/$notIn (it lies in none). */
function addressImplies(p: Leaf, q: Leaf): boolean {
  if (!isAddressLeaf(p) || !(isAddressLeaf(q) || q.operator === '$exists')) return false;
  const inside = p.operator === '$eq' || p.operator === '$in';
  if (q.operator === '$exists') return inside;
  const qInside = q.operator === '$eq' || q.operator === '$in';
  if (inside && qInside) return allWithin(values(p), values(q));
  if (inside && !qInside) return values(p).every((range) => values(q).every((other) => rangesDisjoint(range, other)));
  if (!inside && !qInside) return allWithin(values(q), values(p));
  return false;
}
