// The states the transition check searches (src/diff/order/states.ts) are the states a
// list-move server passes through: for random small plans, each state holds the rules of
// simulateSteps after as many PATCH requests, in its order (priorities aside, which the search
// does not read), and a PATCH that changes only a description leaves the very same list.
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { StateWalk, statesAlong } from '../../src/diff/order/states.js';
import { planApp } from '../../src/plan/planner.js';
import { simulateSteps, type Patch } from '../../src/semantics/list-move.js';
import type { LiveRule } from '../../src/semantics/model.js';
import { smallPlans } from './transition-support.js';
import { live as liveRule } from '../helpers/rules.js';

const withoutPriority = (rules: readonly LiveRule[]) => rules.map(({ priority: _p, ...rule }) => rule);

describe('statesAlong', () => {
  test('every state is the simulated state after as many PATCH requests', () => {
    fc.assert(
      fc.property(smallPlans(6), ({ live, declared }) => {
        const { plan } = planApp({ app: 'default', declared, live, unmanaged: 'keep' });
        const states = [...statesAlong(live, plan.steps)];
        expect(states).toHaveLength(plan.steps.length + 1);
        states.forEach((state, sent) => expect(withoutPriority(state)).toEqual(withoutPriority(simulateSteps(live, plan.steps.slice(0, sent)))));
      }),
      { numRuns: 200 },
    );
  });

  test('a description-only PATCH shares the list; any other copies only the rule it changes', () => {
    const live: LiveRule[] = ['a', 'b', 'c'].map((name, priority) => liveRule({
      ruleId: `id-${name}`, priority, name, description: '', status: 'active', actions: ['hardBlock'],
      conditions: { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$eq', value: `/${name}` }] }] },
    }));
    const states = [...statesAlong(live, [
      { ruleId: 'id-b', name: 'b', body: { description: 'why' } },
      { ruleId: 'id-c', name: 'c', body: { actions: ['allow'] } },
      { ruleId: 'id-a', name: 'a', body: { priority: 2 } },
    ])];
    expect(states[1]).toBe(states[0]);
    expect(states[2]).not.toBe(states[1]);
    expect(states[2]?.[0]).toBe(live[0]);
    expect(states[2]?.[2]).not.toBe(live[2]);
    expect(states[2]?.[2]?.actions).toEqual(['allow']);
    expect(states[3]?.map((rule) => rule.name)).toEqual(['b', 'c', 'a']);
    expect(live[2]?.actions).toEqual(['hardBlock']);
  });

  test('the walk copies the list only for a state asked for after a PATCH changed it', () => {
    const live: LiveRule[] = ['a', 'b', 'c'].map((name, priority) => liveRule({
      ruleId: `id-${name}`, priority, name, description: '', status: 'active', actions: ['hardBlock'],
      conditions: { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$eq', value: `/${name}` }] }] },
    }));
    const walk = new StateWalk(live);
    const start = walk.state();
    expect(walk.state()).toBe(start);
    walk.send({ ruleId: 'id-b', name: 'b', body: { description: 'why' } });
    expect(walk.state()).toBe(start);
    walk.send({ ruleId: 'id-a', name: 'a', body: { priority: 2 } });
    walk.send({ ruleId: 'id-c', name: 'c', body: { priority: 0 } });
    const moved = walk.state();
    expect(moved).not.toBe(start);
    expect(moved.map((rule) => rule.name)).toEqual(['c', 'b', 'a']);
    // The states handed out before are not changed by the PATCHes after them.
    expect(start.map((rule) => rule.name)).toEqual(['a', 'b', 'c']);
    expect(walk.state()).toBe(moved);
  });

  test('walks of the same live rules share their start, and the PATCHes of one walk do not reach another', () => {
    const ids = ['id-a', 'id-b', 'id-c', 'id-d'];
    const rule = (ruleId: string, name: string, priority: number): LiveRule => liveRule({
      ruleId, priority, name, description: '', status: 'active', actions: ['hardBlock'],
      conditions: { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$eq', value: `/${name}` }] }] },
    });
    const patch = fc.record({ walk: fc.nat(1), kind: fc.constantFrom('update', 'move', 'create', 'delete'), id: fc.constantFrom(...ids), to: fc.nat(5), n: fc.nat(99) });
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom(...ids), { minLength: 1, maxLength: 4 }), fc.array(patch, { maxLength: 12 }), (liveIds, wanted) => {
        // Listed out of priority order, so the start is a sorted list the walks share.
        const live = liveIds.map((id, index) => rule(id, `r${index}`, liveIds.length - index));
        const walks = [new StateWalk(live), new StateWalk(live)];
        expect(walks[1]?.state()).toBe(walks[0]?.state());
        const sent: Patch[][] = [[], []];
        for (const { walk, kind, id, to, n } of wanted) {
          const next: Patch = kind === 'create'
            ? { kind: 'create', ruleId: id, name: `new ${n}`, body: { priority: to, name: `new ${n}`, status: 'active', actions: ['allow'], conditions: rule(id, `new${n}`, 0).conditions } }
            : kind === 'delete' ? { kind: 'delete', ruleId: id, name: id, body: {} } : { ruleId: id, name: id, body: kind === 'move' ? { priority: to } : { actions: [n % 2 === 0 ? 'allow' : 'blockWithChallenge'] } };
          if (next.kind !== 'create' && !simulateSteps(live, sent[walk] as Patch[]).some((listed) => listed.ruleId === id)) continue;
          walks[walk]?.send(next);
          sent[walk]?.push(next);
          walks.forEach((other, index) => expect(withoutPriority(other.state())).toEqual(withoutPriority(simulateSteps(live, sent[index] as Patch[]))));
        }
        // A walk started after the others' PATCHes starts from the live rules.
        expect(withoutPriority(new StateWalk(live).state())).toEqual(withoutPriority(simulateSteps(live, [])));
      }),
      { numRuns: 500 },
    );
  });

  test('a rule PATCHed again after an update, a move, a create or a delete, or sharing its id with another, is the one simulateSteps changes', () => {
    // Ids from a small pool, so PATCHes meet the rules earlier PATCHes replaced, created or deleted, and lists hold an id twice.
    const ids = ['id-a', 'id-b', 'id-c', 'id-d'];
    const rule = (ruleId: string, name: string, priority: number): LiveRule => liveRule({
      ruleId, priority, name, description: '', status: 'active', actions: ['hardBlock'],
      conditions: { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$eq', value: `/${name}` }] }] },
    });
    const patch = fc.record({ kind: fc.constantFrom('update', 'move', 'create', 'delete'), id: fc.constantFrom(...ids), to: fc.nat(5), n: fc.nat(99) });
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ids), { minLength: 1, maxLength: 5 }), fc.array(patch, { maxLength: 12 }), (liveIds, wanted) => {
        const live = liveIds.map((id, priority) => rule(id, `r${priority}`, priority));
        const walk = new StateWalk(live);
        const sent: Patch[] = [];
        for (const { kind, id, to, n } of wanted) {
          const next: Patch = kind === 'create'
            ? { kind: 'create', ruleId: id, name: `new ${n}`, body: { priority: to, name: `new ${n}`, status: 'active', actions: ['allow'], conditions: rule(id, `new${n}`, 0).conditions } }
            : kind === 'delete' ? { kind: 'delete', ruleId: id, name: id, body: {} } : { ruleId: id, name: id, body: kind === 'move' ? { priority: to } : { actions: [n % 2 === 0 ? 'allow' : 'blockWithChallenge'] } };
          // A PATCH of a rule no longer listed is refused by both alike.
          if (next.kind !== 'create' && !simulateSteps(live, sent).some((listed) => listed.ruleId === id)) continue;
          walk.send(next);
          sent.push(next);
          expect(withoutPriority(walk.state())).toEqual(withoutPriority(simulateSteps(live, sent)));
        }
      }),
      { numRuns: 500 },
    );
  });
});
