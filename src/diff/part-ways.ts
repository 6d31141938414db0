// The ways of matching grouped into parts (changed-parts.ts, overlap-groups.ts), worked out once
// for the searches of one plan. A plan's searches — the transition check's over the planner's
// order, its searches over other orders, the behaviour diff's — number the same rules in the
// same order (every list starts with the live rules, and the rules the PATCHes make are numbered
// in the order they come: the states' copies of them are written as the rule files' are), and
// the groups depend on those rules alone: only the first search groups them. Which rules changed
// is asked of each search; a search that finds the same ones as the one before gets its parts.
import { identicalInOrder } from '../semantics/canonical.js';
import type { NormalRule } from '../semantics/model.js';
import { sameIds } from './list-delta.js';
import { overlapGroups, relevantWays, waysApart, type Way } from './overlap-groups.js';

/** The groups of one numbering, by its first rule object (held weakly: a plan's rules outlive none of its searches). */
const BY_FIRST_RULE = new WeakMap<NormalRule, Grouping>();

interface Grouping {
  /** The rules by number: what the grouping was worked out from. */
  readonly rules: readonly NormalRule[];
  readonly ways: readonly Way[];
  /** overlapGroups of every way. */
  readonly groups: readonly (readonly Way[])[];
  /** The parts last worked out, and for which rules changed. */
  last?: { changed: Uint8Array; parts: Way[][] };
}

/**
 * The ways of the rules numbered `rules` in the parts a search of those whose `changed` is 1
 * looks at: a group holding a changed way, without the stable ways that can meet no changed way
 * of it, split again; groups without a changed way are left out. 'late' when the deadline came
 * first. `ways`: every way of the rules, for telling a whole list.
 */
export function partWays(rules: readonly NormalRule[], changed: Uint8Array, deadline?: number): { ways: readonly Way[]; parts: Way[][] } | 'late' {
  const grouping = groupingOf(rules);
  const last = grouping.last;
  if (last !== undefined && sameIds(last.changed, changed)) return { ways: grouping.ways, parts: last.parts };
  const parts: Way[][] = [];
  for (const group of grouping.groups) {
    if (deadline !== undefined && Date.now() > deadline) return 'late';
    if (!group.some((way) => changed[way.rule] === 1)) continue;
    const kept = relevantWays(group, changed);
    for (const part of kept.length === group.length ? [kept] : overlapGroups(kept)) {
      if (part.some((way) => changed[way.rule] === 1)) parts.push(part);
    }
  }
  grouping.last = { changed, parts };
  return { ways: grouping.ways, parts };
}

function groupingOf(rules: readonly NormalRule[]): Grouping {
  const first = rules[0];
  const known = first === undefined ? undefined : BY_FIRST_RULE.get(first);
  if (known !== undefined && sameRules(known.rules, rules)) return known;
  const ways = rules.flatMap((rule, id) => waysApart(rule, id));
  const grouping: Grouping = { rules: [...rules], ways, groups: overlapGroups(ways) };
  if (first !== undefined) BY_FIRST_RULE.set(first, grouping);
  return grouping;
}

/** The same rules, number by number, written alike (a way is a group by its index: the order of the groups matters). */
function sameRules(a: readonly NormalRule[], b: readonly NormalRule[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !identicalInOrder(a[i] as NormalRule, b[i] as NormalRule)) return false;
  return true;
}
