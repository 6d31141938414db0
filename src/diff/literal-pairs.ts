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
 * each way the search would split on is given up before a witness search (regions.ts).
 */
export function cannotMatch(tree: AtomTree, assignment: Assignment, options: EvaluationOptions): boolean {
  const excluded = (atom: Atom): boolean => {
    const truth = assignment.truthOf(atom);
    if (truth !== 'undecided') return truth === false;
    const literal = { atom, holds: true };
    return assignment.fieldLiterals(atom.field).some((known) => cannotBothHold(known, literal, options));
  };
  // `$and` of nothing is true and `$or` of nothing false, as combine() has them.
  const groupExcluded = (group: AtomTree['groups'][number]): boolean => (group.all ? group.atoms.some(excluded) : group.atoms.every(excluded));
  return tree.all ? tree.groups.some(groupExcluded) : tree.groups.every(groupExcluded);
}

/** True only when no value of the field (nor its absence) meets both literals (`a` and `b` read the same field). */
export function cannotBothHold(a: Literal, b: Literal, options: EvaluationOptions): boolean {
  if (absentTruth(a.atom.leaf) === a.holds && absentTruth(b.atom.leaf) === b.holds) return false;
  const kindA = kindOf(a);
  const kindB = kindOf(b);
  let candidates: readonly string[];
  if (kindA === 'finite') candidates = finiteValues(a.atom.leaf);
  else if (kindB === 'finite') candidates = finiteValues(b.atom.leaf);
  else if (kindA === kindB && kindA !== 'other') candidates = [firstValue(a.atom.leaf), firstValue(b.atom.leaf)];
  else return false;
  return !candidates.some((value) => fits(a, value, options) && fits(b, value, options));
}

function kindOf({ atom: { leaf }, holds }: Literal): Kind {
  if (isAddressLeaf(leaf)) return 'other';
  const op = leaf.operator;
  if (holds ? op === '$eq' || op === '$in' : op === '$ne' || op === '$notIn') return 'finite';
  if (holds && op === '$startsWith') return 'prefix';
  if (holds ? op === '$endsWith' : op === '$notEndsWith') return 'suffix';
  return 'other';
}

/** The values a finite literal allows: a scalar operator compares with its first value only ('' when it has none, as leaf.ts compiles it). */
function finiteValues(leaf: Leaf): readonly string[] {
  return leaf.operator === '$eq' || leaf.operator === '$ne' ? [firstValue(leaf)] : leafValues(leaf);
}

/** An undecided verdict (a pattern out of time) is no proof: it fits. */
function fits({ atom, holds }: Literal, value: string, options: EvaluationOptions): boolean {
  const verdict = presentVerdict(atom.leaf, value, options);
  return verdict === 'undecided' || verdict === holds;
}
