// Why the rule at a position of a compiled rule set (semantics/program.ts) matches, does not
// match or is undecided for the request begun, read off the per-request view
// (program-verdicts.ts): `botrules test` explains a failed test with these (docs/evaluation.md,
// "Test files") and replay names the patterns that left a rule undecided (docs/replay.md, "The report").
import type { Leaf, NormalRule } from '../semantics/model.js';
import type { ProgramSet, RuleProgram } from '../semantics/program.js';
import { leafPatterns } from './leaf.js';
import type { ProgramVerdicts } from './program-verdicts.js';
import { fieldOf } from './request.js';

/** A leaf that did (not) match, with where it sits in the rule's condition tree, as written. */
export interface MissedLeaf {
  group: number;
  leaf: number;
  condition: Leaf;
}

type Program = Pick<RuleProgram<NormalRule>, 'trees'>;

/**
 * The leaves that failed in the groups that failed, when the rule's conditions do not match
 * (under a root `$and` the other groups matched; under `$or` every group failed); else none.
 */
export function missedLeaves<R extends NormalRule>(verdicts: ProgramVerdicts, program: Program, set: ProgramSet<R>, position: number): MissedLeaf[] {
  return leavesWith(verdicts, program, set, position, false).flat();
}

/**
 * The leaves that decided a match: under a root `$or` the first group that matches, under `$and`
 * every group; in a group under `$and` every leaf, under `$or` the first that matches. None
 * when the conditions do not match (or their match is undecided).
 */
export function matchedLeaves<R extends NormalRule>(verdicts: ProgramVerdicts, program: Program, set: ProgramSet<R>, position: number): MissedLeaf[] {
  const tree = program.trees[set.treeOf[position] ?? -1];
  const groups = leavesWith(verdicts, program, set, position, true);
  // A true group has a true leaf unless it is an empty `$and`, which has nothing to cut.
  return (tree?.all === true ? groups : groups.slice(0, 1)).flatMap((leaves) => (tree?.groups[leaves[0]?.group ?? -1]?.all === false ? leaves.slice(0, 1) : leaves));
}

/** When the tree's verdict is `wanted`, per group with that verdict its leaves with it, each as the rule writes it. */
function leavesWith<R extends NormalRule>(verdicts: ProgramVerdicts, program: Program, set: ProgramSet<R>, position: number, wanted: boolean): MissedLeaf[][] {
  const id = set.treeOf[position] ?? -1;
  const tree = program.trees[id];
  if (tree === undefined || verdicts.tree(id) !== wanted) return [];
  const written = (set.rules[position] as R).conditions.children;
  return tree.groups.flatMap((group, g) => {
    if (verdicts.group(group) !== wanted) return [];
    const leaves: MissedLeaf[] = [];
    group.leaves.forEach((leaf, l) => {
      if (verdicts.leaf(leaf) === wanted) leaves.push({ group: g, leaf: l, condition: written[g]?.children[l] as Leaf });
    });
    return [leaves];
  });
}

/** A pattern that ran out of its time budget on the value the request carries, and its leaf as the rule writes it. */
export interface UndecidedPattern {
  leaf: Leaf;
  pattern: string;
  value: string;
}

/**
 * The patterns of the rule at `position` that ran out of time on the request begun, leaf by leaf
 * as the rule writes them. A leaf the engine found false has none; every pattern of any other
 * leaf is asked, and patterns remember their answers (pattern.ts): nothing runs twice.
 */
export function undecidedPatterns<R extends NormalRule>(verdicts: ProgramVerdicts, program: Program, set: ProgramSet<R>, position: number): UndecidedPattern[] {
  const tree = program.trees[set.treeOf[position] ?? -1];
  const written = (set.rules[position] as R).conditions.children;
  const request = verdicts.current();
  return (tree?.groups ?? []).flatMap((group, g) => Array.from(group.leaves, (id, l) => {
    const leaf = written[g]?.children[l] as Leaf;
    const value = fieldOf(request, leaf);
    if (value === undefined || verdicts.leaf(id) === false) return [];
    return leafPatterns(leaf, verdicts.options).filter((pattern) => pattern.test(value) === 'undecided').map((pattern) => ({ leaf, pattern: pattern.source, value }));
  }).flat());
}
