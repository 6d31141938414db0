// Random small plans for the transition check's tests, and the brute force they are held to:
// every request of a finite domain (each field absent, or one of the values the rules mention,
// or one value none mentions) evaluated in every intermediate state of the chosen order.
import { expect } from '@jest/globals';
import fc from 'fast-check';
import { checkOrder, chooseOrder, type ChosenOrder } from '../../src/diff/order/search.js';
import { planApp } from '../../src/plan/planner.js';
import { unitsOf } from '../../src/diff/order/units.js';
import type { TransitionCheck } from '../../src/plan/types.js';
import { simulateSteps } from '../../src/semantics/list-move.js';
import { decide } from '../../src/evaluate/evaluate.js';
import type { TestRequest } from '../../src/evaluate/request.js';
import type { Action, Conditions, DeclaredRule, Leaf, LiveRule, NormalRule, Status } from '../../src/semantics/model.js';
import { live as liveRule } from '../helpers/rules.js';

const LEAVES: Leaf[] = [
  { conditionType: 'path', operator: '$startsWith', value: '/api' },
  { conditionType: 'path', operator: '$eq', value: '/api/public' },
  { conditionType: 'path', operator: '$ne', value: '/health' },
  { conditionType: 'userAgent', operator: '$contains', value: 'python' },
  { conditionType: 'userAgent', operator: '$in', value: ['curl', 'python'] },
  { conditionType: 'userAgent', operator: '$exists' },
  { conditionType: 'country', operator: '$in', value: ['FR', 'DE'] },
];

/** Per request field, the values the leaves mention, one none mentions, and absence. */
const FIELD_VALUES: Record<'path' | 'userAgent' | 'country', (string | undefined)[]> = {
  path: ['/api', '/api/public', '/health', '/zz-none', undefined],
  userAgent: ['python', 'curl', 'zz-none', undefined],
  country: ['FR', 'DE', 'ZZ', undefined],
};

export function domainRequests(): TestRequest[] {
  const requests: TestRequest[] = [];
  for (const path of FIELD_VALUES.path) {
    for (const userAgent of FIELD_VALUES.userAgent) {
      for (const country of FIELD_VALUES.country) {
        requests.push({ ...(path === undefined ? {} : { path }), ...(userAgent === undefined ? {} : { userAgent }), ...(country === undefined ? {} : { country }) });
      }
    }
  }
  return requests;
}

const DOMAIN = domainRequests();

/**
 * Checks the order chosen for `plan`, and the planner's own order, against brute force over
 * DOMAIN: every state in between evaluated on every request.
 */
export function holdsAgainstBruteForce({ live, declared }: SmallPlan, safeOrder: boolean): void {
  const { plan, problems } = planApp({ app: 'default', declared, live, unmanaged: 'keep' });
  expect(problems).toEqual([]);
  const chosen = chooseOrder(live, plan.steps, { safeOrder });
  expect(simulateSteps(live, chosen.steps)).toEqual(simulateSteps(live, plan.steps));
  expect(chosen.steps.length).toBe(plan.steps.length + (chosen.check.order === 'split' ? 1 : 0));
  if (chosen.check.order === 'planner') expect(unitsOf(chosen.steps)).toEqual(unitsOf(plan.steps));
  orderHolds(live, chosen);
  const planner = checkOrder(live, plan.steps, unitsOf(plan.steps));
  if (planner !== undefined) orderHolds(live, planner);
  // Another order is chosen only when it passes through fewer open states than the planner's.
  if (planner !== undefined && chosen.check.order !== 'planner') expect(openStates(chosen.check)).toBeLessThan(openStates(planner.check));
}

function openStates(check: TransitionCheck): number {
  return check.windows.reduce((sum, window) => sum + window.closesAt - window.opensAfter, 0);
}

/** No window of the domain missed (so none claimed falsely absent), every class reported real. */
function orderHolds(live: readonly LiveRule[], { steps, check }: ChosenOrder): void {
  expect(check.unchecked).toEqual([]);
  const start = simulateSteps(live, []);
  const final = simulateSteps(live, steps);
  const guarded = DOMAIN.filter((request) => protectedBy(start, request) && protectedBy(final, request));
  for (let sent = 1; sent < steps.length; sent += 1) {
    const during = simulateSteps(live, steps.slice(0, sent));
    const letThrough = guarded.filter((request) => !protectedBy(during, request));
    const open = check.windows.filter((w) => w.opensAfter <= sent && sent < w.closesAt);
    if (letThrough.length > 0) expect({ sent, windowOpen: open.length > 0 }).toEqual({ sent, windowOpen: true });
  }
  for (const open of check.windows.flatMap((w) => w.classes)) {
    expect(protectedBy(start, open.witness as TestRequest)).toBe(true);
    expect(protectedBy(final, open.witness as TestRequest)).toBe(true);
    expect(protectedBy(simulateSteps(live, steps.slice(0, open.seenAfter)), open.witness as TestRequest)).toBe(false);
  }
  expect(openStates(check)).toBeLessThanOrEqual(Math.max(0, steps.length - 1));
}

export function protectedBy(rules: readonly NormalRule[], request: TestRequest): boolean {
  const { actions } = decide(rules, request);
  return actions.includes('hardBlock') || actions.includes('blockWithChallenge');
}

const conditions: fc.Arbitrary<Conditions> = fc
  .array(fc.array(fc.integer({ min: 0, max: LEAVES.length - 1 }), { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 2 })
  .map((groups) => ({ operator: '$or', children: groups.map((leaves) => ({ operator: '$and', children: leaves.map((i) => structuredClone(LEAVES[i] as Leaf)) })) }));

const fields = fc.record({
  status: fc.constantFrom<Status>('active', 'active', 'active', 'paused'),
  actions: fc.constantFrom<Action[]>(['allow'], ['hardBlock'], ['blockWithChallenge']),
  conditions,
});

const edit = fc.record({
  status: fc.option(fc.constantFrom<Status>('active', 'paused'), { nil: undefined, freq: 4 }),
  actions: fc.option(fc.constantFrom<Action[]>(['allow'], ['hardBlock'], ['blockWithChallenge']), { nil: undefined, freq: 2 }),
  conditions: fc.option(conditions, { nil: undefined, freq: 2 }),
});

export interface SmallPlan {
  live: LiveRule[];
  declared: DeclaredRule[];
}

/** 2 to `maxRules` live rules, declared in a random order with random edits. */
export function smallPlans(maxRules: number): fc.Arbitrary<SmallPlan> {
  return fc.integer({ min: 2, max: maxRules }).chain((n) =>
    fc.record({
      live: fc.array(fields, { minLength: n, maxLength: n }),
      edits: fc.array(edit, { minLength: n, maxLength: n }),
      keys: fc.array(fc.integer({ min: 0, max: 10 }), { minLength: n, maxLength: n }),
    }).map(({ live, edits, keys }) => {
      const liveRules: LiveRule[] = live.map((f, i) => liveRule({ ruleId: `id-${i}`, priority: i, name: `rule ${i}`, description: '', ...f }));
      const order = liveRules.map((_, i) => i).sort((a, b) => (keys[a] as number) - (keys[b] as number) || a - b);
      const declared = order.map((i, index): DeclaredRule => {
        const { ruleId: _id, priority: _p, ...rule } = structuredClone(liveRules[i] as LiveRule);
        const e = edits[i] as (typeof edits)[number];
        return {
          ...rule,
          ...(e.status === undefined ? {} : { status: e.status }),
          ...(e.actions === undefined ? {} : { actions: e.actions }),
          ...(e.conditions === undefined ? {} : { conditions: e.conditions }),
          source: { file: 'rules/all.yaml', line: index + 1, col: 3 },
        };
      });
      return { live: liveRules, declared };
    }),
  );
}
