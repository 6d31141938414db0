// A rule set compiled once (docs/replay.md, "Throughput"): every distinct leaf and condition tree
// of the rule sets compared (live, declared, shadow rules active) kept once, under the leaf key
// of canonical.ts, and each set as the positions of its rules that can decide. The back ends are
// generated from this one representation: the JavaScript evaluator of replay
// (replay/verdicts.ts) and the SQL emitter (replay/sql/), so both decide the same
// leaves, trees and rules; the reference evaluator (src/evaluate/) is the oracle both are tested against.
import { leafKey } from './canonical.js';
import { fieldName, requestField, type RequestField } from './fields.js';
import type { Conditions, Leaf, NormalRule } from './model.js';

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
}

export interface ProgramTree {
  all: boolean;
  groups: ProgramGroup[];
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
  const leaves: ProgramLeaf[] = [];
  const trees: ProgramTree[] = [];
  const leafIds = new Map<string, number>();
  const treeIds = new Map<string, number>();
  const leafOf = (leaf: Leaf): number => {
    const key = leafKey(leaf);
    let id = leafIds.get(key);
    if (id === undefined) {
      id = leaves.length;
      leafIds.set(key, id);
      const field = requestField(leaf);
      leaves.push({ leaf, field, name: field === 'headers' ? fieldName(leaf).toLowerCase() : fieldName(leaf) });
    }
    return id;
  };
  const treeOf = (conditions: Conditions): number => {
    const groups = conditions.children.map((group) => ({ all: group.operator === '$and', leaves: Int32Array.from(group.children, leafOf) }));
    const key = JSON.stringify([conditions.operator, groups.map((group) => [group.all, [...group.leaves]])]);
    let id = treeIds.get(key);
    if (id === undefined) {
      id = trees.length;
      treeIds.set(key, id);
      trees.push({ all: conditions.operator === '$and', groups });
    }
    return id;
  };
  return { leaves, trees, sets: sets.map((rules) => compileSet(rules, treeOf)) };
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
