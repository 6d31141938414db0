// What the plan must achieve and how few requests it may use, computed independently of
// the planner for property tests.
import type { DeclaredRule, LiveRule } from '../../src/semantics/model.js';
import { sameRuleFields } from './model-server.js';
import type { Scenario } from './scenarios.js';

/** The declared rule matched to each live rule id (by pinned id, else by name), for scenarios with unique names. */
export function matchedDeclared(s: Scenario): Map<string, DeclaredRule> {
  const byName = new Map(s.live.map((r) => [r.name, r]));
  const out = new Map<string, DeclaredRule>();
  for (const d of s.declared) {
    const live = d.ruleId !== undefined ? s.live.find((r) => r.ruleId === d.ruleId) : byName.get(d.name);
    if (live !== undefined) out.set(live.ruleId, d);
  }
  return out;
}

/** Unmanaged rules stay where they are; the other slots take the managed rules in declared order. */
export function expectedOrder(s: Scenario): string[] {
  const idOfDeclared = new Map([...matchedDeclared(s)].map(([id, d]) => [d, id]));
  const managedInDeclaredOrder = s.declared.map((d) => idOfDeclared.get(d)).filter((id): id is string => id !== undefined);
  let next = 0;
  return s.live.map((r) => (s.unmanaged.has(r.ruleId) ? r.ruleId : (managedInDeclaredOrder[next++] as string)));
}

/** Rules that need at least one PATCH for their fields. */
export function needsFieldPatch(s: Scenario): Set<string> {
  const matched = matchedDeclared(s);
  const out = new Set<string>();
  for (const rule of s.live) {
    const d = matched.get(rule.ruleId);
    if (d !== undefined && !sameRuleFields(rule, d)) out.add(rule.ruleId);
    if (d === undefined && s.policy === 'pause' && rule.status === 'active') out.add(rule.ruleId);
  }
  return out;
}

/**
 * Fewest PATCH requests by breadth-first search over server states (order, rules whose
 * fields are done). One request moves one managed rule anywhere and/or sets its fields;
 * unmanaged rules are never moved (only paused in place). For n ≤ 6.
 */
export function bruteForceLowerBound(s: Scenario): number {
  const ids = s.live.map((r) => r.ruleId);
  const n = ids.length;
  const needs = needsFieldPatch(s);
  const goal = expectedOrder(s).map((id) => ids.indexOf(id)).join(',') + `|${(1 << n) - 1}`;
  const startMask = ids.reduce((mask, id, i) => (needs.has(id) ? mask : mask | (1 << i)), 0);
  const start: [number[], number] = [ids.map((_, i) => i), startMask];
  const key = ([perm, mask]: [number[], number]): string => `${perm.join(',')}|${mask}`;
  const seen = new Set([key(start)]);
  let frontier = [start];
  for (let distance = 0; frontier.length > 0; distance += 1) {
    if (frontier.some((state) => key(state) === goal)) return distance;
    const next: [number[], number][] = [];
    for (const [perm, mask] of frontier) {
      for (let from = 0; from < n; from += 1) {
        const rule = perm[from] as number;
        const movable = !s.unmanaged.has(ids[rule] as string);
        for (let to = 0; to < n; to += 1) {
          if (to !== from && !movable) continue;
          const moved = [...perm];
          moved.splice(from, 1);
          moved.splice(to, 0, rule);
          const state: [number[], number] = [moved, mask | (1 << rule)];
          const k = key(state);
          if (!seen.has(k)) {
            seen.add(k);
            next.push(state);
          }
        }
      }
    }
    frontier = next;
  }
  throw new Error('goal unreachable');
}

/**
 * n − (most rules needing no field PATCH that can stay in place), by an O(n²) DP over
 * increasing subsequences (by expected index, in live order) that contain every unmanaged rule.
 */
export function dpLowerBound(s: Scenario): number {
  const n = s.live.length;
  const expectedIndex = new Map(expectedOrder(s).map((id, i) => [id, i]));
  const seq = s.live.map((r) => expectedIndex.get(r.ruleId) as number);
  const needs = needsFieldPatch(s);
  const weight = s.live.map((r) => (needs.has(r.ruleId) ? 0 : 1));
  const pinned = s.live.map((r) => s.unmanaged.has(r.ruleId));
  // pinnedBefore[k]: unmanaged rules among the first k live rules.
  const pinnedBefore = [0];
  for (const p of pinned) pinnedBefore.push((pinnedBefore.at(-1) as number) + (p ? 1 : 0));
  const pinnedBetween = (j: number, i: number): boolean => (pinnedBefore[i] as number) - (pinnedBefore[j + 1] as number) > 0;
  const best: number[] = new Array<number>(n).fill(-Infinity);
  for (let i = 0; i < n; i += 1) {
    if (!pinnedBetween(-1, i)) best[i] = weight[i] as number;
    for (let j = 0; j < i; j += 1) {
      if ((seq[j] as number) < (seq[i] as number) && !pinnedBetween(j, i) && (best[j] as number) > -Infinity) {
        best[i] = Math.max(best[i] as number, (best[j] as number) + (weight[i] as number));
      }
    }
  }
  let kept = pinned.some(Boolean) ? -Infinity : 0;
  for (let i = 0; i < n; i += 1) if (!pinnedBetween(i, n)) kept = Math.max(kept, best[i] as number);
  return n - kept;
}

export function liveById(live: readonly LiveRule[]): Map<string, LiveRule> {
  return new Map(live.map((r) => [r.ruleId, r]));
}
