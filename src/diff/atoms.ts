// The leaves of the rule sets being compared ("atoms": one per distinct leaf, by canonical key)
// and a partial assignment of truth values to them, which the behaviour search
// (docs/behaviour.md, "Exhaustive behaviour diff") extends and undoes as it goes. Which rule
// decides a request depends only on the truth of these atoms, so a set of requests with the
// same truth values is decided the same way by every rule set.
import { combine } from '../evaluate/evaluate.js';
import { MATCH_WHEN_ABSENT, type EvaluationOptions, type Verdict } from '../evaluate/leaf.js';
import { ProgramVerdicts } from '../evaluate/program-verdicts.js';
import { fieldKey, leafValues } from '../semantics/fields.js';
import type { Conditions, Leaf } from '../semantics/model.js';
import { leafNumber, ProgramBuilder } from '../semantics/program.js';
import { NumberIds } from './number-ids.js';

const TRUTHS: readonly Verdict[] = [false, true, 'undecided'];

export interface Atom {
  id: number;
  leaf: Leaf;
  /** fieldKey of the leaf: atoms with the same field read the same value of a request. */
  field: string;
  /** Names of the rules the leaf appears in (for "unchecked: …" sentences). */
  rules: Set<string>;
}

/** An atom with the truth value a region requires of it. */
export interface Literal {
  atom: Atom;
  holds: boolean;
}

/** The atoms as the compiled representation interns the leaves (semantics/program.ts): an atom's id is its leaf's. */
export class AtomTable {
  readonly atoms: Atom[] = [];
  readonly program = new ProgramBuilder();

  /** The atom of `leaf`, created the first time a leaf with its meaning is seen; `number`: its leafNumber, when the caller keeps it. */
  add(leaf: Leaf, rule: string, number = leafNumber(leaf)): Atom {
    const id = this.program.leaf(leaf, number);
    let atom = this.atoms[id];
    if (atom === undefined) {
      this.atoms.push((atom = { id, leaf, field: fieldKey(leaf), rules: new Set() }));
    }
    atom.rules.add(rule);
    return atom;
  }

  of(leaf: Leaf): Atom | undefined {
    const id = this.program.find(leaf);
    return id === undefined ? undefined : this.atoms[id];
  }
}

/**
 * Truth values given to some atoms, as a stack that is undone in reverse order. A field whose
 * value one literal fixes (`$eq`, a one-value `$in`, or absent) decides every other atom of
 * that field too, without a search.
 */
export class Assignment {
  private readonly truth: Int8Array;
  /**
   * Per atom without a literal: its truth as the fixed values gave it (byFixedTruth), when its
   * stamp is `fixes`, a number changed whenever a field is fixed or freed. The search asks the
   * trees' truths thousands of times between two such changes, and each asked the field's fixed
   * value and its verdict by two look-ups per atom.
   */
  private readonly byFixed: Uint32Array;
  private readonly byFixedTruth: Int8Array;
  private fixes = 1;
  private readonly stack: Literal[] = [];
  private readonly perField = new Map<string, Literal[]>();
  /**
   * A number per distinct sequence of literals, for the whole assignment (one per stack depth)
   * and per field, so that answers about it can be remembered without building a key.
   */
  private readonly signatureIds = new NumberIds();
  private readonly signatures: number[] = [0];
  private readonly fieldSignatures = new Map<string, number[]>();
  /** Distinct literals (two per atom): the base of a signature's key. */
  private readonly literalCodes: number;
  /** Fields whose value a literal fixes: the value, or null for "absent". */
  private readonly fixed = new Map<string, { value: string | null; by: Literal }>();

  /** The verdicts of a field's fixed value, per value (evaluate/program-verdicts.ts). */
  private readonly verdicts: ProgramVerdicts;

  constructor(
    private readonly table: AtomTable,
    options: EvaluationOptions,
  ) {
    this.truth = new Int8Array(table.atoms.length).fill(-1);
    this.byFixed = new Uint32Array(table.atoms.length);
    this.byFixedTruth = new Int8Array(table.atoms.length);
    this.literalCodes = table.atoms.length * 2;
    this.verdicts = new ProgramVerdicts(table.program, options);
  }

  get size(): number {
    return this.stack.length;
  }

  literals(): Literal[] {
    return [...this.stack];
  }

  fieldLiterals(field: string): readonly Literal[] {
    return this.perField.get(field) ?? [];
  }

  fields(): IterableIterator<string> {
    return this.perField.keys();
  }

  /** Equal for equal sequences of literals. */
  get signature(): number {
    return this.signatures[this.signatures.length - 1] as number;
  }

  fieldSignature(field: string): number {
    // A field whose literals were all undone has an empty list: its signature is the empty one.
    const list = this.fieldSignatures.get(field);
    return list === undefined || list.length === 0 ? 0 : (list[list.length - 1] as number);
  }

  private extended(signature: number, literal: Literal): number {
    // A number, not a string: one key per push, and the map lives as long as the search
    // (signature × literal codes stays far below 2^53 for any table the search can walk).
    const key = signature * this.literalCodes + literal.atom.id * 2 + (literal.holds ? 1 : 0);
    return this.signatureIds.idOf(key);
  }

  push(atom: Atom, holds: boolean): void {
    const literal = { atom, holds };
    this.signatures.push(this.extended(this.signature, literal));
    const fieldList = this.fieldSignatures.get(atom.field) ?? [];
    fieldList.push(this.extended(this.fieldSignature(atom.field), literal));
    this.fieldSignatures.set(atom.field, fieldList);
    this.stack.push(literal);
    this.truth[atom.id] = holds ? 1 : 0;
    const list = this.perField.get(atom.field);
    if (list === undefined) this.perField.set(atom.field, [literal]);
    else list.push(literal);
    const value = fixedValue(literal);
    if (value !== undefined && !this.fixed.has(atom.field)) this.fixedNow(atom.field, { value, by: literal });
  }

  /** Undoes the pushes after the first `size`. */
  popTo(size: number): void {
    while (this.stack.length > size) {
      const literal = this.stack.pop() as Literal;
      this.signatures.pop();
      (this.fieldSignatures.get(literal.atom.field) as number[]).pop();
      this.truth[literal.atom.id] = -1;
      const list = this.perField.get(literal.atom.field) as Literal[];
      list.pop();
      if (list.length === 0) this.perField.delete(literal.atom.field);
      if (this.fixed.get(literal.atom.field)?.by === literal) this.fixedNow(literal.atom.field, undefined);
    }
  }

  /**
   * The atoms true under the assignment among its literals' own and those `ofFixed` lists for
   * each field a literal fixed: truthOf reads an atom's own literal and its field's fixed value
   * only, so no other atom is true. A fixed field's atoms are asked from the caller's list (the
   * atoms its trees watch, tree-stack.ts; a list that only grows), not all: a host field holds
   * thousands. One with a literal of its own that fails may be named too: the caller confirms.
   */
  trueAtoms(ofFixed: (field: string) => readonly number[]): number[] {
    const atoms: number[] = [];
    for (const literal of this.stack) if (literal.holds) atoms.push(literal.atom.id);
    for (const [field, fixed] of this.fixed) atoms.push(...this.trueByValue(field, fixed.value, ofFixed(field)));
    return atoms;
  }

  /** Per field and value: how many atoms of the caller's list were asked, and those the value makes true (the checks ask again and again). */
  private readonly byValueTrue = new Map<string, Map<string | null, { asked: number; ids: number[] }>>();

  private trueByValue(field: string, value: string | null, listed: readonly number[]): readonly number[] {
    let byValue = this.byValueTrue.get(field);
    if (byValue === undefined) this.byValueTrue.set(field, (byValue = new Map()));
    let known = byValue.get(value);
    if (known === undefined) byValue.set(value, (known = { asked: 0, ids: [] }));
    for (; known.asked < listed.length; known.asked++) {
      const id = listed[known.asked] as number;
      if (this.verdicts.value(id, value ?? undefined) === true) known.ids.push(id);
    }
    return known.ids;
  }

  /** The value a literal fixes the field to (null: absent), or undefined when none does. */
  fixedValue(field: string): string | null | undefined {
    return this.fixed.get(field)?.value;
  }

  /** The atom's truth under the assignment: given, decided by its field's fixed value, or unknown. */
  truthOf(atom: Atom): Verdict {
    const given = this.truth[atom.id] as number;
    if (given !== -1) return given === 1;
    if (this.byFixed[atom.id] === this.fixes) return TRUTHS[this.byFixedTruth[atom.id] as number] as Verdict;
    const fixed = this.fixed.get(atom.field);
    const truth = fixed === undefined ? 'undecided' : this.verdicts.value(atom.id, fixed.value === null ? undefined : fixed.value);
    this.byFixed[atom.id] = this.fixes;
    this.byFixedTruth[atom.id] = TRUTHS.indexOf(truth);
    return truth;
  }

  /** The atom whose literal gives `atom` its truth (its own, or the one that fixed its field; truthOf reads nothing else), -1 while undecided. */
  decidedBy(atom: Atom): number {
    if (this.truth[atom.id] !== -1) return atom.id;
    return this.truthOf(atom) === 'undecided' ? -1 : (this.fixed.get(atom.field) as { by: Literal }).by.atom.id;
  }

  /** Fixes the field (or frees it: undefined); every truth remembered by fixed values is forgotten. */
  private fixedNow(field: string, fixed: { value: string | null; by: Literal } | undefined): void {
    if (fixed === undefined) this.fixed.delete(field);
    else this.fixed.set(field, fixed);
    this.fixes += 1;
    if (this.fixes < 0xffffffff) return;
    this.byFixed.fill(0);
    this.fixes = 1;
  }

  atomOf(leaf: Leaf): Atom | undefined {
    return this.table.of(leaf);
  }

  leafTruth(leaf: Leaf): Verdict {
    const atom = this.table.of(leaf);
    return atom === undefined ? 'undecided' : this.truthOf(atom);
  }

  /** Three-valued truth of a condition tree under the assignment ('undecided': depends on unassigned atoms). */
  conditionsTruth(conditions: Conditions): Verdict {
    return combine(conditions.operator, conditions.children, (group) => combine(group.operator, group.children, (leaf) => this.leafTruth(leaf)));
  }

  /** conditionsTruth of the tree `atomTree` was made of: its groups and atoms in the same order, as combine() walks them. */
  treeTruth(tree: AtomTree): Verdict {
    let undecided = false;
    for (const group of tree.groups) {
      const verdict = this.groupTruth(group);
      if (verdict === 'undecided') undecided = true;
      else if (verdict !== tree.all) return verdict;
    }
    return undecided ? 'undecided' : tree.all;
  }

  groupTruth(group: AtomGroup): Verdict {
    let undecided = false;
    for (const atom of group.atoms) {
      const verdict = this.truthOf(atom);
      if (verdict === 'undecided') undecided = true;
      else if (verdict !== group.all) return verdict;
    }
    return undecided ? 'undecided' : group.all;
  }
}

export interface AtomGroup {
  all: boolean;
  atoms: Atom[];
}

/**
 * A condition tree by the atoms of its leaves, made once per distinct conditions of a search
 * (entries.ts numbers them) and kept by that number: the search asks a tree's truth hundreds of
 * thousands of times a plan, and looking its leaves up by object each time cost more than the
 * walk (an earlier version kept these by conditions object, in a map, and saved nothing).
 */
export interface AtomTree {
  all: boolean;
  groups: AtomGroup[];
}

/**
 * The tree of `conditions`, its leaves added to `table` for `rule`. `numbers`: the leafNumber of
 * each leaf, group by group (rule-keys.ts keeps them per rule object), else worked out here.
 */
export function atomTree(conditions: Conditions, table: AtomTable, rule: string, numbers?: readonly number[]): AtomTree {
  let next = 0;
  const atomOf = (leaf: Leaf): Atom => table.add(leaf, rule, numbers === undefined ? leafNumber(leaf) : (numbers[next++] as number));
  return { all: conditions.operator === '$and', groups: conditions.children.map((group) => ({ all: group.operator === '$and', atoms: group.children.map(atomOf) })) };
}

/** The truth of a leaf for a request that does not carry its field. */
export function absentTruth(leaf: Leaf): boolean {
  return MATCH_WHEN_ABSENT.has(leaf.operator);
}

/** The value a literal fixes its field to, or null for absent; undefined when it fixes none. */
function fixedValue({ atom, holds }: Literal): string | null | undefined {
  const leaf = atom.leaf;
  if ((leaf.operator === '$notExists' && holds) || (leaf.operator === '$exists' && !holds)) return null;
  if (!holds || leaf.conditionType === 'socketIps') return undefined;
  const values = leafValues(leaf);
  if ((leaf.operator === '$eq' || leaf.operator === '$in') && values.length === 1) return values[0] as string;
  return undefined;
}
