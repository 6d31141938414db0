// A rule set compiled once (docs/design.md, "One rule engine"): every distinct leaf, group and
// condition tree of the rule sets compared kept once, a leaf under the leaf key of
// canonical.ts, and each set as the positions of its rules that can decide. Everything that
// decides or reasons about requests works on this one representation: the JavaScript back end
// (evaluate/program-verdicts.ts) that replay runs and the analysis and the behaviour diff ask, the SQL
// emitter (replay/sql/), the analysis' interned rules (validate/interned.ts) and the diff's
// atoms (diff/atoms.ts). The reference evaluator (src/evaluate/) is the oracle they are tested against.
import { leafKey } from './canonical.js';
import { fieldName, requestField, type RequestField } from './fields.js';
import type { Conditions, Group, Leaf, NormalRule } from './model.js';

export interface ProgramLeaf {
  leaf: Leaf;
  /** The request field it reads, and for headers, query and custom parameters the name (headers lower-case). */
  field: RequestField;
  name: string;
}

export interface ProgramGroup {
  all: boolean;
  /** Leaf ids. */
  leaves: Int32Array;
  /** The group made of the interned leaves: one object per distinct group, so what is worked out from it can be remembered by object. */
  group: Group;
}

export interface ProgramTree {
  all: boolean;
  /** Shared with every tree that holds the same group. */
  groups: ProgramGroup[];
  /** The conditions made of the interned groups and leaves. */
  conditions: Conditions;
}

export interface ProgramSet<R extends NormalRule> {
  rules: readonly R[];
  /** Each rule's tree id by position; -1 for a rule that is not active. */
  treeOf: Int32Array;
  /**
   * Positions (ascending) of the active rules that can decide: only the first active rule with a
   * given tree, since a later one has the same verdict and is reached only when that one did not decide.
   */
  reachable: number[];
}

export interface RuleProgram<R extends NormalRule> {
  leaves: ProgramLeaf[];
  trees: ProgramTree[];
  sets: ProgramSet<R>[];
}

/** The rule sets (each in priority order) compiled together: leaves and trees shared across them. */
export function compileProgram<R extends NormalRule>(sets: readonly (readonly R[])[]): RuleProgram<R> {
  const builder = new ProgramBuilder();
  const compiled = sets.map((rules) => builder.set(rules));
  return { leaves: builder.leaves, trees: builder.trees, sets: compiled };
}

/**
 * Per leaf object: the number of its canonical key, the same number in every builder of the
 * process (numbered in the order keys are first seen). The behaviour diff's searches (one per
 * changed part and rule order of a plan, and the policy checks) intern the same rule objects
 * again and again: a builder finds a leaf by this number, not by its key string. Rules in
 * normal form are not changed in place (a changed rule is a copy), so a leaf's number stays its
 * number. The keys are held for the process: each is held anyway as long as a leaf with it lives.
 */
const LEAF_NUMBERS = new WeakMap<Leaf, number>();
const KEY_NUMBERS = new Map<string, number>();

export function leafNumber(leaf: Leaf): number {
  let number = LEAF_NUMBERS.get(leaf);
  if (number === undefined) {
    const key = leafKey(leaf);
    number = KEY_NUMBERS.get(key);
    if (number === undefined) KEY_NUMBERS.set(key, (number = KEY_NUMBERS.size));
    LEAF_NUMBERS.set(leaf, number);
  }
  return number;
}

/**
 * Interns leaves, groups and condition trees as they are added: one id and one object per
 * distinct leaf (by leafKey), per group (operator and leaves in order) and per tree (operator
 * and groups in order), numbered in order of first use.
 */
export class ProgramBuilder {
  readonly leaves: ProgramLeaf[] = [];
  readonly trees: ProgramTree[] = [];
  /** Leaf ids by leafNumber. */
  private readonly leafIds = new Map<number, number>();
  private readonly groups = new Map<string, ProgramGroup>();
  private readonly treeIds = new Map<string, number>();

  /** The leaf's id, adding it when no leaf with its meaning was added before; `number` is its leafNumber, when the caller keeps it. */
  leaf(leaf: Leaf, number = leafNumber(leaf)): number {
    let id = this.leafIds.get(number);
    if (id === undefined) {
      id = this.leaves.length;
      this.leafIds.set(number, id);
      const field = requestField(leaf);
      this.leaves.push({ leaf, field, name: field === 'headers' ? fieldName(leaf).toLowerCase() : fieldName(leaf) });
    }
    return id;
  }

  /**
   * The id of the leaf added with the leaf's meaning, if any: by its number, which each leaf
   * object works out once. No map of leaf objects per builder: the behaviour diff builds one per search,
   * and such a map (weak, by object) was a tenth of the memory a search's set-up held.
   */
  find(leaf: Leaf): number | undefined {
    return this.leafIds.get(leafNumber(leaf));
  }

  /** The tree's id, adding it (and its groups and leaves) when it is new. */
  tree(conditions: Conditions): number {
    const groups = conditions.children.map((group) => this.group(group));
    const key = `${conditions.operator}|${groups.map(({ key }) => key).join('|')}`;
    let id = this.treeIds.get(key);
    if (id === undefined) {
      id = this.trees.length;
      this.treeIds.set(key, id);
      const shared = groups.map(({ shared }) => shared);
      this.trees.push({ all: conditions.operator === '$and', groups: shared, conditions: { operator: conditions.operator, children: shared.map(({ group }) => group) } });
    }
    return id;
  }

  /** The rule set (in priority order) compiled: its rules' trees added, and the positions of those that can decide. */
  set<R extends NormalRule>(rules: readonly R[]): ProgramSet<R> {
    return compileSet(rules, (conditions) => this.tree(conditions));
  }

  private group(group: Group): { shared: ProgramGroup; key: string } {
    const leaves = Int32Array.from(group.children, (leaf) => this.leaf(leaf));
    const key = `${group.operator} ${leaves.join(' ')}`;
    let shared = this.groups.get(key);
    if (shared === undefined) {
      const children = Array.from(leaves, (id) => (this.leaves[id] as ProgramLeaf).leaf);
      this.groups.set(key, (shared = { all: group.operator === '$and', leaves, group: { operator: group.operator, children } }));
    }
    return { shared, key };
  }
}

function compileSet<R extends NormalRule>(rules: readonly R[], treeOf: (conditions: Conditions) => number): ProgramSet<R> {
  const trees = new Int32Array(rules.length).fill(-1);
  const seen = new Set<number>();
  const reachable: number[] = [];
  rules.forEach((rule, position) => {
    if (rule.status !== 'active') return;
    const tree = treeOf(rule.conditions);
    trees[position] = tree;
    if (seen.has(tree)) return;
    seen.add(tree);
    reachable.push(position);
  });
  return { rules, treeOf: trees, reachable };
}
