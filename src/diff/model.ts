// One concrete request for a state of the behaviour search (docs/behaviour.md, "Exhaustive
// behaviour diff"): it meets every literal of the assignment, and none of the "must not match"
// condition trees matches it. Each field's value comes from values.ts; when a tree still
// matches, the search gives one of that tree's unassigned atoms a truth value (the one that
// would stop the match first) and tries again, undoing what fails (a small DPLL search).
import type { EvaluationOptions } from '../evaluate/leaf.js';
import type { TestRequest } from '../evaluate/request.js';
import type { Conditions, Leaf } from '../semantics/model.js';
import type { Assignment, Atom, AtomTable, AtomTree, Literal } from './atoms.js';
import { blamedFor } from './conflicts.js';
import { leafPhrase } from './describe.js';
import { fieldValue, type FieldValue } from './values.js';
import { fieldName, isMapField, leafValues, requestField } from '../semantics/fields.js';
import type { TreeStack } from './tree-stack.js';
import type { RequestVerdicts } from './request-verdicts.js';
import { CheckedTrees } from './checked-trees.js';

export type ModelResult =
  | { request: TestRequest }
  | Conflict
  /** No exact answer: why, and the rules whose leaves it was about (each once, read as far as needed). */
  | { unknown: string; rules: Iterable<string> };

/**
 * A witness search's answer inside the search: an unsat one names the atoms whose literals it
 * follows from (conflict-directed backjumping, in `search`).
 */
type Searched = { request: TestRequest } | { unknown: string; rules: Iterable<string> } | Conflict;

/**
 * No request: the literals of `blamed` leave none that the trees at the positions `trees` of the
 * stack all fail to match. Wherever those literals hold and those trees must not match, there is
 * none either (regions.ts remembers it: refutations.ts).
 */
export interface Conflict {
  unsat: true;
  /** Atoms of the assignment whose literals alone leave no request (with the trees of `trees`). */
  blamed: Set<number>;
  /** Positions in the stack of the trees the answer follows from: those the request of a branch matched, true under its literals. */
  trees: Set<number>;
}

/** Values added between two looks at the clock while the candidates are gathered. */
const SETUP_CHECK_EVERY = 4096;

/** Field values remembered per field's literals, at most. */
const MAX_REMEMBERED = 20_000;

/** Most states one witness search visits before it gives up (unknown, never a guess). */
const MAX_NODES = 4000;

export class Models {
  private readonly extra = new Map<string, string[]>();
  private readonly samples = new Map<string, Leaf>();
  /**
   * Field values by the field's signature: a field's literals are its own atoms, so its
   * signature names the field too, and no string key is built per look-up.
   */
  private readonly cache = new Map<number, FieldValue>();
  /**
   * Per assignment (by its signature, a small number): how many trees of the stack its request is
   * known not to match, and the serial of the last of them. Numbers, not the requests: few
   * assignments recur, a request is built again from the field values remembered above, and
   * requests kept for the few that recur outlived the young generation of the heap by the
   * hundred thousand.
   */
  private readonly checked = new CheckedTrees();
  /** Per tree split on: its leaves' atoms (leafAtoms). */
  private readonly atomsOf = new Map<Conditions, readonly (Atom | undefined)[]>();
  private nodes = 0;

  constructor(
    table: AtomTable,
    private readonly assignment: Assignment,
    private readonly options: EvaluationOptions,
    /** The evaluator's verdicts, each leaf's once per request (request-verdicts.ts). */
    private readonly verdicts: RequestVerdicts,
    /** The tree at each position of the stack `find` is given, by atoms (atoms.ts). */
    private readonly treeAt: (at: number) => AtomTree,
    deadline?: number,
  ) {
    // The values the rule sets mention, per field, each once: a Set per field keeps this linear
    // in the values (a list searched for each value was quadratic: wide `$in` lists of 1,000
    // rules took minutes here, before the search and its deadline began). It is part of the
    // diff's work, so the deadline is checked here too; the search then stops at once.
    const seen = new Map<string, Set<string>>();
    let counted = 0;
    for (const atom of table.atoms) {
      if (!this.samples.has(atom.field)) this.samples.set(atom.field, atom.leaf);
      if (atom.leaf.operator === '$re') continue;
      const values = seen.get(atom.field) ?? new Set<string>();
      seen.set(atom.field, values);
      for (const value of leafValues(atom.leaf)) values.add(value);
      counted += leafValues(atom.leaf).length;
      if (deadline !== undefined && counted > SETUP_CHECK_EVERY) {
        counted = 0;
        if (Date.now() > deadline) break;
      }
    }
    for (const [field, values] of seen) this.extra.set(field, [...values]);
  }

  /** A request meeting the assignment on which no tree of `mustNotMatch` matches. */
  find(mustNotMatch: TreeStack): ModelResult {
    this.nodes = 0;
    return this.search(mustNotMatch);
  }

  /**
   * Whether `request` still fits after one more tree (by atoms) must not match (the cheap case of
   * `find`). Its leaves' verdicts for the request are mostly known already (request-verdicts.ts):
   * no guard is asked first, so a tree never asked about by the index needs none (tree-stack.ts).
   */
  stillFits(request: TestRequest, tree: AtomTree): boolean {
    return this.verdicts.verdict(tree, request) === false;
  }

  /**
   * A DPLL search that jumps back over the atoms an unsat answer does not blame: when the first
   * truth value of the atom split on leaves no request for reasons that do not involve it, the
   * other cannot leave one either, and is not tried. Without this, an unsat search (rules above
   * whose union covers the way: on the plan benchmark's `scrapers` shape, rules on the same pages
   * for countries outside disjoint lists) tried both values of every atom it had split on before
   * it reached the field to blame.
   */
  private search(mustNotMatch: TreeStack): Searched {
    if (++this.nodes > MAX_NODES) return { unknown: 'the search for an example request grew too large', rules: [] };
    const built = this.build();
    if (!('request' in built)) return built;
    const request = built.request;
    const at = this.firstMatching(mustNotMatch, request);
    if (at === -1) return built;
    // The tree by atoms: its truth without a look-up per leaf (conditionsTruth of the same tree).
    const tree = this.treeAt(at);
    if (this.assignment.treeTruth(tree) === true) return { unsat: true, blamed: blamedFor(tree, this.assignment), trees: new Set([at]) };
    const atom = this.atomToSplit(mustNotMatch.list[at] as Conditions, request);
    if (atom === undefined) return { unknown: 'a regular expression ran out of its time budget', rules: [] };
    const now = this.verdicts.atomVerdict(atom, request) === true;
    let unknown: Searched | undefined;
    let both: Conflict | undefined;
    for (const holds of [!now, now]) {
      const size = this.assignment.size;
      this.assignment.push(atom, holds);
      const result = this.search(mustNotMatch);
      this.assignment.popTo(size);
      if ('request' in result) return result;
      if ('unknown' in result) {
        unknown ??= result;
        continue;
      }
      if (!result.blamed.has(atom.id)) return unknown ?? result;
      if (both === undefined) both = result;
      else joinConflicts(both, result);
    }
    if (unknown !== undefined) return unknown;
    (both as Conflict).blamed.delete(atom.id);
    return both as Conflict;
  }

  /**
   * The first tree that does not fail to match `request`, the assignment's request. How many
   * trees it was found not to match is remembered per assignment, so those are not asked again
   * while they stay on the stack (their serials say so). Its position, or -1.
   */
  private firstMatching(trees: TreeStack, request: TestRequest): number {
    const signature = this.assignment.signature;
    const known = this.checked.count(signature);
    const valid = known <= trees.length && (known === 0 || trees.serials[known - 1] === this.checked.serial(signature));
    // Only the trees whose guard the request meets (tree-stack.ts): the others cannot match it.
    const first = trees.firstMatching(request, valid ? known : 0, (at) => this.verdicts.verdict(this.treeAt(at), request) !== false);
    const count = first === -1 ? trees.length : first;
    this.checked.remember(signature, count, count === 0 ? 0 : (trees.serials[count - 1] as number));
    return first;
  }

  /**
   * An unassigned atom of the tree, preferring one that holds for the request (so that it
   * matches). The leaves in the order the rule has them (its tree by atoms may be another rule's
   * with the same conditions in another order); each leaf's verdict as the request's verdicts
   * have it, mostly worked out already by firstMatching.
   */
  private atomToSplit(conditions: Conditions, request: TestRequest): Atom | undefined {
    let fallback: Atom | undefined;
    for (const atom of this.leafAtoms(conditions)) {
      if (atom === undefined || this.assignment.truthOf(atom) !== 'undecided') continue;
      if (this.verdicts.atomVerdict(atom, request) === true) return atom;
      fallback ??= atom;
    }
    return fallback;
  }

  /** The atoms of the tree's leaves, in the order the rule has them (found once per tree and search: a leaf's look-up builds its key). */
  private leafAtoms(conditions: Conditions): readonly (Atom | undefined)[] {
    let atoms = this.atomsOf.get(conditions);
    if (atoms === undefined) this.atomsOf.set(conditions, (atoms = conditions.children.flatMap((group) => group.children.map((leaf) => this.assignment.atomOf(leaf)))));
    return atoms;
  }

  /** The request each field's literals call for (each field's answer is remembered). Unconstrained fields: a path and a method only. */
  private build(): Searched {
    const request: TestRequest = { path: '/', method: 'GET' };
    for (const field of this.assignment.fields()) {
      const literals = this.assignment.fieldLiterals(field);
      const key = this.assignment.fieldSignature(field);
      const sample = this.samples.get(field) as Leaf;
      let answer = this.cache.get(key);
      if (answer === undefined) {
        if (this.cache.size >= MAX_REMEMBERED) this.cache.clear();
        this.cache.set(key, (answer = fieldValue(sample, literals, this.extra.get(field) ?? [], this.options)));
      }
      if (answer.found) {
        setField(request, sample, answer.value);
        continue;
      }
      if (answer.unknown === undefined) return { unsat: true, blamed: new Set(literals.map(({ atom }) => atom.id)), trees: new Set() };
      return unknownOf(answer.unknown, literals);
    }
    return { request };
  }
}

/** Adds to `into` what `other` follows from: the two truth values of an atom split on, each without a request. */
function joinConflicts(into: Conflict, other: Conflict): void {
  for (const id of other.blamed) into.blamed.add(id);
  for (const at of other.trees) into.trees.add(at);
}

/**
 * Why no value was found. When a pattern is the cause, the reason names the patterns and the
 * conditions they overlap (the rules follow, pattern rules first), so a rule without a regular
 * expression is never named as if it held one.
 */
function unknownOf(reason: string, literals: readonly Literal[]): Searched {
  const patterns = literals.filter(({ atom }) => atom.leaf.operator === '$re');
  if (patterns.length === 0) return { unknown: reason, rules: namedRules([literals]) };
  // The conditions a request must meet; those it must fail only come from "must not match".
  const overlapped = literals.filter(({ atom, holds }) => holds && atom.leaf.operator !== '$re');
  const phrases = (some: readonly Literal[]): string => some.map(({ atom, holds }) => leafPhrase(atom.leaf, holds)).join(' and ');
  const overlaps = overlapped.length === 0 ? '' : `, where ${patterns.length === 1 ? 'it overlaps' : 'they overlap'} ${phrases(overlapped)}`;
  return { unknown: `${reason}: ${phrases(patterns)}${overlaps}`, rules: namedRules([patterns, overlapped]) };
}

/**
 * The rules the literals' leaves appear in, each once, in the order of the literals (of `groups`
 * one after the other), read only as far as the reader goes: most answers without a value are
 * passed over by the witness search, which tries the other truth value, and the one reported is
 * named by its first few rules (regions.ts), while a leaf may be shared by thousands of rules.
 */
export function namedRules(groups: readonly (readonly Literal[])[]): Iterable<string> {
  return {
    *[Symbol.iterator]() {
      const seen = new Set<string>();
      for (const literals of groups) {
        for (const { atom } of literals) {
          for (const rule of atom.rules) {
            if (seen.has(rule)) continue;
            seen.add(rule);
            yield rule;
          }
        }
      }
    },
  };
}

/**
 * Sets the field of `leaf` in `request` to `value` (undefined: left absent). In place: a copy of
 * the whole request per field was garbage that the request cache kept past the young generation.
 */
function setField(request: TestRequest, leaf: Leaf, value: string | undefined): void {
  // Only a path and a method are there to begin with, and those are never absent (values.ts).
  if (value === undefined) return;
  // The field requestWith() writes, without its object per call (the search builds tens of thousands of requests).
  const field = requestField(leaf);
  // A map field is copied by spreading, and its name defined as an own key: a header named "__proto__" stays a header.
  if (isMapField(field)) (request as Record<string, unknown>)[field] = { ...request[field], [fieldName(leaf)]: value };
  else (request as Record<string, unknown>)[field] = value;
}
