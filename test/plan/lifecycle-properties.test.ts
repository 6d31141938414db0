// Properties of the planner with the service's create and delete (service.create,
// service.delete; docs/design.md, "Creates and deletes in the order search"), against a model
// server with list-move, list-insert and delete semantics: planning a state against itself is
// empty, the plan reaches exactly the declared state and order, it sends exactly the lower bound
// of requests (checked against a breadth-first search over server states for small lists), and
// its undo plan restores the rules' content and order (a deleted rule under a new id).
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { planApp } from '../../src/plan/planner.js';
import { restoringPlan } from '../../src/plan/undo.js';
import { reorderSteps, unitsOf } from '../../src/diff/order/units.js';
import { simulateSteps } from '../../src/semantics/list-move.js';
import type { AppPlan } from '../../src/plan/types.js';
import type { LiveRule, ServiceCapabilities, UnmanagedPolicy } from '../../src/semantics/model.js';
import { LifecycleModelServer, sameRuleFields } from './model-server.js';
import { dpLowerBound, matchedDeclared, needsFieldPatch } from './oracle.js';
import { scenarios, type Scenario } from './scenarios.js';

const BOTH: ServiceCapabilities = { create: true, delete: true };

/** A scenario with a policy the capabilities allow (`delete` only with service.delete). */
interface LifecycleScenario extends Scenario {
  lifecyclePolicy: UnmanagedPolicy;
  service: ServiceCapabilities;
}

function lifecycleScenarios(maxRules: number): fc.Arbitrary<LifecycleScenario> {
  return fc
    .tuple(scenarios({ maxRules }), fc.boolean(), fc.constantFrom<UnmanagedPolicy>('keep', 'pause', 'delete'))
    .map(([s, deletes, policy]) => {
      const service = { create: true, delete: deletes || policy === 'delete' };
      return { ...s, service, lifecyclePolicy: policy };
    });
}

function plan(s: LifecycleScenario, live: readonly LiveRule[] = s.live): AppPlan {
  const result = planApp({ app: 'default', declared: s.declared, live, unmanaged: s.lifecyclePolicy, service: s.service });
  expect(result.problems).toEqual([]);
  return result.plan;
}

/** Runs a plan's requests; returns the ids the server gave created rules, by placeholder. */
function run(server: LifecycleModelServer, appPlan: AppPlan): Map<string, string> {
  const created = new Map<string, string>();
  for (const step of appPlan.steps) {
    if (step.kind === 'create') created.set(step.ruleId, server.post(step.body));
    else if (step.kind === 'delete') server.delete(step.ruleId);
    else server.patch(step.ruleId, step.body);
  }
  return created;
}

/** The declared rules no live rule matches, in declared order (the scenarios name them "not live k"). */
function newRules(s: Scenario): string[] {
  return s.declared.filter((d) => d.name.startsWith('not live')).map((d) => d.name);
}

/**
 * The names in the order the plan must reach, written from the contract: deleted rules leave,
 * unmanaged ones keep their slots, the managed slots take the matched rules in declared order,
 * each followed by the new rules declared after it (new rules before any matched one go right
 * before the first; with none matched, at the top).
 */
function expectedNames(s: LifecycleScenario): string[] {
  const matched = matchedDeclared(s);
  const matchedNames = new Map([...matched].map(([id, d]) => [d.name, id]));
  const leading: string[] = [];
  const after = new Map<string, string[]>();
  let last: string | undefined;
  for (const d of s.declared) {
    if (matchedNames.has(d.name)) last = d.name;
    else if (last === undefined) leading.push(d.name);
    else after.set(last, [...(after.get(last) ?? []), d.name]);
  }
  const declaredMatched = s.declared.filter((d) => matchedNames.has(d.name)).map((d) => d.name);
  const out: string[] = declaredMatched.length === 0 ? [...leading] : [];
  let next = 0;
  for (const rule of s.live) {
    if (s.unmanaged.has(rule.ruleId)) {
      if (s.lifecyclePolicy !== 'delete') out.push(rule.name);
      continue;
    }
    if (next === 0) out.push(...leading);
    const name = declaredMatched[next++] as string;
    out.push(name, ...(after.get(name) ?? []));
  }
  return out;
}

/** C + D + the fewest PATCHes over the rules that stay (the bound docs/design.md derives). */
function lowerBound(s: LifecycleScenario): number {
  const deleting = s.lifecyclePolicy === 'delete';
  const staying = s.live.filter((r) => !(deleting && s.unmanaged.has(r.ruleId))).map((r, priority) => ({ ...r, priority }));
  const reduced: Scenario = {
    live: staying,
    declared: s.declared.filter((d) => !d.name.startsWith('not live')),
    policy: s.lifecyclePolicy === 'pause' ? 'pause' : 'keep',
    unmanaged: new Set([...s.unmanaged].filter((id) => staying.some((r) => r.ruleId === id))),
  };
  const deletes = deleting ? s.unmanaged.size : 0;
  return newRules(s).length + deletes + dpLowerBound(reduced);
}

/**
 * Fewest requests by breadth-first search over server states (the list of names, and which
 * rules have their fields right). One request PATCHes a present managed rule (anywhere, fields
 * set), POSTs a new rule anywhere, DELETEs an unmanaged rule (policy delete), or pauses an
 * unmanaged rule in place (policy pause). For very small lists.
 */
function bruteForce(s: LifecycleScenario): number {
  const goal = expectedNames(s).join('|');
  const needs = needsFieldPatch({ ...s, policy: s.lifecyclePolicy === 'pause' ? 'pause' : 'keep' });
  const unmanagedNames = new Set(s.live.filter((r) => s.unmanaged.has(r.ruleId)).map((r) => r.name));
  const pending = new Set(s.live.filter((r) => needs.has(r.ruleId)).map((r) => r.name));
  const creatable = newRules(s);
  const key = (list: readonly string[], todo: ReadonlySet<string>): string => `${list.join('|')}#${[...todo].sort().join('|')}`;
  type State = { list: string[]; todo: Set<string> };
  const start: State = { list: s.live.map((r) => r.name), todo: pending };
  const seen = new Set([key(start.list, start.todo)]);
  let frontier = [start];
  for (let distance = 0; frontier.length > 0; distance += 1) {
    if (frontier.some((state) => state.todo.size === 0 && state.list.join('|') === goal)) return distance;
    const next: State[] = [];
    const visit = (list: string[], todo: Set<string>): void => {
      const k = key(list, todo);
      if (seen.has(k)) return;
      seen.add(k);
      next.push({ list, todo });
    };
    for (const { list, todo } of frontier) {
      const done = (name: string): Set<string> => new Set([...todo].filter((n) => n !== name));
      list.forEach((name, from) => {
        if (unmanagedNames.has(name)) {
          if (s.lifecyclePolicy === 'delete') visit(list.filter((n) => n !== name), todo);
          if (todo.has(name)) visit(list, done(name));
          return;
        }
        for (let to = 0; to < list.length; to += 1) {
          const moved = list.filter((n) => n !== name);
          moved.splice(to, 0, name);
          visit(moved, done(name));
        }
        void from;
      });
      for (const name of creatable.filter((n) => !list.includes(n))) {
        for (let at = 0; at <= list.length; at += 1) visit([...list.slice(0, at), name, ...list.slice(at)], todo);
      }
    }
    frontier = next;
  }
  throw new Error('goal unreachable');
}

describe('planner properties with create and delete (model server: list-move, list-insert, delete)', () => {
  test('planning the live rules against themselves is empty, with both capabilities on', () => {
    fc.assert(
      fc.property(scenarios({ maxRules: 60, edits: false, unmanaged: false }), (s) => {
        const liveIndex = new Map(s.live.map((r, i) => [r.name, i]));
        const inLiveOrder = [...s.declared].sort((a, b) => (liveIndex.get(a.name) as number) - (liveIndex.get(b.name) as number));
        const result = planApp({ app: 'default', declared: inLiveOrder, live: s.live, unmanaged: 'delete', service: BOTH });
        expect(result.problems).toEqual([]);
        expect(result.plan.steps).toEqual([]);
      }),
      { numRuns: 80 },
    );
  });

  test('applying the plan yields the declared state and order, and re-planning is empty', () => {
    fc.assert(
      fc.property(lifecycleScenarios(120), (s) => {
        const server = new LifecycleModelServer(s.live);
        const planned = plan(s);
        expect(planned.blocked).toEqual([]);
        for (const step of planned.steps) expect('ruleId' in step.body).toBe(false);
        run(server, planned);
        const after = server.list();
        expect(after.map((r) => r.name)).toEqual(expectedNames(s));
        const declaredByName = new Map(s.declared.map((d) => [d.name, d]));
        const before = new Map(s.live.map((r) => [r.ruleId, r]));
        const wrong = after.filter((rule) => {
          const declared = declaredByName.get(rule.name);
          if (declared !== undefined && !s.unmanaged.has(rule.ruleId)) return !sameRuleFields(rule, declared);
          const was = before.get(rule.ruleId) as LiveRule;
          const status = s.lifecyclePolicy === 'pause' ? 'paused' : was.status;
          return !sameRuleFields(rule, { ...was, status });
        });
        expect(wrong).toEqual([]);
        // The created rules are live now: declared by name, they match, and nothing is left to do.
        expect(plan(s, after).steps).toEqual([]);
      }),
      { numRuns: 120 },
    );
  });

  test('the request count (PATCH + POST + DELETE) is C + D + the fewest PATCHes over the rules that stay', () => {
    fc.assert(
      fc.property(lifecycleScenarios(150), (s) => {
        const planned = plan(s);
        const server = new LifecycleModelServer(s.live);
        run(server, planned);
        expect(server.requests).toBe(planned.steps.length);
        expect(planned.steps).toHaveLength(lowerBound(s));
        expect(planned.steps.filter((step) => step.kind === 'create')).toHaveLength(newRules(s).length);
      }),
      { numRuns: 150 },
    );
  });

  test('the lower bound is the fewest requests a breadth-first search over server states finds (n ≤ 4)', () => {
    fc.assert(
      fc.property(lifecycleScenarios(4), (s) => {
        expect(lowerBound(s)).toBe(bruteForce(s));
        expect(plan(s).steps).toHaveLength(bruteForce(s));
      }),
      { numRuns: 120 },
    );
  });

  test('applying a plan and then its undo plan restores every rule\'s content and order (re-created rules under new ids)', () => {
    fc.assert(
      fc.property(lifecycleScenarios(80), (s) => {
        const forward = plan(s);
        const server = new LifecycleModelServer(s.live);
        const created = run(server, forward);
        // The undo is planned from the rules as the server left them (their new ids), as apply plans it.
        const undo = restoringPlan('default', s.live, server.list(), s.service);
        for (const step of undo.steps) {
          if (step.kind === 'delete') expect([...created.values()]).toContain(step.ruleId);
          if (step.kind === 'create') expect(s.live.map((r) => r.name)).toContain(step.name);
        }
        const pauses = undo.steps.filter((step) => step.kind === 'pause-unmanaged');
        expect(pauses).toEqual(s.service.delete ? [] : pauses);
        run(server, undo);
        const restored = server.list();
        const withoutIds = (rules: readonly LiveRule[]): unknown[] => rules.map(({ ruleId: _id, ...rest }) => rest);
        if (s.service.delete) {
          expect(withoutIds(restored)).toEqual(withoutIds(s.live));
          // Rules never deleted keep their ids; re-created ones have new ones.
          const kept = restored.filter((r) => s.live.some((l) => l.ruleId === r.ruleId));
          const deletedByForward = forward.steps.filter((step) => step.kind === 'delete').length;
          expect(restored.length - kept.length).toBe(deletedByForward);
        } else {
          // Without delete, the created rules stay, paused, and the others are as they were.
          const original = restored.filter((r) => ![...created.values()].includes(r.ruleId));
          expect(withoutIds(original.map((r, priority) => ({ ...r, priority })))).toEqual(withoutIds(s.live));
          for (const rule of restored.filter((r) => [...created.values()].includes(r.ruleId))) expect(rule.status).toBe('paused');
        }
      }),
      { numRuns: 80 },
    );
  });

  test('any order of the steps (the transition check may choose one) reaches the same rules, creates and deletes included', () => {
    fc.assert(
      fc.property(lifecycleScenarios(60).chain((s) => fc.tuple(fc.constant(s), fc.shuffledSubarray(unitsOf(plan(s).steps), { minLength: plan(s).steps.length }))), ([s, units]) => {
        const planned = plan(s);
        const reordered = reorderSteps(s.live, planned.steps, units);
        expect(reordered).toBeDefined();
        expect(reordered).toHaveLength(planned.steps.length);
        expect(simulateSteps(s.live, reordered ?? [])).toEqual(simulateSteps(s.live, planned.steps));
        // And on the model server, which knows nothing of the planner's simulation.
        const server = new LifecycleModelServer(s.live);
        run(server, { ...planned, steps: reordered ?? [] });
        expect(server.list().map((r) => r.name)).toEqual(expectedNames(s));
      }),
      { numRuns: 120 },
    );
  });

  test('without the capabilities the plan is the one planned before them', () => {
    fc.assert(
      fc.property(scenarios({ maxRules: 80 }), (s) => {
        const before = planApp({ app: 'default', declared: s.declared, live: s.live, unmanaged: s.policy });
        const off = planApp({ app: 'default', declared: s.declared, live: s.live, unmanaged: s.policy, service: { create: false, delete: false } });
        expect(off).toEqual(before);
        expect(off.plan.steps.every((step) => step.kind !== 'create' && step.kind !== 'delete')).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

