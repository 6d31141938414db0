// The transition check on the cases a reviewer meets (docs/behaviour.md, "Safe transitions"):
// a block rule moved below an allow rule that is narrowed in another PATCH (the planner's order
// opens a window, botrules sends the narrowing first), two rules that trade what they block (no
// order avoids a window), an exhausted time budget (said, never "no window"), and a few random
// plans against brute force (the slow tier runs hundreds).
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { chooseOrder } from '../../src/diff/order/search.js';
import { orderSteps } from '../../src/diff/order/stage.js';
import { ruleSetsDiff } from '../../src/engine/diff.js';
import { planApp } from '../../src/plan/planner.js';
import { uncheckedWords } from '../../src/render/plan/reasons.js';
import type { DeclaredRule, Leaf, LiveRule, NormalRule, Rule } from '../../src/semantics/model.js';
import { holdsAgainstBruteForce, smallPlans } from './transition-support.js';
import { declared as declaredRule, live as liveRule, normal } from '../helpers/rules.js';

function ruleOf(name: string, actions: Rule['actions'], leaf: Leaf): NormalRule {
  return normal({ name, description: '', status: 'active', actions, conditions: { operator: '$or', children: [{ operator: '$and', children: [leaf] }] } });
}

const python: Leaf = { conditionType: 'userAgent', operator: '$contains', value: 'python' };
const curl: Leaf = { conditionType: 'userAgent', operator: '$contains', value: 'curl' };
const api: Leaf = { conditionType: 'path', operator: '$startsWith', value: '/api' };
const publicApi: Leaf = { conditionType: 'path', operator: '$startsWith', value: '/api/public' };
const france: Leaf = { conditionType: 'country', operator: '$in', value: ['FR'] };
const admin: Leaf = { conditionType: 'path', operator: '$startsWith', value: '/admin' };

function live(rules: readonly Rule[]): LiveRule[] {
  return rules.map((rule, priority) => liveRule({ ...structuredClone(rule), ruleId: `id-${rule.name.replace(/ /g, '-')}` }, priority));
}

function declared(rules: readonly Rule[]): DeclaredRule[] {
  return rules.map((rule, index) => declaredRule({ ...structuredClone(rule), source: { file: 'rules/all.yaml', line: index + 1, col: 3 } }));
}

function planned(liveRules: readonly Rule[], declaredRules: readonly Rule[]) {
  const liveList = live(liveRules);
  const { plan, problems } = planApp({ app: 'default', declared: declared(declaredRules), live: liveList, unmanaged: 'keep' });
  expect(problems).toEqual([]);
  return { liveList, plan };
}

const blockPython = ruleOf('Block python', ['hardBlock'], python);
const allowApi = ruleOf('Allow API', ['allow'], api);
const challengeFrance = ruleOf('Challenge FR', ['blockWithChallenge'], france);
const blockAdmin = ruleOf('Block admin', ['hardBlock'], admin);

describe('choosing the order', () => {
  test('a block rule moved below an allow rule narrowed in another PATCH: the narrowing goes first', () => {
    const narrowed = ruleOf('Allow API', ['allow'], publicApi);
    const { liveList, plan } = planned([blockPython, allowApi, challengeFrance, blockAdmin], [narrowed, challengeFrance, blockAdmin, blockPython]);
    // The planner: move "Block python" to the bottom, then narrow "Allow API".
    expect(plan.steps.map((s) => `${s.kind} ${s.name}`)).toEqual(['move Block python', 'update Allow API']);
    const { steps, check } = chooseOrder(liveList, plan.steps);
    expect(steps.map((s) => `${s.kind} ${s.name}`)).toEqual(['update Allow API', 'move Block python']);
    expect(steps[1]?.body).toEqual({ priority: 3 });
    expect(check).toEqual({ order: 'reordered', windows: [], unchecked: [], plannerWindows: 1 });
  });

  test('two rules that trade what they block: every order opens a window, the plan shows it', () => {
    const { liveList, plan } = planned(
      [ruleOf('Tools', ['hardBlock'], python), ruleOf('Scripts', ['hardBlock'], curl)],
      [ruleOf('Tools', ['hardBlock'], curl), ruleOf('Scripts', ['hardBlock'], python)],
    );
    const { steps, check } = chooseOrder(liveList, plan.steps);
    expect(steps).toEqual(plan.steps);
    expect(check.order).toBe('planner');
    expect(check.windows).toHaveLength(1);
    const [window] = check.windows;
    expect(window).toMatchObject({ opensAfter: 1, closesAt: 2 });
    expect(window?.classes).toHaveLength(1);
    expect(window?.classes[0]).toMatchObject({ before: { kind: 'rule', rule: 'Tools', actions: ['hardBlock'] }, during: { kind: 'no-rule' }, after: { kind: 'rule', rule: 'Scripts', actions: ['hardBlock'] } });
    expect(window?.classes[0]?.witness.userAgent).toEqual(expect.stringContaining('python'));
    expect(check.saferOrderCost).toBeUndefined();
  });

  test('when only one more PATCH avoids the window, the plan offers it and --safe-order takes it', () => {
    const tools: Leaf = { conditionType: 'userAgent', operator: '$in', value: ['curl', 'python'] };
    const notHealth: Leaf = { conditionType: 'path', operator: '$ne', value: '/health' };
    const broad = ruleOf('Block agents', ['hardBlock'], { conditionType: 'userAgent', operator: '$exists' });
    const challenge = { ...ruleOf('Challenge tools', ['blockWithChallenge'], tools), conditions: { operator: '$or' as const, children: [{ operator: '$and' as const, children: [tools, notHealth] }] } };
    const { liveList, plan } = planned(
      [challenge, allowApi, broad],
      [ruleOf('Block agents', ['hardBlock'], tools), allowApi, ruleOf('Challenge tools', ['blockWithChallenge'], python)],
    );
    expect(plan.steps.map((s) => `${s.kind} ${s.name}`)).toEqual(['update-and-move Block agents', 'update-and-move Challenge tools']);
    const fewest = chooseOrder(liveList, plan.steps);
    expect(fewest.steps).toEqual(plan.steps);
    expect(fewest.check).toMatchObject({ order: 'planner', saferOrderCost: 1 });
    expect(fewest.check.windows).toHaveLength(1);
    const safe = chooseOrder(liveList, plan.steps, { safeOrder: true });
    expect(safe.steps.map((s) => `${s.kind} ${s.name} ${JSON.stringify(s.body.priority)}`)).toEqual([
      'move Block agents 0', 'update-and-move Challenge tools 2', 'update Block agents undefined',
    ]);
    expect(safe.check).toEqual({ order: 'split', windows: [], unchecked: [], plannerWindows: 1 });
  });

  test('a budget already spent says what it did not check, and claims no window', () => {
    const narrowed = ruleOf('Allow API', ['allow'], publicApi);
    const { liveList, plan } = planned([blockPython, allowApi, challengeFrance, blockAdmin], [narrowed, challengeFrance, blockAdmin, blockPython]);
    const { steps, check } = chooseOrder(liveList, plan.steps, { deadline: Date.now() - 1 });
    expect(steps).toEqual(plan.steps);
    expect(check.windows).toEqual([]);
    expect(check.unchecked.map(uncheckedWords)).toEqual(['the state after PATCH 1 was not checked: the time budget ran out']);
  });

  test('an order searched in runs of states (bounded memory) gets the same check as one search over all its states', () => {
    fc.assert(
      fc.property(smallPlans(6), ({ live, declared }) => {
        const { plan } = planApp({ app: 'default', declared, live, unmanaged: 'keep' });
        const whole = chooseOrder(live, plan.steps);
        // Fewer positions than one state holds: every state is a search of its own.
        const oneByOne = chooseOrder(live, plan.steps, { maxPositions: 1 });
        expect(oneByOne).toEqual(whole);
      }),
      { numRuns: 60 },
    );
  });

  test('a command whose budget ran out says how to give the check and the diff more time', () => {
    const narrowed = ruleOf('Allow API', ['allow'], publicApi);
    const { liveList, plan } = planned([blockPython, allowApi, challengeFrance, blockAdmin], [narrowed, challengeFrance, blockAdmin, blockPython]);
    const spent = { deadline: Date.now() - 1, budgetSeconds: 3, safeOrder: false };
    expect(orderSteps(plan, liveList, spent).transitions?.unchecked.map(uncheckedWords)).toEqual([
      'the state after PATCH 1 was not checked: the time budget ran out',
      'the check had 3 s for the whole command; --transition-budget SECONDS gives it more',
    ]);
    // With time left, nothing is unchecked and no sentence is added.
    expect(orderSteps(plan, liveList, { ...spent, deadline: Date.now() + 60_000 }).transitions?.unchecked).toEqual([]);
    const [python0, api1] = live([blockPython, allowApi]) as [LiveRule, LiveRule];
    const diff = ruleSetsDiff('default', [python0, api1], [api1, python0], { budgetSeconds: 7, deadline: Date.now() - 1 });
    expect(diff.unchecked.map((part) => part.reason)).toEqual([
      'the time budget ran out before these rules and the ones after them were searched (the diff had 7 s; --diff-budget SECONDS gives it more)',
    ]);
  });

  test('random small plans against brute force', () => {
    fc.assert(fc.property(smallPlans(4), (p) => holdsAgainstBruteForce(p, false)), { numRuns: 25 });
  });
});
