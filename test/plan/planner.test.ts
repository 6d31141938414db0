import { describe, expect, test } from '@jest/globals';
import { planApp } from '../../src/plan/planner.js';
import { Plan } from '../../src/plan/plan-value.js';
import { planDocument } from '../../src/render/plan/plan-file.js';
import { isMove, positionChange } from '../../src/plan/types.js';
import { conditionsFor, declaredFromLive, declaredRules, idOf, liveRules, rule } from './fixtures.js';
import { ModelServer } from './model-server.js';
import { normaliseRule } from '../../src/semantics/normalise.js';

const base = { app: 'default', unmanaged: 'keep' as const };

function namesInOrder(server: ModelServer): string[] {
  return server.list().map((r) => r.name);
}

describe('matching', () => {
  test('a ruleId that is not live is an error at the declared rule', () => {
    const live = liveRules([rule('a')]);
    const declared = declaredRules([rule('a', { ruleId: '3f2a-missing' })]);
    const { problems, plan } = planApp({ ...base, declared, live });
    expect(problems).toEqual([
      {
        file: 'rules/10-main.yaml',
        line: 2,
        col: 5,
        message:
          'ruleId 3f2a-missing of rule "a" does not exist live (deleted in the console?): remove the ruleId to match by name, or re-import',
      },
    ]);
    expect(plan.steps).toEqual([]);
  });

  test('two live rules with the declared name: the error names both ids and suggests pinning', () => {
    const live = liveRules([rule('dup', { ruleId: 'id-1' }), rule('dup', { ruleId: 'id-2' })]);
    const { problems } = planApp({ ...base, declared: declaredRules([rule('dup')]), live });
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toContain('(id-1, id-2)');
    expect(problems[0]?.message).toContain('ruleId: id-1');
  });

  test('two declared rules matching one live rule is an error at the second', () => {
    const live = liveRules([rule('old')]);
    const declared = declaredRules([rule('old'), rule('new', { ruleId: idOf('old') })]);
    const { problems } = planApp({ ...base, declared, live });
    expect(problems).toHaveLength(1);
    expect(problems[0]?.line).toBe(12);
    expect(problems[0]?.message).toContain('rules/10-main.yaml:2:5');
    expect(problems[0]?.message).toContain(`(${idOf('old')})`);
  });

  test('a pinned ruleId renames the live rule', () => {
    const live = liveRules([rule('old')]);
    const { plan, problems } = planApp({ ...base, declared: declaredRules([rule('new', { ruleId: idOf('old'), conditions: conditionsFor('old') })]), live });
    expect(problems).toEqual([]);
    expect(plan.steps).toEqual([
      { ruleId: idOf('old'), name: 'new', kind: 'update', body: { name: 'new' }, changes: [{ field: 'name', before: 'old', after: 'new' }] },
    ]);
  });

  test('a declared rule with no live match is blocked, and a plan file says why', () => {
    const live = liveRules([rule('a')]);
    const { plan, problems } = planApp({ ...base, declared: declaredRules([rule('a'), rule('brand new')]), live });
    expect(problems).toEqual([]);
    expect(plan.blocked).toEqual([
      {
        name: 'brand new',
        source: { file: 'rules/10-main.yaml', line: 12, col: 5 },
        // Where to create it in the console: below the declared rule before it.
        position: 2,
        below: 'a',
        // What it will do once created: the reviewer's table and caution name it.
        actions: ['hardBlock'],
      },
    ]);
    expect(plan.steps).toEqual([]);
    // The file's words, in the file's order of keys.
    expect(JSON.stringify(planDocument(new Plan([plan])).apps[0]?.blocked)).toBe(JSON.stringify([{
      name: 'brand new',
      reason: 'no live rule has this name, and the API cannot create rules',
      source: { file: 'rules/10-main.yaml', line: 12, col: 5 },
      actions: ['hardBlock'],
      position: 2,
      below: 'a',
    }]));
  });
});

describe('unmanaged policies', () => {
  const live = liveRules([rule('u1'), rule('m1'), rule('u2', { status: 'paused' }), rule('m2')]);
  const declared = declaredRules([rule('m1'), rule('m2')]);

  test('keep lists unmanaged rules and sends nothing', () => {
    const { plan, problems } = planApp({ ...base, declared, live });
    expect(problems).toEqual([]);
    expect(plan.steps).toEqual([]);
    expect(plan.unmanaged).toEqual([
      { ruleId: idOf('u1'), name: 'u1', status: 'active' },
      { ruleId: idOf('u2'), name: 'u2', status: 'paused' },
    ]);
  });

  test('pause pauses the active unmanaged rules in place', () => {
    const { plan } = planApp({ ...base, unmanaged: 'pause', declared, live });
    expect(plan.steps).toEqual([
      { ruleId: idOf('u1'), name: 'u1', kind: 'pause-unmanaged', body: { status: 'paused' }, changes: [{ field: 'status', before: 'active', after: 'paused' }] },
    ]);
  });

  test('fail reports the unmanaged rules at the policy location', () => {
    const { problems } = planApp({
      ...base,
      unmanaged: 'fail',
      declared,
      live,
      policySource: { file: 'botrules.yaml', line: 1, col: 1 },
    });
    expect(problems).toEqual([
      expect.objectContaining({ file: 'botrules.yaml', line: 1, col: 1, message: expect.stringContaining(`"u1" (${idOf('u1')}), "u2" (${idOf('u2')})`) }),
    ]);
  });

  test('unmanaged rules keep their positions; managed rules fill the others in declared order', () => {
    const liveOrder = liveRules([rule('a'), rule('u1'), rule('b'), rule('c'), rule('u2')]);
    const { plan } = planApp({ ...base, declared: declaredRules([rule('c'), rule('b'), rule('a')]), live: liveOrder });
    const server = new ModelServer(liveOrder);
    for (const step of plan.steps) server.patch(step.ruleId, step.body);
    expect(namesInOrder(server)).toEqual(['c', 'u1', 'b', 'a', 'u2']);
    expect(plan.steps.every((s) => s.ruleId !== idOf('u1') && s.ruleId !== idOf('u2'))).toBe(true);
  });

  test('unmanaged rules stay put even when moving one would save requests', () => {
    // Keeping a,b,c in place and moving u would take 3 requests; u must stay, so it takes 4.
    const live = liveRules([rule('a'), rule('b'), rule('c'), rule('u'), rule('d'), rule('e')]);
    const declared = declaredRules([rule('d'), rule('e'), rule('a'), rule('b'), rule('c')]);
    const { plan } = planApp({ ...base, declared, live });
    expect(plan.steps.map((s) => s.name).sort()).toEqual(['b', 'c', 'd', 'e']);
    const server = new ModelServer(live);
    for (const step of plan.steps) server.patch(step.ruleId, step.body);
    expect(namesInOrder(server)).toEqual(['d', 'e', 'a', 'u', 'b', 'c']);
  });
});

describe('bodies', () => {
  test('only changed top-level fields are sent, with the declared values', () => {
    const live = liveRules([rule('a', { description: 'old' })]);
    const declared = declaredRules([rule('a', { description: 'new', actions: ['allow', 'hardBlock'] })]);
    const { plan } = planApp({ ...base, declared, live });
    expect(plan.steps).toHaveLength(1);
    expect(plan.steps[0]?.kind).toBe('update');
    expect(plan.steps[0]?.changes).toEqual([
      { field: 'description', before: 'old', after: 'new' },
      { field: 'actions', before: ['hardBlock'], after: ['allow', 'hardBlock'] },
    ]);
    expect(plan.steps[0]?.body).toEqual({ description: 'new', actions: ['allow', 'hardBlock'] });
  });

  test('conditions go whole when one leaf changed', () => {
    const live = liveRules([rule('a')]);
    const conditions = conditionsFor('a');
    conditions.children[0]?.children.push({ conditionType: 'header', fieldOption: 'x-bot', operator: '$exists' });
    const { plan } = planApp({ ...base, declared: declaredRules([rule('a', { conditions })]), live });
    expect(plan.steps[0]?.body).toEqual({ conditions });
    expect(plan.steps[0]?.changes).toEqual([{ field: 'conditions', before: conditionsFor('a'), after: conditions }]);
  });

  test('reordered leaves, a single $in string and a missing description are not changes', () => {
    const live = liveRules([rule('a', { actions: ['allow', 'hardBlock'] })]);
    const same = rule('a', { actions: ['hardBlock', 'allow'] }) as unknown as Record<string, unknown>;
    delete same.description;
    same.conditions = {
      operator: '$or',
      children: [
        {
          operator: '$and',
          children: [
            { conditionType: 'socketIps', operator: '$in', value: '203.0.113.0/24' },
            { conditionType: 'userAgent', operator: '$contains', value: 'a' },
          ],
        },
      ],
    };
    // The rule file boundary makes the normal form (src/semantics/normalise.ts); the planner never fills in defaults.
    const { plan } = planApp({ ...base, declared: declaredRules([normaliseRule(same as never)]), live });
    expect(plan.steps).toEqual([]);
  });

  test('ruleId is never in a body, even when the rule is pinned and renamed and moved', () => {
    const live = liveRules([rule('x'), rule('y')]);
    const declared = declaredRules([rule('y2', { ruleId: idOf('y'), conditions: conditionsFor('y') }), rule('x', { ruleId: idOf('x') })]);
    const { plan } = planApp({ ...base, declared, live });
    expect(plan.steps.length).toBeGreaterThan(0);
    for (const step of plan.steps) expect(Object.keys(step.body)).not.toContain('ruleId');
  });

  test('a rule that moves and changes travels in one PATCH', () => {
    const live = liveRules([rule('a'), rule('b'), rule('c')]);
    const declared = declaredRules([rule('c', { description: 'now first' }), rule('a'), rule('b')]);
    const { plan } = planApp({ ...base, declared, live });
    expect(plan.steps).toEqual([
      {
        ruleId: idOf('c'),
        name: 'c',
        kind: 'update-and-move',
        body: { description: 'now first', priority: 0 },
        changes: [
          { field: 'description', before: '', after: 'now first' },
          { field: 'priority', before: 2, after: 0 },
        ],
      },
    ]);
  });
});

describe('order', () => {
  test('live [c,d,a,b] → [a,b,c,d] moves c then d, each against the list at that moment', () => {
    // c and d change, so keeping the unchanged a,b in place is the cheaper choice.
    const live = liveRules([rule('c'), rule('d'), rule('a'), rule('b')]);
    const declared = declaredRules([rule('a'), rule('b'), rule('c', { status: 'paused' }), rule('d', { status: 'paused' })]);
    const { plan } = planApp({ ...base, declared, live });
    // Sending the final indices (2, then 3) would leave [a,c,b,d].
    expect(plan.steps.map((s) => [s.name, s.body])).toEqual([
      ['c', { status: 'paused', priority: 3 }],
      ['d', { status: 'paused', priority: 3 }],
    ]);
    const server = new ModelServer(live);
    for (const step of plan.steps) server.patch(step.ruleId, step.body);
    expect(namesInOrder(server)).toEqual(['a', 'b', 'c', 'd']);
  });

  test('moves come first in ascending target order, then field-only steps in declared order', () => {
    const live = liveRules([rule('a'), rule('b'), rule('c'), rule('d'), rule('e')]);
    const declared = declaredRules([
      rule('e'),
      rule('a', { description: 'x' }),
      rule('b'),
      rule('d'),
      rule('c', { status: 'paused' }),
    ]);
    const { plan } = planApp({ ...base, declared, live });
    const moves = plan.steps.filter(isMove);
    expect(plan.steps.slice(0, moves.length)).toEqual(moves);
    const targets = moves.map((s) => positionChange(s)?.after);
    expect(targets).toEqual([...targets].sort());
    const server = new ModelServer(live);
    for (const step of plan.steps) server.patch(step.ruleId, step.body);
    expect(namesInOrder(server)).toEqual(['e', 'a', 'b', 'd', 'c']);
  });

  test('a changed rule is preferred as the one to move when it costs no extra request', () => {
    // Either a or b must move; b changes anyway, so moving b keeps the count at one.
    const live = liveRules([rule('a'), rule('b')]);
    const { plan } = planApp({ ...base, declared: declaredRules([rule('b', { description: 'd' }), rule('a')]), live });
    expect(plan.steps).toHaveLength(1);
    expect(plan.steps[0]).toEqual(expect.objectContaining({ name: 'b', body: { description: 'd', priority: 0 } }));
  });

  test('a move records its live and final positions', () => {
    const live = liveRules([rule('a'), rule('b'), rule('c')]);
    const { plan } = planApp({ ...base, declared: declaredRules([rule('c'), rule('a'), rule('b')]), live });
    expect(plan.steps[0]).toEqual({ ruleId: idOf('c'), name: 'c', kind: 'move', body: { priority: 0 }, changes: [{ field: 'priority', before: 2, after: 0 }] });
  });

  test('plan of the live rules against themselves is empty', () => {
    const live = liveRules([rule('a'), rule('b'), rule('c')]);
    const { plan, problems } = planApp({ ...base, declared: declaredFromLive(live), live });
    expect(problems).toEqual([]);
    expect(plan.steps).toEqual([]);
  });

  test('live rules listed out of order are planned by priority', () => {
    const live = liveRules([rule('a'), rule('b')]).reverse();
    const { plan } = planApp({ ...base, declared: declaredRules([rule('a'), rule('b')]), live });
    expect(plan.steps).toEqual([]);
  });
});
