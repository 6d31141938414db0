// Why the rule at a position of a compiled rule set (semantics/program.ts) matches or does not
// match the request begun, read off the per-request view of its verdicts (program-verdicts.ts): `botrules test`
// explains a failed test with these (docs/evaluation.md, "Test files").
import type { Leaf, NormalRule } from '../semantics/model.js';
import type { ProgramSet, ProgramTree, RuleProgram } from '../semantics/program.js';
import type { ProgramVerdicts } from './program-verdicts.js';

/** A leaf that did (not) match, with where it sits in the rule's condition tree, as written. */
export interface MissedLeaf {
  group: number;
  leaf: number;
  condition: Leaf;
}

/**
 * Why the rule's conditions do not match the request begun: the leaves
 * that failed in the groups that failed. Under a root `$and` only the failing groups count (the
 * others matched); under a root `$or` every group failed. Empty when the conditions match (or
 * their match is undecided).
 */
export function missedLeaves<R extends NormalRule>(verdicts: ProgramVerdicts, program: Pick<RuleProgram<R>, 'trees'>, set: ProgramSet<R>, position: number): MissedLeaf[] {
  const { tree, rule } = compiled(program, set, position);
  if (tree === undefined || verdicts.tree(set.treeOf[position] as number) !== false) return [];
  return tree.groups.flatMap((group, g) => {
    if (verdicts.group(group) !== false) return [];
    return leavesWith(verdicts, group.leaves, false, g, rule);
  });
}

/**
 * Why a rule's conditions match the request begun: the leaves that decided it. Under a root
 * `$or` the first group that matches, under a root `$and` every group; in a group under `$and`
 * every leaf, under `$or` the first that matches. Empty when the conditions do not match (or
 * their match is undecided).
 */
export function matchedLeaves<R extends NormalRule>(verdicts: ProgramVerdicts, program: Pick<RuleProgram<R>, 'trees'>, set: ProgramSet<R>, position: number): MissedLeaf[] {
  const { tree, rule } = compiled(program, set, position);
  if (tree === undefined || verdicts.tree(set.treeOf[position] as number) !== true) return [];
  const groups = tree.groups.map((group, g) => ({ group, g })).filter(({ group }) => verdicts.group(group) === true);
  return (tree.all ? groups : groups.slice(0, 1)).flatMap(({ group, g }) => {
    const leaves = leavesWith(verdicts, group.leaves, true, g, rule);
    return group.all ? leaves : leaves.slice(0, 1);
  });
}

/** The rule at `position` of the set and its compiled tree (none for a rule that is not active). */
function compiled<R extends NormalRule>(program: Pick<RuleProgram<R>, 'trees'>, set: ProgramSet<R>, position: number): { tree: ProgramTree | undefined; rule: R } {
  return { tree: program.trees[set.treeOf[position] ?? -1], rule: set.rules[position] as R };
}

/** The group's leaves whose verdict is `wanted`, each as the rule writes it (its words, not the interned leaf's). */
function leavesWith(verdicts: ProgramVerdicts, ids: Int32Array, wanted: boolean, group: number, rule: NormalRule): MissedLeaf[] {
  const written = rule.conditions.children[group]?.children ?? [];
  const out: MissedLeaf[] = [];
  ids.forEach((id, leaf) => {
    if (verdicts.leaf(id) === wanted) out.push({ group, leaf, condition: written[leaf] as Leaf });
  });
  return out;
}
