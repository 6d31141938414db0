// A cheap proof that two literals of one field cannot both hold (docs/behaviour.md, "In
// proportion to the change"): before the behaviour search looks for a request of a way a rule
// can match, each of the way's leaves is set against what the state already requires of its
// field, and a way no request can meet is passed over without a witness search. The proof is
// exact in the cases it claims and claims nothing otherwise:
// - one literal allows finitely many values (a positive `$eq`/`$in`, a `$ne`/`$notIn` that
//   must fail): each value, and the field absent, is tried against the other;
// - both require a prefix (or both a suffix): a text with both prefixes has one of them as a
//   prefix of the other, so the longer value itself has both; the two values are tried.
// A pattern whose verdict ran out of time counts as fitting: no proof is claimed on it.
import { isAddressLeaf, presentVerdict, type EvaluationOptions } from '../evaluate/leaf.js';
import { firstValue, leafValues } from '../semantics/fields.js';
import type { Leaf } from '../semantics/model.js';
import { absentTruth, type Assignment, type Atom, type AtomTree, type Literal } from './atoms.js';

type Kind = 'finite' | 'prefix' | 'suffix' | 'other';

/**
 * Whether every way the tree can match has a leaf false under the assignment or one that cannot
 * hold with a literal of its field: then no request meeting the assignment matches the tree, and
 * each way the search would split on is given up before a witness search (regions.ts). Asked of
 * a rule at most steps of a search: plain loops, no closure, literal or list made per call (they
 * were a third of what the searches allocated).
 */
export function cannotMatch(tree: AtomTree, assignment: Assignment, options: EvaluationOptions): boolean {
  // An `$and` is excluded by some group, an `$or` by every group: a loop that stops at the first
  // group that settles it. `$and` of nothing is true and `$or` of nothing false, as combine() has them.
  for (const group of tree.groups) if (groupExcluded(group, assignment, options) === tree.all) return tree.all;
  return !tree.all;
}

/** As cannotMatch does the tree: an `$and` group by some atom excluded, an `$or` group by every one. */
function groupExcluded(group: AtomTree['groups'][number], assignment: Assignment, options: EvaluationOptions): boolean {
  for (const atom of group.atoms) if (excluded(atom, assignment, options) === group.all) return group.all;
  return !group.all;
}

function excluded(atom: Atom, assignment: Assignment, options: EvaluationOptions): boolean {
  const truth = assignment.truthOf(atom);
  if (truth !== 'undecided') return truth === false;
  for (const known of assignment.fieldLiterals(atom.field)) if (cannotHoldWith(known, atom, true, options)) return true;
  return false;
}

/** True only when no value of the field (nor its absence) meets both literals (`a` and `b` read the same field). */
export function cannotBothHold(a: Literal, b: Literal, options: EvaluationOptions): boolean {
  return cannotHoldWith(a, b.atom, b.holds, options);
}

/** cannotBothHold of `a` and the literal `atom` holding (`holds`), made of neither. */
function cannotHoldWith(a: Literal, atom: Atom, holds: boolean, options: EvaluationOptions): boolean {
  if (absentTruth(a.atom.leaf) === a.holds && absentTruth(atom.leaf) === holds) return false;
  const kindA = kindOf(a.atom.leaf, a.holds);
  const kindB = kindOf(atom.leaf, holds);
  if (kindA === 'finite') return !someFinite(a.atom.leaf, a, atom, holds, options);
  if (kindB === 'finite') return !someFinite(atom.leaf, a, atom, holds, options);
  if (kindA === kindB && kindA !== 'other') return !(fitsBoth(firstValue(a.atom.leaf), a, atom, holds, options) || fitsBoth(firstValue(atom.leaf), a, atom, holds, options));
  return false;
}

function kindOf(leaf: Leaf, holds: boolean): Kind {
  if (isAddressLeaf(leaf)) return 'other';
  const op = leaf.operator;
  if (holds ? op === '$eq' || op === '$in' : op === '$ne' || op === '$notIn') return 'finite';
  if (holds && op === '$startsWith') return 'prefix';
  if (holds ? op === '$endsWith' : op === '$notEndsWith') return 'suffix';
  return 'other';
}

/**
 * Whether some value the finite literal of `leaf` allows fits both `a` and the literal `atom`
 * holding (`holds`): a scalar operator compares with its first value only ('' when it has
 * none, as leaf.ts compiles it).
 */
function someFinite(leaf: Leaf, a: Literal, atom: Atom, holds: boolean, options: EvaluationOptions): boolean {
  if (leaf.operator === '$eq' || leaf.operator === '$ne' || typeof leaf.value === 'string') return fitsBoth(firstValue(leaf), a, atom, holds, options);
  for (const value of leafValues(leaf)) if (fitsBoth(value, a, atom, holds, options)) return true;
  return false;
}

function fitsBoth(value: string, a: Literal, atom: Atom, holds: boolean, options: EvaluationOptions): boolean {
  return fits(a.atom, a.holds, value, options) && fits(atom, holds, value, options);
}

/** An undecided verdict (a pattern out of time) is no proof: it fits. */
function fits(atom: Atom, holds: boolean, value: string, options: EvaluationOptions): boolean {
  const verdict = presentVerdict(atom.leaf, value, options);
  return verdict === 'undecided' || verdict === holds;
}
